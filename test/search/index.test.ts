import { mkdir, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import { SMALL_WIKI_PAGES, smallWikiScale } from '../../src/search/fusion/semantic-strength.js';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { INDEX_FILE, openSearchIndex, searchDirectory, type SearchIndex } from '../../src/search/index.js';
import { INDEX_FORMAT_VERSION, decodeSnapshot } from '../../src/search/live/store.js';
import { SearchEngine } from '../../src/search/engine.js';
import { readSearchIndexState } from '../../src/search/live/state.js';
import { FACETED_PAGES, TOPIC_PAGES, configWith, pageText, workspaceWith, type TestWorkspace } from './helpers.js';

const keys = async (index: SearchIndex, query: string, limit = 10): Promise<string[]> =>
  (await index.search(query, { limit })).results.map((r) => r.key);

async function open(ws: TestWorkspace, search: Record<string, unknown> = {}): Promise<SearchIndex> {
  return openSearchIndex(ws.root, ws.schema, configWith(search), { env: {}, rescanAfterMs: 0 });
}

describe('search index: results', () => {
  it('ranks the page about the query first and reports every lane', async () => {
    const ws = await workspaceWith(TOPIC_PAGES);
    const index = await open(ws);
    const response = await index.search('sourdough starter');
    expect(response.query).toBe('sourdough starter');
    expect(response.lanes).toEqual({ lexical: 'ok', semantic: 'ok', token: 'ok' });
    const top = response.results[0];
    expect(top?.key).toBe('sourdough');
    expect(top?.path).toBe('wiki/concepts/sourdough.md');
    expect(top?.title).toBe('Sourdough bread');
    expect(top?.summary).toBe('Bread leavened by a wild yeast starter');
    expect(top?.lanes.lexical).toBe(1);
    expect(top?.snippet).toMatch(/sourdough starter ferments/);
    await index.close();
  });

  it('returns the page graph: outgoing links and backlinks', async () => {
    const ws = await workspaceWith(TOPIC_PAGES);
    const index = await open(ws);
    const results = (await index.search('attention heads')).results;
    const multi = results.find((r) => r.key === 'multi-head-attention');
    const single = results.find((r) => r.key === 'attention');
    expect(multi?.links).toEqual(['attention']);
    expect(multi?.backlinks).toEqual(['attention']);
    expect(single?.links).toEqual(['multi-head-attention']);
    const sourdough = (await index.search('sourdough')).results.find((r) => r.key === 'sourdough');
    expect(sourdough?.links).toEqual([]);
    expect(sourdough?.backlinks).toEqual([]);
    await index.close();
  });

  it('never returns the index or the log', async () => {
    const ws = await workspaceWith(TOPIC_PAGES);
    await ws.write('wiki/index.md', '# Index\n\n- [[sourdough]] sourdough telescope\n');
    await ws.write('wiki/log.md', '# Log\n\n## [2026-01-01] ingest | sourdough telescope\n');
    const index = await open(ws);
    const found = await keys(index, 'sourdough telescope', 20);
    expect(found).not.toContain('index');
    expect(found).not.toContain('log');
    expect(index.info().pages).toBe(Object.keys(TOPIC_PAGES).length);
    await index.close();
  });

  it('answers a stopword-only query with no results and refuses an empty one', async () => {
    const ws = await workspaceWith(TOPIC_PAGES);
    const index = await open(ws);
    expect((await index.search('the of and what')).results).toEqual([]);
    await expect(index.search('   ')).rejects.toThrow(UsageError);
    await expect(index.search('bread', { limit: 0 })).rejects.toThrow(UsageError);
    await index.close();
  });

  it('finds CJK text through the token and lexical lanes', async () => {
    const ws = await workspaceWith({
      ...TOPIC_PAGES,
      'wiki/concepts/zhuyili.md': pageText('注意力机制', '自注意力的中文说明', '注意力机制让模型关注输入的不同部分。'),
    });
    const index = await open(ws);
    const response = await index.search('注意力');
    expect(response.results[0]?.key).toBe('zhuyili');
    expect(response.results[0]?.lanes.token).toBe(1);
    await index.close();
  });
});

describe('search index: lanes that are off', () => {
  it('drops a lane with weight 0 and says so', async () => {
    const ws = await workspaceWith(TOPIC_PAGES);
    const index = await open(ws, { weights: { token: 0 } });
    const response = await index.search('telescope');
    expect(response.lanes.token).toBe('skipped: weight is 0');
    for (const result of response.results) expect(result.lanes.token).toBeUndefined();
    await index.close();
  });

  it('skips the semantic lane when the embedder is none, and fuses the others alone', async () => {
    const ws = await workspaceWith(TOPIC_PAGES);
    const index = await open(ws, { embedder: { kind: 'none' } });
    const response = await index.search('orbit telescope', { limit: 3 });
    expect(response.lanes.semantic).toMatch(/^skipped: /);
    expect(response.results.length).toBeGreaterThan(0);
    for (const result of response.results) {
      expect(result.lanes.semantic).toBeUndefined();
      const expected = (result.contributions?.lexical ?? 0) + (result.contributions?.token ?? 0);
      expect(result.score).toBeCloseTo(expected, 12);
    }
    expect(index.info().lanes.semantic).toMatch(/^skipped: /);
    expect(index.info().embedder).toBeUndefined();
    await index.close();
  });

  it('skips the built-in embedder until there are enough pages to train on', async () => {
    const ws = await workspaceWith({ 'wiki/concepts/only.md': pageText('Only page', 'Alone', 'A single page about gliders.') });
    const index = await open(ws);
    const response = await index.search('gliders');
    expect(response.lanes.semantic).toMatch(/^skipped: .*at least 3 pages/);
    expect(response.results.map((r) => r.key)).toEqual(['only']);
    for (const [pagePath, content] of Object.entries(TOPIC_PAGES)) await ws.write(pagePath, content);
    expect((await index.search('gliders')).lanes.semantic).toBe('ok');
    await index.close();
  });
});

describe('search index: incremental updates', () => {
  it('follows edits, additions and deletions on disk', async () => {
    const ws = await workspaceWith(TOPIC_PAGES);
    const index = await open(ws);
    expect(await keys(index, 'rye')).toEqual([]);
    await ws.write('wiki/concepts/sourdough.md', pageText('Sourdough bread', 'Bread from a starter', 'A rye sourdough needs a long proof.'));
    await ws.write('wiki/concepts/pretzel.md', pageText('Pretzel', 'Knotted bread', 'A pretzel is dipped in lye before baking.'));
    await ws.remove('wiki/entities/jwst.md');
    expect(await index.refresh()).toEqual({ added: 1, changed: 1, removed: 1 });
    expect((await keys(index, 'rye'))[0]).toBe('sourdough');
    expect((await keys(index, 'pretzel lye'))[0]).toBe('pretzel');
    expect(await keys(index, 'webb infrared', 20)).not.toContain('jwst');
    expect(await index.refresh()).toEqual({ added: 0, changed: 0, removed: 0 });
    await index.close();
  });

  it('notices a same-size rewrite that kept its mtime (hash on doubt)', async () => {
    const ws = await workspaceWith(TOPIC_PAGES);
    const index = await open(ws);
    const file = path.join(ws.root, 'wiki/entities/hubble.md');
    const before = await stat(file);
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.replace('galaxies', 'quasarss'));
    await utimes(file, before.atime, before.mtime);
    expect((await stat(file)).size).toBe(before.size);
    expect(await index.refresh()).toEqual({ added: 0, changed: 1, removed: 0 });
    expect((await keys(index, 'quasarss'))[0]).toBe('hubble');
    await index.close();
  });

  it('takes writes made through the tools (upsertPage, removePage) and persists them', async () => {
    const ws = await workspaceWith(TOPIC_PAGES);
    const index = await openSearchIndex(ws.root, ws.schema, configWith(), { env: {} });
    const content = pageText('Glider', 'An unpowered aircraft', 'A glider rides thermals without an engine.');
    await ws.write('wiki/concepts/glider.md', content);
    await index.upsertPage('wiki/concepts/glider.md', content);
    expect((await keys(index, 'glider thermals'))[0]).toBe('glider');
    await ws.remove('wiki/entities/hubble.md');
    await index.removePage('wiki/entities/hubble.md');
    expect(await keys(index, 'hubble galaxies')).not.toContain('hubble');
    await index.close();

    const reopened = await openSearchIndex(ws.root, ws.schema, configWith(), { env: {} });
    expect(reopened.info().builtAt).toBe(index.info().builtAt);
    expect(reopened.info().pages).toBe(Object.keys(TOPIC_PAGES).length);
    expect((await keys(reopened, 'glider thermals'))[0]).toBe('glider');
    await reopened.close();
  });
});

