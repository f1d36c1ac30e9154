import path from 'node:path';
import { readTextIfExists, writeFileAtomic } from '../util/fs.js';

/**
 * The lines `.gitattributes` needs so that two clones' runs merge without conflict: the
 * log and the ingest record are unions of both sides' lines (each line or entry stands on
 * its own), and so are the index and its hub spokes, whose generated catalog every run and
 * `wiki lint --fix` regenerate from the pages.
 */
export const MERGE_ATTRIBUTES = [
  'wiki.sources.jsonl merge=union',
  'wiki/log.md merge=union',
  'wiki/index.md merge=union',
  'wiki/index-*.md merge=union',
] as const;

const HEADER = '# wiki: files several clones append to merge as unions (README: "Share it with a team")';

/**
 * Add whichever of `MERGE_ATTRIBUTES` `.gitattributes` lacks, keeping everything else in it.
 * Returns true when the file was written.
 */
export async function ensureMergeAttributes(root: string): Promise<boolean> {
  const file = path.join(root, '.gitattributes');
  const text = (await readTextIfExists(file)) ?? '';
  const present = new Set(text.split('\n').map((line) => line.trim().replace(/\s+/g, ' ')));
  const missing = MERGE_ATTRIBUTES.filter((line) => !present.has(line));
  if (missing.length === 0) return false;
  const lead = text === '' ? '' : text.endsWith('\n') ? '\n' : '\n\n';
  const header = present.has(HEADER) ? [] : [HEADER];
  await writeFileAtomic(file, `${text}${lead}${[...header, ...missing].join('\n')}\n`);
  return true;
}
