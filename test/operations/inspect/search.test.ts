import { access, readFile, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../../src/config/load.js';
import { UsageError } from '../../../src/errors.js';
import { searchWorkspace, surfacedSearch } from '../../../src/operations/inspect/search.js';
import { INDEX_FILE, openSearchIndex, searchDirectory } from '../../../src/search/index.js';
import { TOPIC_PAGES, pageText, workspaceWith } from '../../search/helpers.js';

const reads = vi.hoisted(() => new Map<string, number>());

// Every page read of a search, counted (the reads themselves are the real ones).
vi.mock('../../../src/wiki/page-read.js', async (importOriginal) => {
  const { withCountedReads } = await import('../../search/page-reads.js');
  return withCountedReads(await importOriginal<typeof import('../../../src/wiki/page-read.js')>(), reads);
});

describe('searchWorkspace', () => {
  it('searches, keeps contributions only when explaining, and leaves the index persisted', async () => {
    const ws = await workspaceWith(TOPIC_PAGES);
    const config = await loadConfig(ws.root, { env: {} });
    const plain = await searchWorkspace(ws.root, ws.schema, config, { query: 'telescope', limit: 2, env: {} });
    expect(plain.results).toHaveLength(2);
    expect(plain.results.every((r) => r.contributions === undefined)).toBe(true);
    const explained = await searchWorkspace(ws.root, ws.schema, config, { query: 'telescope', explain: true, env: {} });
    expect(explained.results[0]?.contributions).toBeDefined();
    await expect(access(path.join(searchDirectory(ws.root), INDEX_FILE))).resolves.toBeUndefined();
  });

  it.each([
    ['an empty query', { query: '  ' }],
    ['a limit of 0', { query: 'bread', limit: 0 }],
    ['a fractional limit', { query: 'bread', limit: 1.5 }],
  ])('refuses %s as a usage error', async (_name, request) => {
    const ws = await workspaceWith(TOPIC_PAGES);
    const config = await loadConfig(ws.root, { env: {} });
    await expect(searchWorkspace(ws.root, ws.schema, config, { ...request, env: {} })).rejects.toThrow(UsageError);
  });

  it('reads each page once per search: the hits for their snippets and for who may see them, and their links\' pages', async () => {
    const ws = await workspaceWith(TOPIC_PAGES);
    // Pages older than the window in which an unchanged stat is doubted: the second search's scan reads none.
    const old = new Date(Date.now() - 60_000);
    for (const pagePath of Object.keys(TOPIC_PAGES)) await utimes(path.join(ws.root, pagePath), old, old);
    const config = await loadConfig(ws.root, { env: {} });
    await searchWorkspace(ws.root, ws.schema, config, { query: 'attention', env: {} });
    for (const query of ['attention heads', '"attention heads"', 'attention -sourdough']) {
      reads.clear();
      const answer = await searchWorkspace(ws.root, ws.schema, config, { query, limit: 3, env: {} });
      expect(answer.results.length).toBeGreaterThan(0);
      for (const result of answer.results) expect(reads.get(result.path), `${query}: ${result.path}`).toBe(1);
      expect([...reads.values()].every((count) => count === 1), query).toBe(true);
    }
  });

  it("names a hit's link and backlink holders only when they may be shown, from the index without reading them, and sees an edit to usage_mode at once", async () => {
    const ws = await workspaceWith({
      'wiki/concepts/quasar.md': pageText('Quasar', 'A bright galactic nucleus', 'A quasar outshines its galaxy. See [[blazar]] and [[magnetar]].'),
      'wiki/concepts/blazar.md': pageText('Blazar', 'A jet seen head on', 'Its jet points at us.', { usage_mode: 'auto' }),
      'wiki/concepts/magnetar.md': pageText('Magnetar', 'A magnetised neutron star', 'Its field is strong.', { usage_mode: 'never' }),
      'wiki/concepts/pulsar.md': pageText('Pulsar', 'A spinning neutron star', 'Unlike a [[quasar]], it pulses.', { usage_mode: 'auto' }),
    });
    const old = new Date(Date.now() - 60_000);
    for (const name of ['quasar', 'blazar', 'magnetar', 'pulsar']) await utimes(path.join(ws.root, `wiki/concepts/${name}.md`), old, old);
    const config = await loadConfig(ws.root, { env: {} });
    const quasar = async () => {
      const answer = await searchWorkspace(ws.root, ws.schema, config, { query: 'outshines', limit: 1, env: {} });
      expect(answer.results.map((r) => r.key)).toEqual(['quasar']);
      return answer.results[0]!;
    };
    await quasar();
    reads.clear();
    expect(await quasar()).toMatchObject({ links: ['blazar'], backlinks: ['pulsar'] });
    // Hits are judged over a window wider than the one shown (the same labels on every path), so a
    // page in that window may have its snippet read — once, never more.
    expect(reads.get('wiki/concepts/magnetar.md') ?? 0, 'magnetar').toBeLessThanOrEqual(1);
    expect(reads.get('wiki/concepts/blazar.md') ?? 0, 'blazar').toBeLessThanOrEqual(1);

    // Edited in place, same size, as an editor saves: the next search sees it in the holders' check too.
    for (const name of ['blazar', 'pulsar']) {
      const file = path.join(ws.root, `wiki/concepts/${name}.md`);
      const text = await readFile(file, 'utf8');
      const edited = text.replace('usage_mode: auto', 'usage_mode: never').replace('.\n', '\n');
      expect(edited.length).toBe(text.length);
      await writeFile(file, edited);
    }
    expect(await quasar()).toMatchObject({ links: [], backlinks: [] });
  });

  it('in a long-running index that has not rescanned, a holder edited to usage_mode: never is read again, not trusted from the index', async () => {
    const ws = await workspaceWith({
      'wiki/concepts/quasar.md': pageText('Quasar', 'A bright galactic nucleus', 'A quasar outshines its galaxy. See [[blazar]].'),
      'wiki/concepts/blazar.md': pageText('Blazar', 'A jet seen head on', 'Its jet points at us.', { usage_mode: 'auto' }),
    });
    const old = new Date(Date.now() - 60_000);
    for (const name of ['quasar', 'blazar']) await utimes(path.join(ws.root, `wiki/concepts/${name}.md`), old, old);
    const config = await loadConfig(ws.root, { env: {} });
    const index = await openSearchIndex(ws.root, ws.schema, config.config, { env: {}, rescanAfterMs: Number.POSITIVE_INFINITY });
    try {
      const search = async () => (await surfacedSearch(ws.root, ws.schema, index, 'outshines', { limit: 1 }, undefined)).results[0];
      expect(await search()).toMatchObject({ key: 'quasar', links: ['blazar'] });
      const file = path.join(ws.root, 'wiki/concepts/blazar.md');
      const text = await readFile(file, 'utf8');
      await writeFile(file, text.replace('usage_mode: auto', 'usage_mode: never').replace('.\n', '\n'));
      expect(await search()).toMatchObject({ key: 'quasar', links: [] });
    } finally {
      await index.close();
    }
  });
});