describe('search index: concurrent use', () => {
  it('applies writes and searches issued together one change at a time', async () => {
    const ws = await workspaceWith(TOPIC_PAGES);
    const index = await open(ws);
    const pages = Array.from({ length: 6 }, (_, i) => [`wiki/concepts/kite-${i}.md`, pageText(`Kite ${i}`, 'A kite', `Kite number ${i} flies on a windy beach.`)] as const);
    for (const [pagePath, content] of pages) await ws.write(pagePath, content);
    await ws.remove('wiki/entities/jwst.md');
    const settled = await Promise.all([
      ...pages.map(([pagePath, content]) => index.upsertPage(pagePath, content)),
      index.search('kite windy beach'),
      index.refresh(),
      index.search('telescope'),
      index.removePage('wiki/entities/jwst.md'),
    ]);
    expect(settled).toHaveLength(pages.length + 4);
    const found = await keys(index, 'kite windy beach', 20);
    for (let i = 0; i < pages.length; i++) expect(found).toContain(`kite-${i}`);
    expect(found).not.toContain('jwst');
    expect(index.info().pages).toBe(Object.keys(TOPIC_PAGES).length + pages.length - 1);
    await index.close();
  });
});

describe('search index: built-in embedder drift', () => {
  it('folds new pages in, then retrains once enough of the corpus is new', async () => {
    const ws = await workspaceWith(TOPIC_PAGES);
    const index = await open(ws);
    expect(index.info().embedder).toMatch(/trained on 6 pages/);
    for (let i = 0; i < 4; i++) await ws.write(`wiki/concepts/extra-${i}.md`, pageText(`Extra ${i}`, 'More', `Gliders and thermals, note ${i}.`));
    await index.refresh();
    expect(index.info().embedder).toMatch(/trained on 6 pages/);
    await ws.write('wiki/concepts/extra-4.md', pageText('Extra 4', 'More', 'Gliders and thermals, note 4.'));
    await index.refresh();
    expect(index.info().embedder).toMatch(/trained on 11 pages/);
    expect((await index.search('gliders thermals')).lanes.semantic).toBe('ok');
    await index.close();
  });
});

