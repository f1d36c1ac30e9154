import { describe, expect, it, vi } from 'vitest';
import { openSearchIndex } from '../../../src/search/index.js';
import { TOPIC_PAGES, configWith, workspaceWith } from '../helpers.js';

const reads = vi.hoisted(() => new Map<string, number>());

vi.mock('../../../src/search/live/read-page.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../src/search/live/read-page.js')>();
  return {
    ...actual,
    readPage: (root: string, pagePath: string): string | undefined => {
      reads.set(pagePath, (reads.get(pagePath) ?? 0) + 1);
      return actual.readPage(root, pagePath);
    },
  };
});

describe('LiveSearchIndex.search', () => {
  it.each([
    ['a plain query', 'attention heads'],
    ['a phrase', '"attention heads" softmax'],
    ['an exclusion', 'attention -sourdough'],
  ])('reads each result page once for %s (the filter and the snippet share the read)', async (_name, query) => {
    const ws = await workspaceWith(TOPIC_PAGES);
    const index = await openSearchIndex(ws.root, ws.schema, configWith(), { env: {}, persist: false, rescanAfterMs: 60_000 });
    try {
      reads.clear();
      const response = await index.search(query, { limit: 5 });
      expect(response.results.length).toBeGreaterThan(0);
      for (const result of response.results) expect(reads.get(result.path), result.path).toBe(1);
      expect([...reads.values()].every((count) => count === 1)).toBe(true);
    } finally {
      await index.close();
    }
  });
});
