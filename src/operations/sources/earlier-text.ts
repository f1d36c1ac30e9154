import path from 'node:path';
import { ConfinedIo } from '../../confine/confined-io.js';
import { git, GitMissingError } from '../../git/git-cli.js';
import { extractText, isExtractable } from '../../sources/extract.js';
import { hashText } from '../../state/hash.js';
import { keptSourceText } from '../../state/source-texts.js';

/** How many commits back git history is searched for a teammate's ingested version. */
const HISTORY_DEPTH = 50;

/**
 * The text a source had when it was ingested as `sha256`: kept under `.wiki/` by this clone's
 * ingest, or — a teammate ingested it — the committed version of the file with that hash.
 * undefined when neither has it (then staleness falls back to the whole page).
 */
export async function earlierSourceText(root: string, rawPath: string, sha256: string): Promise<string | undefined> {
  const kept = await keptSourceText(root, sha256);
  if (kept !== undefined) return kept;
  // Extracted texts (PDF, HTML) need the bytes, which git's text output would mangle.
  if (isExtractable(rawPath)) return undefined;
  try {
    const log = await git(root, ['log', `-n${HISTORY_DEPTH}`, '--format=%H', '--', rawPath]);
    if (log.code !== 0) return undefined;
    for (const commit of log.stdout.split('\n').filter(Boolean)) {
      const shown = await git(root, ['show', `${commit}:./${rawPath}`]);
      if (shown.code === 0 && hashText(shown.stdout) === sha256) return shown.stdout;
    }
  } catch (error) {
    if (!(error instanceof GitMissingError)) throw error;
  }
  return undefined;
}

/** A raw source's text as read_file shows it (PDF and HTML extracted); undefined when unreadable. */
export async function currentSourceText(root: string, rawPath: string): Promise<string | undefined> {
  try {
    return (await extractText(rawPath, await new ConfinedIo(root).readBytes(path.join(root, rawPath)))).text;
  } catch {
    return undefined;
  }
}
