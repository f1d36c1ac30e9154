import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { readTextIfExists, writeFileAtomic } from '../../util/fs.js';
import { listPageFiles } from '../../wiki/page-files.js';
import { hashOf } from './grounding-cache.js';

/**
 * When the model last reviewed the wiki, and what the pages were then: a review with
 * nothing to hand over, of pages no one changed since, finds nothing new (played review O
 * paid for one on a cron-like second run). A review belongs to its reader: the model working
 * for Alice sees neither Bob's scratch pages nor his findings, so her review skips nothing
 * for Bob (`wiki --user bob lint --fix` reviews). Derived state, safe to delete: the next
 * run then reviews again.
 */

export const REVIEW_FILE = '.wiki/lint-review.json';

interface ReviewState {
  version: 1;
  /** sha256 over every page's path and text under wiki/ after the review. */
  pages: string;
  at: string;
  /** Whom the review was for: the user (`--user`), or null for the team. A state without it counts for no one. */
  reader?: string | null;
}

/** A hash of every page under wiki/ (paths and texts). */
export async function pagesHash(root: string): Promise<string> {
  const files = listPageFiles(root, 'wiki').map((file) => file.path).sort();
  const texts: string[] = [];
  for (const file of files) {
    texts.push(file);
    try {
      texts.push(await readFile(path.join(root, file), 'utf8'));
    } catch {
      texts.push('');
    }
  }
  return hashOf(texts);
}

/** The last review, when it was made for `reader` (undefined: the team). */
export async function lastReview(root: string, reader: string | undefined): Promise<ReviewState | undefined> {
  try {
    const parsed = JSON.parse((await readTextIfExists(path.join(root, REVIEW_FILE))) ?? '') as ReviewState;
    const valid = parsed.version === 1 && typeof parsed.pages === 'string' && typeof parsed.at === 'string';
    return valid && parsed.reader !== undefined && parsed.reader === (reader ?? null) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

export async function rememberReview(root: string, reader: string | undefined, pages: string, at: string): Promise<void> {
  const state: ReviewState = { version: 1, pages, at, reader: reader ?? null };
  await writeFileAtomic(path.join(root, REVIEW_FILE), `${JSON.stringify(state, null, 2)}\n`);
}
