import { statSync } from 'node:fs';
import path from 'node:path';
import { git, splitNul } from '../../git/git-cli.js';
import { factsLanguage } from '../../facts/fts-text.js';
import type { FactStore } from '../../facts/store.js';
import type { SourceVersion } from './fact-rows.js';
import { logTimes } from './checkout.js';

/**
 * The versions of raw/ sources' facts this checkout offers the database, from its local
 * extraction (`.wiki/facts.db`, just brought in step with raw/). A source's stamp is its last
 * commit's time along the first parents (a merge is the commit of what it brings in or
 * resolves) when the file is as committed — a clone of an old commit offers old versions —
 * and the file's time when it differs from HEAD or git does not track it. A source the
 * database holds and this checkout lacks is offered as deleted only when the checkout records
 * the deletion: a commit deleting it (stamped with that commit's time) or a tracked file
 * deleted and not yet committed (`wiki rm` before its commit; stamped now). A source this
 * checkout never had is never offered, so an older clone deletes nothing.
 */
export async function checkoutSourceVersions(
  root: string,
  local: FactStore,
  stored: ReadonlyMap<string, { sha256: string | null }>,
  options: { all?: boolean; now?: number } = {},
): Promise<SourceVersion[]> {
  const held = local.sourceHashes();
  const changed = [...held].filter(([source, sha256]) => options.all || stored.get(source)?.sha256 !== sha256);
  const missing = [...stored].filter(([source, row]) => row.sha256 !== null && !held.has(source) && fileTime(root, source) === undefined).map(([source]) => source);
  // Most runs offer nothing: git is asked only when there is something to stamp.
  if (changed.length === 0 && missing.length === 0) return [];
  const history = await rawHistory(root);
  const now = options.now ?? Date.now();
  const versions: SourceVersion[] = [];
  for (const [source, sha256] of changed) {
    const committed = history?.clean.has(source) ? history.touched.get(source) : undefined;
    const stamp = committed ?? fileTime(root, source) ?? now;
    const facts = local.factPlacesOfSources([source]);
    versions.push({ path: source, sha256, stamp, language: factsLanguage(facts.map((fact) => fact.text)), facts });
  }
  for (const source of missing) {
    const stamp = history?.deletedInWorktree.has(source) ? now : history?.deletedAt.get(source);
    if (stamp !== undefined) versions.push({ path: source, sha256: null, stamp, language: null, facts: [] });
  }
  return versions;
}

function fileTime(root: string, source: string): number | undefined {
  try {
    return Math.floor(statSync(path.join(root, source)).mtimeMs);
  } catch {
    return undefined;
  }
}

interface RawHistory {
  /** Each raw/ file's last commit time (ms). */
  touched: Map<string, number>;
  /** Files a commit deleted and HEAD does not hold: the last deletion's time. */
  deletedAt: Map<string, number>;
  /** Tracked files as committed. */
  clean: Set<string>;
  /** Tracked files deleted in the work tree or the index, not yet committed. */
  deletedInWorktree: Set<string>;
}

/** What git records of raw/; undefined outside a git repository (then every stamp is a file time, and no deletion is offered). */
async function rawHistory(root: string): Promise<RawHistory | undefined> {
  let results;
  try {
    results = await Promise.all([
      // Along the first parents, a merge listing what it changed: a source a merge brought in or resolved is stamped with the merge's time.
      git(root, ['log', '--first-parent', '-m', '--format=%x01%ct', '--name-only', '-z', '--no-renames', '--', 'raw']),
      git(root, ['log', '--first-parent', '-m', '--diff-filter=D', '--format=%x01%ct', '--name-only', '-z', '--no-renames', '--', 'raw']),
      git(root, ['status', '--porcelain', '-z', '--untracked-files=all', '--', 'raw']),
      git(root, ['ls-tree', '-r', '-z', '--name-only', 'HEAD', '--', 'raw']),
    ]);
  } catch {
    return undefined;
  }
  const [log, deletions, status, head] = results;
  if (log.code !== 0 || deletions.code !== 0 || status.code !== 0) return undefined;
  const inHead = new Set(head.code === 0 ? splitNul(head.stdout) : []);
  const entries = splitNul(status.stdout);
  const changed = new Set(entries.map((entry) => entry.slice(3)));
  const deletedInWorktree = new Set(entries.filter((entry) => entry.slice(0, 2).includes('D')).map((entry) => entry.slice(3)));
  const deletedAt = new Map([...logTimes(deletions.stdout)].filter(([file]) => !inHead.has(file)));
  return { touched: logTimes(log.stdout), deletedAt, clean: new Set([...inHead].filter((file) => !changed.has(file))), deletedInWorktree };
}

