import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { factsDbFile, updateFacts, type FactsSettings } from '../../src/facts/extract.js';
import { FactStore } from '../../src/facts/store.js';
import { ftsQuery } from '../../src/facts/fts-text.js';
import { describeWithSqlite } from '../helpers/sqlite.js';

/** The facts store's full-text search with search's analysers: each fact in its source's language. */

const settings: FactsSettings = { grain: 'sentence', similarity: 0.85, maxSourceBytes: 1024 * 1024 };
let root: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'wiki-facts-lang-'));
  await mkdir(path.join(root, 'raw'), { recursive: true });
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function write(name: string, text: string): Promise<string> {
  await writeFile(path.join(root, 'raw', name), text);
  return `raw/${name}`;
}

async function search(query: string): Promise<string[]> {
  const store = await FactStore.open(factsDbFile(root), { readonly: true });
  try {
    return store.search(query, 10).map((hit) => hit.text);
  } finally {
    store.close();
  }
}

const GERMAN =
  'Die Häuser der Altstadt wurden im achtzehnten Jahrhundert aus Fachwerk gebaut. Die Kinder der Stadt gehen in die neue Schule am Markt. Der Fluss ist nicht schiffbar.';
const ENGLISH = 'The old houses of the town were built of timber. The children walk to the new school by the market.';

describeWithSqlite('facts search in the source’s language', () => {
  it('finds a German fact by the stem of its word, with or without the umlaut', async () => {
    await updateFacts(root, [await write('stadt.md', GERMAN)], settings);
    expect(await search('Haus')).toEqual(['Die Häuser der Altstadt wurden im achtzehnten Jahrhundert aus Fachwerk gebaut.']);
    expect(await search('Hauser')).toEqual(['Die Häuser der Altstadt wurden im achtzehnten Jahrhundert aus Fachwerk gebaut.']);
    expect(await search('Kind')).toEqual(['Die Kinder der Stadt gehen in die neue Schule am Markt.']);
  });

  it('a German stopword in the question matches no German fact; an English fact is found as before', async () => {
    await updateFacts(root, [await write('stadt.md', GERMAN), await write('town.md', ENGLISH)], settings);
    expect(await search('die')).toEqual([]);
    expect(await search('houses')).toEqual(['The old houses of the town were built of timber.']);
    // One question, both languages: each fact matched in its own.
    expect((await search('Schule school')).sort()).toEqual([
      'Die Kinder der Stadt gehen in die neue Schule am Markt.',
      'The children walk to the new school by the market.',
    ]);
  });

  it('an English-only store queries exactly as it always did', () => {
    expect(ftsQuery('When did the bridge open?')).toBe('"bridge" OR "open"');
    expect(ftsQuery('Häuser', ['de'])).toBe('"häuser" OR "deǂhaus"');
  });

  it('a question cannot become FTS5 syntax through its analysed terms', () => {
    expect(() => ftsQuery('"Haus" OR NEAR(a b) *', ['de'])).not.toThrow();
    expect(ftsQuery('"Haus"', ['de'])).toBe('"haus" OR "deǂhaus"');
  });
});
