import { describe, expect, it, vi } from 'vitest';
import { openSearchIndex } from '../../../src/search/index.js';
import { keyFromPath } from '../../../src/wiki/keys.js';
import { TOPIC_PAGES, configWith, workspaceWith } from '../helpers.js';

const reads = vi.hoisted(() => new Map<string, number>());

vi.mock('../../../src/wiki/page-read.js', async (importOriginal) => {
  const { withCountedReads } = await import('../page-reads.js');
  return withCountedReads(await importOriginal<typeof import('../../../src/wiki/page-read.js')>(), reads);
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

describe('LiveSearchIndex.pathsOf', () => {
  it('finds the pages with each key, as reading every page path would', async () => {
    // Names alike in length, first letter or the letter before `.md` (what the lookup compares), short ones, non-ASCII.
    const names = ['attention', 'attentions', 'bttention', 'attentiom', 'a', 'ab', 'abc', 'b', 'sourdough', 'attention.md', 'café', 'cafe'];
    const pages: Record<string, string> = {};
    for (const folder of ['concepts', 'entities', 'deep/nested']) for (const name of names) pages[`wiki/${folder}/${name}.md`] = `# ${name}\n\nText.\n`;
    const ws = await workspaceWith(pages);
    const index = await openSearchIndex(ws.root, ws.schema, configWith(), { env: {}, persist: false });
    try {
      const keys = [...names, 'missing', '', 'attention.md.md', 'b.md', 'abc.md', 'at', 'attentioo'];
      const every = Object.keys(pages);
      const expected = new Map(keys.map((key) => [key, every.filter((pagePath) => keyFromPath(pagePath) === key)]));
      const found = index.pathsOf(keys);
      for (const key of keys) expect([...(found.get(key) ?? [])].sort(), key).toEqual([...(expected.get(key) ?? [])].sort());
      expect(found.get('attention')).toHaveLength(3);
    } finally {
      await index.close();
    }
  });
});
