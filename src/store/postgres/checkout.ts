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
  const times = new Map<string, number>();
  let time = 0;
  for (const field of log.stdout.split('\0')) {
    for (const line of field.split('\n')) {
      if (line.startsWith('\u0001')) time = Number(line.slice(1)) * 1000;
      else if (line !== '' && !times.has(line)) times.set(line, time);
    }
  }
  const changed = new Set(splitNul(status.stdout).map((entry) => entry.slice(3)));
  const clean = new Set(splitNul(tracked.stdout).filter((file) => !changed.has(file)));
  return { times, clean };
}
