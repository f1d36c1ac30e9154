import { statSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../util/fs.js';
import { stateDir } from '../wiki/workspace.js';
import { hashText } from './hash.js';

/**
 * `.wiki/written-copies/<sha256>`: the text of what the tool wrote, by its hash. written.json
 * says which hash the tool last wrote to each page; with that text, a later run can tell
 * exactly which lines a human added or changed since (see wiki/validate/write-guard.ts).
 */
const COPIES_DIR = 'written-copies';

function copiesDir(root: string): string {
  return path.join(stateDir(root), COPIES_DIR);
}

/**
 * Keep `text` as something the tool wrote (when the written log is folded; until then the
 * log carries it). Not flushed to disk: a copy is checked against its hash when read, so
 * one a power loss emptied reads as no copy, and is written again (its size is wrong) the
 * next time the tool's write of that text is folded.
 */
export async function keepWrittenCopy(root: string, text: string): Promise<void> {
  const file = path.join(copiesDir(root), hashText(text));
  const kept = statSync(file, { throwIfNoEntry: false });
  if (kept?.size !== Buffer.byteLength(text, 'utf8')) await writeFileAtomic(file, text, { durable: false });
}

/** The text the tool wrote with this hash, or undefined when no copy was kept. */
export async function writtenCopy(root: string, sha256: string): Promise<string | undefined> {
  if (!/^[0-9a-f]{64}$/.test(sha256)) return undefined;
  try {
    const text = await readFile(path.join(copiesDir(root), sha256), 'utf8');
    return hashText(text) === sha256 ? text : undefined;
  } catch {
    return undefined;
  }
}

/** Remove the copies no longer referenced (written.json's hashes are `keep`). */
export async function pruneWrittenCopies(root: string, keep: ReadonlySet<string>): Promise<number> {
  let names: string[];
  try {
    names = await readdir(copiesDir(root));
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    if (keep.has(name)) continue;
    await rm(path.join(copiesDir(root), name), { force: true });
    removed++;
  }
  return removed;
}
