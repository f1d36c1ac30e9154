import path from 'node:path';
import { SandboxError } from '../errors.js';
import { ConfinedIo } from '../confine/confined-io.js';

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
  // Read and written in place only: a committed link (to a key outside, say) is neither read nor written through.
  const io = new ConfinedIo(root);
  let text: string;
  try {
    text = (await io.readIfExists(file))?.toString('utf8') ?? '';
  } catch (error) {
    if (!(error instanceof SandboxError)) throw error;
    throw new SandboxError(`.gitattributes: ${error.message}`, 'nothing was written; make .gitattributes a regular file in the workspace (`git checkout -- .gitattributes` if a clone brought the link), then run again');
  }
  const present = new Set(text.split('\n').map((line) => line.trim().replace(/\s+/g, ' ')));
  const missing = MERGE_ATTRIBUTES.filter((line) => !present.has(line));
  if (missing.length === 0) return false;
  const lead = text === '' ? '' : text.endsWith('\n') ? '\n' : '\n\n';
  const header = present.has(HEADER) ? [] : [HEADER];
  await io.write(file, `${text}${lead}${[...header, ...missing].join('\n')}\n`);
  return true;
}
