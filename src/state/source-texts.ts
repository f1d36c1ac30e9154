import path from 'node:path';
import { SandboxError } from '../errors.js';
import { ConfinedIo } from '../confine/confined-io.js';
import { stateDir } from '../wiki/workspace.js';

/**
 * The text each ingested version of a source had (as read_file showed it: a PDF's or a web
 * page's extracted text), content-addressed by the raw file's sha256 under
 * `.wiki/source-texts/`. When the source changes, the earlier text is diffed with the
 * current one to move citations and find the claims whose lines changed — no model, no
 * network. Local to this clone; a teammate's ingests are found in git history instead.
 */
const FOLDER = 'source-texts';
const SHA256 = /^[0-9a-f]{64}$/;

function textPath(root: string, sha256: string): string {
  if (!SHA256.test(sha256)) throw new SandboxError(`not a sha256: ${sha256.slice(0, 80)}`);
  return path.join(stateDir(root), FOLDER, `${sha256}.txt`);
}

/** Keep the text of the version whose raw bytes hash to `sha256` (once: the address is the content). */
export async function keepSourceText(root: string, sha256: string, text: string): Promise<void> {
  const io = new ConfinedIo(root);
  const target = textPath(root, sha256);
  if ((await io.readIfExists(target)) !== undefined) return;
  await io.write(target, text);
}

/** The kept text of that version; undefined when this clone never kept it (or it is not a regular file in the workspace). */
export async function keptSourceText(root: string, sha256: string): Promise<string | undefined> {
  try {
    return (await new ConfinedIo(root).readIfExists(textPath(root, sha256)))?.toString('utf8');
  } catch (error) {
    if (error instanceof SandboxError) return undefined;
    throw error;
  }
}