describe('search index: persistence', () => {
  it('saves under .wiki/search and reloads without rebuilding', async () => {
    const ws = await workspaceWith(TOPIC_PAGES);
    const first = await open(ws);
    const expected = await first.search('telescope orbit');
    await first.close();
    const file = path.join(searchDirectory(ws.root), INDEX_FILE);
    expect(decodeSnapshot(await readFile(file)).sections['docs.paths']).toBeDefined();

    const second = await open(ws);
    expect(second.info().builtAt).toBe(first.info().builtAt);
    expect(await second.refresh()).toEqual({ added: 0, changed: 0, removed: 0 });
    const again = await second.search('telescope orbit');
    expect(again.results.map((r) => [r.key, r.score])).toEqual(expected.results.map((r) => [r.key, r.score]));
    await second.close();
  });

  it('redoes only the semantic lane when the embedder configuration changes', async () => {
    const ws = await workspaceWith(TOPIC_PAGES);
    const off = await open(ws, { embedder: { kind: 'none' } });
    await off.close();
    const on = await open(ws);
    expect(on.info().builtAt).toBe(off.info().builtAt);
    expect(on.info().lanes.semantic).toBe('ok');
    expect((await on.search('telescope')).results.some((r) => r.lanes.semantic !== undefined)).toBe(true);
    await on.close();
    const smaller = await open(ws, { embedder: { dimensions: 8 } });
    expect(smaller.info().builtAt).toBe(off.info().builtAt);
    expect((await smaller.search('telescope')).lanes.semantic).toBe('ok');
    await smaller.close();
  });

  const damage: Array<[string, (bytes: Buffer) => Buffer]> = [
    ['garbage', () => Buffer.from('not an index')],
    ['truncated', (b) => b.subarray(0, Math.floor(b.length / 2))],
    ['from another format version', (b) => {
      const copy = Buffer.from(b);
      copy.writeUInt32LE(999, 8);
      return copy;
    }],
  ];
  it.each(damage)('rebuilds transparently from a %s index file', async (_name, spoil) => {
    const ws = await workspaceWith(TOPIC_PAGES);
    const first = await open(ws);
    const builtAt = first.info().builtAt;
    await first.close();
    const file = path.join(searchDirectory(ws.root), INDEX_FILE);
    await writeFile(file, spoil(await readFile(file)));
    await new Promise((resolve) => setTimeout(resolve, 5));

    const second = await open(ws);
    expect(second.info().builtAt).not.toBe(builtAt);
    expect(second.info().pages).toBe(Object.keys(TOPIC_PAGES).length);
    expect((await keys(second, 'sourdough'))[0]).toBe('sourdough');
    await second.close();
    expect(decodeSnapshot(await readFile(file)).meta).toMatchObject({ builtAt: second.info().builtAt });
  });

  it('rebuilds an index saved by the MiniSearch-based lexical index (format 4), which it recognises by its version', async () => {
    // Saved by the code before the owned BM25 index, over these very pages.
    const old = await readFile(path.join(import.meta.dirname, 'live', 'fixtures', 'index-format-4.bin'));
    expect(old.readUInt32LE(8)).toBe(4);
    // Only its format tells it apart: with the version word changed it reads as a file,
    // and its sections are still refused (the page table's languages are missing before the
    // lexical lane's sections are reached).
    const relabelled = Buffer.from(old);
    relabelled.writeUInt32LE(INDEX_FORMAT_VERSION, 8);
    const { sections } = decodeSnapshot(relabelled);
    expect(() => SearchEngine.decode(sections, { off: 'test' })).toThrow(/languages are missing|lexical/);

    const ws = await workspaceWith(TOPIC_PAGES);
    const file = path.join(searchDirectory(ws.root), INDEX_FILE);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, old);
    expect((await readSearchIndexState(ws.root, configWith(), {})).problem).toMatch(/another version/);
    const index = await open(ws);
    expect(index.info().builtAt).not.toBe('2026-11-23T12:40:57.214Z');
    expect(index.info().pages).toBe(Object.keys(TOPIC_PAGES).length);
    expect((await keys(index, 'sourdough'))[0]).toBe('sourdough');
    await index.close();
    expect((await readFile(file)).readUInt32LE(8)).toBe(INDEX_FORMAT_VERSION);
    expect((await readSearchIndexState(ws.root, configWith(), {})).built).toBe(true);
  });
});

