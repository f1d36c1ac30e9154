import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sourceStates } from '../../../src/operations/inspect/status.js';
import { hashText } from '../../../src/state/hash.js';
import { emptyManifest, recordIngest, saveManifest, type SourceEntry } from '../../../src/state/manifest.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'wiki-status-sources-'));
  await mkdir(path.join(root, 'raw'));
  await mkdir(path.join(root, '.wiki'));
});
afterEach(() => rm(root, { recursive: true, force: true }));

const INGESTED = Date.parse('2026-01-02T03:04:05Z');
const LATER = INGESTED + 60_000;
const ORIGINAL = 'The bridge opened in 1937.\n';
const SAME_SIZE_EDIT = 'The bridge opened in 1938.\n';

function entry(sha256: string, stamp: { mtimeMs: number; seenAt: number } | undefined): SourceEntry {
  return { sha256, size: Buffer.byteLength(ORIGINAL), ...stamp, ingestedAt: new Date(INGESTED).toISOString(), runId: 'r', pages: { created: [], updated: [] } };
}

describe('sourceStates: the stamp first, the hash only when it cannot vouch', () => {
  it.each([
    // A wrong recorded hash behind a valid stamp is never looked at: the stamp alone says unchanged.
    ['a stamped source left alone is not hashed', ORIGINAL, INGESTED, entry('0'.repeat(64), { mtimeMs: INGESTED, seenAt: LATER }), []],
    ['a same-size edit in place is seen by its mtime', SAME_SIZE_EDIT, LATER + 5000, entry(hashText(ORIGINAL), { mtimeMs: INGESTED, seenAt: LATER }), ['raw/a.md']],
    ['a same-size edit in the clock tick of the hashing is hashed (racy stamp)', SAME_SIZE_EDIT, LATER, entry(hashText(ORIGINAL), { mtimeMs: LATER, seenAt: LATER + 1 }), ['raw/a.md']],
    ['an unchanged source with a racy stamp is hashed and found unchanged', ORIGINAL, LATER, entry(hashText(ORIGINAL), { mtimeMs: LATER, seenAt: LATER + 1 }), []],
    ['an entry from before stamps is hashed', SAME_SIZE_EDIT, INGESTED, entry(hashText(ORIGINAL), undefined), ['raw/a.md']],
    ['an unchanged entry from before stamps is unchanged', ORIGINAL, INGESTED, entry(hashText(ORIGINAL), undefined), []],
  ])('%s', async (_name, content, mtime, recorded, changed) => {
    const file = path.join(root, 'raw/a.md');
    await writeFile(file, content);
    await utimes(file, new Date(mtime), new Date(mtime));
    await saveManifest(root, recordIngest(emptyManifest(), 'raw/a.md', recorded));
    expect(await sourceStates(root, ['raw/a.md', 'raw/new.md'])).toEqual({ pending: ['raw/new.md'], changed, followed: [], deleted: [], moved: [] });
  });
});
