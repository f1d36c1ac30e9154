import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { factsDbFile, rebuildFacts, updateFacts, type FactsSettings } from '../../src/facts/extract.js';
import { FactStore } from '../../src/facts/store.js';
import { describeWithSqlite } from '../helpers/sqlite.js';

const settings: FactsSettings = { grain: 'sentence', similarity: 0.85, maxSourceBytes: 1024 * 1024 };
let root: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'wiki-facts-'));
  await mkdir(path.join(root, 'raw'), { recursive: true });
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function write(name: string, text: string): Promise<string> {
  await writeFile(path.join(root, 'raw', name), text);
  return `raw/${name}`;
}

async function withStore<T>(use: (store: FactStore) => T): Promise<T> {
  const store = await FactStore.open(factsDbFile(root), { readonly: true });
  try {
    return use(store);
  } finally {
    store.close();
  }
}

describeWithSqlite('facts store', () => {
  it('leaves out a source over facts.maxSourceBytes, naming it, and extracts the rest', async () => {
    const small = await write('small.md', 'Water boils at 100 degrees Celsius.');
    const big = await write('big.md', 'A long line of text about nothing in particular. '.repeat(30));
    const report = await updateFacts(root, [small, big], { ...settings, maxSourceBytes: 1024 });
    expect(report.sources).toMatchObject({ extracted: 1, tooLarge: ['raw/big.md'] });
    expect(await withStore((s) => s.search('particular', 5))).toEqual([]);
  });

  it('inserts new facts, merges identical ones across sources and keeps both provenances', async () => {
    const a = await write('a.md', 'Water boils at 100 degrees Celsius. Ice melts at zero degrees.');
    const b = await write('b.md', '# Heat\n\nwater boils at 100 degrees celsius');
    const report = await updateFacts(root, [a, b], settings);
    expect(report.facts).toEqual({ inserted: 2, merged: 1, reworded: 0, tombstoned: 0 });
    const hit = await withStore((s) => s.search('boils', 5));
    expect(hit).toHaveLength(1);
    const fact = (await withStore((s) => s.get(hit[0]!.id)))!;
    expect(fact.provenance.map((p) => `${p.source}#L${p.lineStart}-${p.lineEnd} ${p.heading}`)).toEqual(['raw/a.md#L1-1 ', 'raw/b.md#L3-3 Heat']);
    expect(await withStore((s) => s.stats())).toMatchObject({ live: 2, sources: 2, duplicatesMerged: 1, tombstoned: 0 });
  });

  it('leaves every byte of the store alone when no source changed', async () => {
    const a = await write('a.md', 'Water boils at 100 degrees Celsius. Ice melts at zero degrees.');
    await updateFacts(root, [a], settings);
    const before = await readFile(factsDbFile(root));
    const again = await updateFacts(root, [a], settings, '2099-01-01T00:00:00.000Z');
    expect(again.sources).toMatchObject({ extracted: 0, unchanged: 1 });
    expect(Buffer.compare(before, await readFile(factsDbFile(root)))).toBe(0);
  });

  it('a rewording from the same source updates the fact, keeps its id and records lineage; a dropped sentence is tombstoned', async () => {
    const a = await write('a.md', 'The bridge was opened to traffic in 1932 by the mayor. Its span is four hundred metres long.');
    const b = await write('b.md', 'An unrelated source says something else entirely.');
    await updateFacts(root, [a, b], settings);
    const [before] = await withStore((s) => s.search('bridge', 5));
    const untouched = await withStore((s) => s.factsOfSources([b]));
    await write('a.md', 'The bridge was opened to traffic in 1932 by the mayors.');
    const report = await updateFacts(root, [a, b], settings);
    expect(report.facts).toEqual({ inserted: 0, merged: 0, reworded: 1, tombstoned: 1 });
    const after = (await withStore((s) => s.get(before!.id)))!;
    expect(after.text).toBe('The bridge was opened to traffic in 1932 by the mayors.');
    expect(after.lineage.map((l) => l.previousText)).toEqual(['The bridge was opened to traffic in 1932 by the mayor.']);
    expect(await withStore((s) => s.search('span metres', 5))).toEqual([]);
    expect(await withStore((s) => s.factsOfSources([b]))).toEqual(untouched);
  });

  it('a deleted source tombstones only the facts no other source states; rebuild recreates the store', async () => {
    const a = await write('a.md', 'Shared sentence about rivers here. Only source a says this.');
    const b = await write('b.md', 'Shared sentence about rivers here.');
    await updateFacts(root, [a, b], settings);
    const report = await updateFacts(root, [b], settings);
    expect(report.sources.removed).toBe(1);
    expect(report.facts.tombstoned).toBe(1);
    expect(await withStore((s) => s.stats())).toMatchObject({ live: 1, tombstoned: 1, sources: 1 });
    const rebuilt = await rebuildFacts(root, [a, b], settings);
    expect(rebuilt.facts).toMatchObject({ inserted: 2, merged: 1, tombstoned: 0 });
    expect(await withStore((s) => s.stats())).toMatchObject({ live: 2, tombstoned: 0, sources: 2 });
  });

  it('search treats punctuation in the query as words, never as FTS syntax', async () => {
    const a = await write('a.md', 'The "quoted" value is AND-ed (carefully) with NEAR terms.');
    await updateFacts(root, [a], settings);
    expect(await withStore((s) => s.search('"quoted" AND (NEAR*', 5))).toHaveLength(1);
    expect(await withStore((s) => s.search('!!!', 5))).toEqual([]);
  });
});
