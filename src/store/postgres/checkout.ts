import { git, splitNul } from '../../git/git-cli.js';
import { declaredAccessFields, visibilityLevels } from '../../wiki/access.js';
import type { Contract } from '../../wiki/contract.js';
import { splitFrontmatter } from '../../wiki/frontmatter-split.js';
import { readPage } from '../../wiki/page-read.js';
import { contentHash } from '../../search/text/document.js';
import type { PageVersion } from './page-rows.js';

/**
 * A checkout's pages as versions to offer the database. A page's stamp is its last
 * commit's time when the file is as committed — so a clone of an old commit, its files
 * freshly written, still offers old versions — and the file's mtime when it differs from
 * HEAD or git does not track it (an edit not yet committed is the newest version there is).
 */
export async function checkoutVersions(root: string, contract: Contract, pages: ReadonlyArray<{ path: string; mtimeMs: number }>): Promise<PageVersion[]> {
  if (pages.length === 0) return [];
  const committed = await committedTimes(root);
  const fallback = visibilityLevels(contract).default;
  const versions: PageVersion[] = [];
  for (const page of pages) {
    const content = readPage(root, page.path);
    if (content === undefined) continue;
    const stamp = committed?.clean.has(page.path) ? committed.times.get(page.path) : undefined;
    versions.push({ path: page.path, content, hash: contentHash(content), visibility: visibilityOf(content, fallback), stamp: stamp ?? Math.floor(page.mtimeMs) });
  }
  return versions;
}

/**
 * Deletions this checkout can prove newer than the database's rows: a page the database
 * holds (`held`: its row's stamp) that the checkout lacks, deleted by a commit in its
 * history made after that stamp, is offered as a deletion stamped with the commit's time.
 * A checkout that merely lacks a page (an older clone, a page never pulled) has no such
 * commit and deletes nothing; nor does a file removed and not committed.
 */
export async function checkoutDeletions(root: string, missing: ReadonlyArray<{ path: string; stamp: number }>): Promise<PageVersion[]> {
  if (missing.length === 0) return [];
  const deleted = await deletionTimes(root);
  if (!deleted) return [];
  return missing
    .filter((row) => (deleted.get(row.path) ?? 0) > row.stamp)
    .map((row) => ({ path: row.path, content: null, hash: null, visibility: null, stamp: deleted.get(row.path)! }));
}

/** Each page's last deletion in HEAD's history (commit time, ms), read once per HEAD; undefined outside a git repository. */
const deletionsAt = new Map<string, { head: string; times: Map<string, number> }>();
async function deletionTimes(root: string): Promise<Map<string, number> | undefined> {
  let head;
  try {
    head = await git(root, ['rev-parse', '--verify', '-q', 'HEAD']);
  } catch {
    return undefined;
  }
  if (head.code !== 0) return undefined;
  const cached = deletionsAt.get(root);
  if (cached?.head === head.stdout) return cached.times;
  const log = await git(root, ['log', '--diff-filter=D', '--format=%x01%ct', '--name-only', '-z', '--no-renames', '--', 'wiki']);
  if (log.code !== 0) return undefined;
  const times = logTimes(log.stdout);
  deletionsAt.set(root, { head: head.stdout, times });
  return times;
}

/** `git log --format=%x01%ct --name-only -z`: each path's time in its newest commit listed (pages here, raw/ sources in fact-sources.ts). */
export function logTimes(stdout: string): Map<string, number> {
  const times = new Map<string, number>();
  let time = 0;
  for (const field of stdout.split('\0')) {
    for (const line of field.split('\n')) {
      if (line.startsWith('\u0001')) time = Number(line.slice(1)) * 1000;
      else if (line !== '' && !times.has(line)) times.set(line, time);
    }
  }
  return times;
}

/** The visibility a page declares, or the contract's default; what a reader of the row checks access by. */
export function visibilityOf(content: string, fallback: string): string {
  const { yaml } = splitFrontmatter(content);
  return (yaml === undefined ? undefined : declaredAccessFields(yaml).visibility) ?? fallback;
}

/**
 * Each page's last commit time (ms) and which tracked pages are as committed; undefined
 * outside a git repository (then every stamp is an mtime).
 */
async function committedTimes(root: string): Promise<{ times: Map<string, number>; clean: Set<string> } | undefined> {
  let log;
  let status;
  let tracked;
  try {
    [log, status, tracked] = await Promise.all([
      git(root, ['log', '--format=%x01%ct', '--name-only', '-z', '--no-renames', '--', 'wiki']),
      git(root, ['status', '--porcelain', '-z', '--untracked-files=all', '--', 'wiki']),
      git(root, ['ls-files', '-z', '--', 'wiki']),
    ]);
  } catch {
    return undefined;
  }
  if (log.code !== 0 || status.code !== 0 || tracked.code !== 0) return undefined;
  const times = logTimes(log.stdout);
  const changed = new Set(splitNul(status.stdout).map((entry) => entry.slice(3)));
  const clean = new Set(splitNul(tracked.stdout).filter((file) => !changed.has(file)));
  return { times, clean };
}