describe('search index: the semantic lane’s strength in the corpus', () => {
  // Each page's semantic contribution with the weight scaled by the strength, over the same without.
  async function semanticScales(ws: TestWorkspace): Promise<number[]> {
    const scaled = await openSearchIndex(ws.root, ws.schema, configWith(), { env: {}, rescanAfterMs: 0 });
    const plain = await openSearchIndex(ws.root, ws.schema, configWith(), { env: {}, rescanAfterMs: 0, persist: false, tuning: { semanticStrength: { reference: 0.69, exponent: 0 } } });
    const ratios: number[] = [];
    for (const query of ['attention heads', 'sourdough crust', 'comet orbit']) {
      const before = (await plain.search(query, { limit: 30 })).results;
      for (const result of (await scaled.search(query, { limit: 30 })).results) {
        const other = before.find((r) => r.path === result.path)?.contributions?.semantic;
        if (other && result.contributions?.semantic) ratios.push(result.contributions.semantic / other);
      }
    }
    await scaled.close();
    await plain.close();
    return ratios;
  }

  it('is measured when the built-in embedder trains, scales the semantic weight alike for every page, and is kept with the saved index', async () => {
    const ws = await workspaceWith(FACETED_PAGES);
    const built = await semanticScales(ws);
    expect(built.length).toBeGreaterThan(10);
    expect(built[0]!).not.toBeCloseTo(1, 3);
    for (const ratio of built) expect(ratio).toBeCloseTo(built[0]!, 9);
    // Opened again from the saved index: no training, the same strength.
    const loaded = await semanticScales(ws);
    for (const ratio of loaded) expect(ratio).toBeCloseTo(built[0]!, 9);
  });

  it('is reported with each answer: the factor on the configured semantic weight and the weights fusion used', async () => {
    const ws = await workspaceWith(FACETED_PAGES);
    const [ratio] = await semanticScales(ws);
    const index = await openSearchIndex(ws.root, ws.schema, configWith(), { env: {}, rescanAfterMs: 0 });
    const answer = await index.search('attention heads');
    const pages = index.info().pages;
    await index.close();
    // Under SMALL_WIKI_PAGES the wiki's size scales the weight too (both sides of `ratio` carry it).
    expect(pages).toBeLessThan(SMALL_WIKI_PAGES);
    expect(answer.semanticWeightFactor).toBeCloseTo(ratio! * smallWikiScale(pages), 9);
    expect(answer.weights).toEqual({ lexical: 1, semantic: 1.5 * answer.semanticWeightFactor, token: 0.2 });
  });
});
