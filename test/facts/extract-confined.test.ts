import { link, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { factsDbFile, updateFacts, type FactsSettings } from '../../src/facts/extract.js';
import { FactStore } from '../../src/facts/store.js';
import { describeWithSqlite } from '../helpers/sqlite.js';

/**
 * Facts reach the model, so a raw source is read as the model's read_file reads it: a hard
 * link (whose content may be a denied or outside file's) is refused, named with why, and
 * whatever facts it gave before are dropped.
 */
const settings: FactsSettings = { grain: 'sentence', similarity: 0.85, maxSourceBytes: 1024 * 1024 };
const SECRET = 'The launch code is outside-secret-4242 and stays private.';

async function workspaceBesideOutside(): Promise<{ root: string; outside: string }> {
  const parent = await mkdtemp(path.join(tmpdir(), 'wiki-facts-confined-'));
  const root = path.join(parent, 'ws');
  await mkdir(path.join(root, 'raw'), { recursive: true });
  const outside = path.join(parent, 'secret.md');
  await writeFile(outside, `# Secret\n\n${SECRET}\n`);
  await writeFile(path.join(root, 'raw/paper.md'), 'Water boils at 100 degrees Celsius.\n');
  return { root, outside };
}

async function factsMatching(root: string, words: string): Promise<string[]> {
  const store = await FactStore.open(factsDbFile(root), { readonly: true });
  try {
    return store.search(words, 5).map((hit) => JSON.stringify(hit));
  } finally {
    store.close();
  }
}

describeWithSqlite('facts extraction reads raw sources through the sandbox', () => {
  it('refuses a hard-linked source, saying why, and extracts the rest', async () => {
    const { root, outside } = await workspaceBesideOutside();
    await link(outside, path.join(root, 'raw/notes.md'));
    const report = await updateFacts(root, ['raw/notes.md', 'raw/paper.md'], settings);
    expect(report.sources).toMatchObject({ extracted: 1, refused: [expect.stringMatching(/^raw\/notes\.md is a hard link \(2 names for one file\)/)] });
    expect(await factsMatching(root, 'launch code')).toEqual([]);
    expect((await factsMatching(root, 'water boils')).length).toBe(1);
  });

  it('drops the facts of a source that became a hard link since it was extracted', async () => {
    const { root, outside } = await workspaceBesideOutside();
    await writeFile(path.join(root, 'raw/notes.md'), `# Notes\n\n${SECRET}\n`);
    await updateFacts(root, ['raw/notes.md', 'raw/paper.md'], settings);
    expect((await factsMatching(root, 'launch code')).length).toBe(1);
    await rm(path.join(root, 'raw/notes.md'));
    await link(outside, path.join(root, 'raw/notes.md'));
    const report = await updateFacts(root, ['raw/notes.md', 'raw/paper.md'], settings);
    expect(report.sources.refused).toHaveLength(1);
    expect(report.sources.removed).toBe(1);
    expect(await factsMatching(root, 'launch code')).toEqual([]);
  });
});
