import { stat } from 'node:fs/promises';
import path from 'node:path';
import { firstErrorLine, git, GitMissingError, splitNul } from './git-cli.js';

export interface AutoCommitOptions {
  /** Workspace-relative, `/`-separated paths the run changed, deleted ones included. */
  files: string[];
  /** Commit message, used as given (the run's log entry heading). */
  message: string;
}

export type AutoCommitResult =
  /** `files`: the workspace-relative paths the commit contains. */
  | { status: 'committed'; commit: string; files: string[] }
  /** Nothing was committed (and nothing left staged); `reason` is one line for a notice. */
  | { status: 'skipped'; reason: string };

/** The identity used for the commit when the repository has none configured. */
export const FALLBACK_IDENTITY = { name: 'wiki', email: 'wiki@localhost' } as const;

/** Machine state never goes into history; `.git` is git's own. */
const NEVER_COMMITTED = ['.wiki', '.git'];
const LISTED_IN_REASON = 3;

/**
 * Commit exactly the files a run changed, with `message`, when the workspace lies inside a git
 * work tree. Skips (with a reason) when git is missing, outside a work tree, when something
 * else is already staged (the user's work in progress is not ours to commit), or when none of
 * the files has a change. Never commits `.wiki/`, never pushes, and sets no configuration:
 * a repository without user.name/user.email gets a fallback identity for this commit only.
 * Never throws: a git failure is reported as a skip.
 */
export async function autoCommit(root: string, options: AutoCommitOptions): Promise<AutoCommitResult> {
  try {
    return await commitFiles(path.resolve(root), options);
  } catch (error) {
    if (error instanceof GitMissingError) return skipped('git is not installed');
    return skipped(`git failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

async function commitFiles(root: string, options: AutoCommitOptions): Promise<AutoCommitResult> {
  const message = options.message.trim();
  if (message === '') return skipped('no commit message');
  const files = committableFiles(options.files);
  if (files.length === 0) return skipped('no files to commit');
  if (!(await isDirectory(root))) return skipped(`workspace folder ${root} does not exist`);

  const where = await git(root, ['rev-parse', '--is-inside-work-tree', '--show-toplevel', '--show-prefix']);
  const [inside, top, prefix = ''] = where.stdout.split('\n');
  if (where.code !== 0 || inside !== 'true' || !top) return skipped('not inside a git work tree');

  // Commands run at the top of the work tree, where every path git prints is relative to.
  const toRepo = new Map(files.map((file) => [`${prefix}${file}`, file]));
  const repoPaths = [...toRepo.keys()];

  const staged = await git(top, ['diff', '--cached', '--name-only', '--no-renames', '-z']);
  if (staged.code !== 0) return skipped(`cannot read the index: ${firstErrorLine(staged)}`);
  const stagedPaths = splitNul(staged.stdout);
  const unrelated = stagedPaths.filter((p) => !toRepo.has(p));
  if (unrelated.length > 0) {
    return skipped(`the index has unrelated staged changes (${listed(unrelated)}); commit or unstage them first`);
  }

  const status = await git(top, ['status', '--porcelain=v1', '-z', '--untracked-files=all', '--no-renames', '--', ...repoPaths]);
  if (status.code !== 0) return skipped(`git status failed: ${firstErrorLine(status)}`);
  const changedSet = new Set(changedPaths(status.stdout));
  const changed = repoPaths.filter((p) => changedSet.has(p));
  if (changed.length === 0) return skipped('none of the changed files differs from the last commit (or they are git-ignored)');

  const add = await git(top, ['add', '-A', '--', ...changed]);
  const wasStaged = new Set(stagedPaths);
  const unstage = async (): Promise<void> => {
    const ours = changed.filter((p) => !wasStaged.has(p));
    if (ours.length > 0) await git(top, ['reset', '--quiet', '--', ...ours]);
  };
  if (add.code !== 0) {
    await unstage();
    return skipped(`git add failed: ${firstErrorLine(add)}`);
  }

  const identity = await missingIdentity(top);
  const commit = await git(top, [...identity, 'commit', '--quiet', '--cleanup=whitespace', '-m', message, '--', ...changed]);
  if (commit.code !== 0) {
    await unstage();
    return skipped(`git commit failed: ${firstErrorLine(commit)}`);
  }
  const head = await git(top, ['rev-parse', 'HEAD']);
  return { status: 'committed', commit: head.stdout.trim(), files: changed.map((p) => toRepo.get(p) ?? p) };
}

/** Normalised, de-duplicated workspace-relative paths, without anything outside the workspace or never committed. */
export function committableFiles(files: readonly string[]): string[] {
  const result: string[] = [];
  for (const file of files) {
    const normal = path.posix.normalize(file.replace(/\\/g, '/')).replace(/^(\.\/)+/, '').replace(/\/+$/, '');
    if (normal === '' || normal === '.' || normal.startsWith('/') || normal === '..' || normal.startsWith('../')) continue;
    if (/^[A-Za-z]:/.test(normal) || normal.includes('\0')) continue;
    const first = normal.split('/')[0] ?? '';
    if (NEVER_COMMITTED.includes(first)) continue;
    if (!result.includes(normal)) result.push(normal);
  }
  return result;
}

/** Paths named in `git status --porcelain=v1 -z --no-renames` output, ignored ones excluded. */
function changedPaths(output: string): string[] {
  return splitNul(output)
    .filter((entry) => entry.length > 3 && !entry.startsWith('!!'))
    .map((entry) => entry.slice(3));
}

/** `-c user.name=… -c user.email=…` for whichever the repository (or environment) lacks. */
async function missingIdentity(top: string): Promise<string[]> {
  const args: string[] = [];
  const name = await git(top, ['config', 'user.name']);
  if (!(name.code === 0 && name.stdout.trim()) && !(process.env.GIT_AUTHOR_NAME && process.env.GIT_COMMITTER_NAME)) {
    args.push('-c', `user.name=${FALLBACK_IDENTITY.name}`);
  }
  const email = await git(top, ['config', 'user.email']);
  const emailFromEnv = (process.env.GIT_AUTHOR_EMAIL && process.env.GIT_COMMITTER_EMAIL) || process.env.EMAIL;
  if (!(email.code === 0 && email.stdout.trim()) && !emailFromEnv) {
    args.push('-c', `user.email=${FALLBACK_IDENTITY.email}`);
  }
  return args;
}

async function isDirectory(dir: string): Promise<boolean> {
  try {
    return (await stat(dir)).isDirectory();
  } catch {
    return false;
  }
}

function listed(paths: readonly string[]): string {
  const shown = paths.slice(0, LISTED_IN_REASON).join(', ');
  return paths.length > LISTED_IN_REASON ? `${shown} and ${paths.length - LISTED_IN_REASON} more` : shown;
}

function skipped(reason: string): AutoCommitResult {
  return { status: 'skipped', reason };
}
