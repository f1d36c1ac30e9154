import { existsSync } from 'node:fs';
import path from 'node:path';
import { InputError, SandboxError, UsageError } from '../../errors.js';
import { beginRun, finishRun, newRunId, recordAfter, recordBefore } from '../../state/history.js';
import { acquireLock } from '../../state/lock.js';
import { resolveInRoot } from '../../state/paths.js';
import { ConfinedIo } from '../../confine/confined-io.js';
import { scopeOf, USER_SCOPE_ROOT } from '../../wiki/access.js';
import { isSpecialPage, type Schema } from '../../wiki/contract.js';
import { scratchFolders } from '../../tools/page-write.js';
import { keyFromPath } from '../../wiki/keys.js';
import { appendLog } from '../../wiki/log.js';
import { PageIndex } from '../../wiki/page-index.js';
import { loadPages } from '../../wiki/pages.js';
import type { Finding } from '../../wiki/validate/finding.js';
import { validateWrite } from '../../wiki/validate-write.js';
import { refreshIndexFiles } from '../run/index-refresh.js';
import type { Run } from '../../state/history.js';
import type { ReviewRequest } from '../review/propose.js';
import type { ProposedPage } from '../review/proposals.js';

export interface PromoteReport {
  key: string;
  from: string;
  to: string;
  /** True when a team page at `to` was replaced by the scratch page. */
  replaced: boolean;
  warnings: Finding[];
  /** The run that recorded the move: `wiki undo` puts the scratch page back. Absent under review. */
  runId?: string;
  /** Under review: the proposal the move waits in (nothing moved yet). */
  proposal?: string;
}

/**
 * `wiki promote KEY`: move `user`'s scratch page with KEY out of wiki/user/<name>/ into the
 * team's folders, at the same place relative to the wiki. It is validated as the team's
 * page before anything moves (links, fields, a key unique among the team's pages); a
 * refusal names every problem and changes nothing.
 */
export async function promotePage(
  root: string,
  schema: Schema,
  user: string | undefined,
  key: string,
  options: { hubThreshold: number; deny?: readonly string[]; review?: ReviewRequest | undefined },
): Promise<PromoteReport> {
  if (user === undefined) throw new UsageError('promote moves one of your scratch pages; say whose', 'pass --user NAME or set WIKI_USER');
  // Under review the move is kept as the user's proposal; the lock keeps it from reading a page half moved by another run.
  const lock = await acquireLock(root, { command: 'promote', waitSeconds: 0 });
  lock.releaseOnExit();
  try {
    const pages = await loadPages(root, schema.contract);
    const mine = pages.filter((page) => page.key === key && scopeOf(page.path) === user);
    const scratch = mine.find((page) => scratchFolders(schema.contract, user).some((folder) => page.path.startsWith(`${folder}/`))) ?? mine[0];
    if (!scratch) {
      throw new InputError(`you have no scratch page with the key "${key}"`, `scratch pages live in ${USER_SCOPE_ROOT}${user}/`);
    }
    const to = `wiki/${scratch.path.slice(`${USER_SCOPE_ROOT}${user}/`.length)}`;
    // Any page of the scope moves, as search and lint list it (a page at the scope's root
    // becomes one at the wiki's root): one rule for what a page is. Never over index.md,
    // log.md or a hub spoke, nor into another user's scratch scope (which the lane check would allow).
    if (isSpecialPage(schema.contract, to) || scopeOf(to) !== undefined) {
      throw new InputError(
        `${scratch.path} would become ${to}, which is ${scopeOf(to) !== undefined ? 'in another scratch scope' : 'a file the tool keeps'}, so it cannot be promoted`,
        `scratch pages live in ${scratchFolders(schema.contract, user).map((folder) => `${folder}/`).join(', ')}; move it into one of them`,
      );
    }
    const team = pages.filter((page) => page.path !== scratch.path && scopeOf(page.path) === undefined);
    const clash = team.find((page) => page.key === key && page.path !== to);
    if (clash) throw new InputError(`the team already has a page with the key "${key}" at ${clash.path}`, `rename your scratch page, or move it to ${clash.path.replace(/^wiki\//, `${USER_SCOPE_ROOT}${user}/`)} to replace that page`);
    // Read and moved as the sandbox does: never through a link, never a hard link (confined-io.ts).
    const io = new ConfinedIo(root);
    const content = Buffer.from(await io.readBytes(path.join(root, scratch.path))).toString('utf8');
    const verdict = validateWrite(PageIndex.fromPages(team, schema.contract), { path: to, content }, {
      contract: schema.contract,
      rawExists: (raw) => existsSync(path.join(root, raw.split('#')[0] ?? raw)),
      deny: options.deny,
    });
    if (!verdict.ok) {
      const problems = verdict.errors.map((error) => `${error.message}${error.fix ? ` (${error.fix})` : ''}`).join('; ');
      throw new InputError(`${scratch.path} cannot become ${to}: ${problems}`, 'fix the scratch page, then promote it again');
    }
    const previous = (await io.readIfExists(resolveInRoot(root, to)))?.toString('utf8');
    if (options.review) {
      const proposal = newRunId();
      const title = `${keyFromPath(to)} (${scratch.path} → ${to})`;
      const landing: ProposedPage = previous === undefined ? { path: to, change: 'created', after: content } : { path: to, change: 'updated', before: previous, after: content };
      await options.review.propose({ op: 'promote', title, runId: proposal, user }, [landing, { path: scratch.path, change: 'removed', before: content }], { log: [moveLine(scratch.path, to, previous)] });
      return { key, from: scratch.path, to, replaced: previous !== undefined, warnings: verdict.warnings, proposal };
    }
    const runId = await movePage(root, io, schema, scratch.path, to, content, previous, options.hubThreshold);
    return { key, from: scratch.path, to, replaced: previous !== undefined, warnings: verdict.warnings, runId };
  } finally {
    await lock.release();
  }
}

/**
 * The move, recorded as a run like any other change (before-images of both paths), so
 * `wiki undo` puts the scratch page back and the team's page as it was; logged with its run id.
 */
async function movePage(
  root: string,
  io: ConfinedIo,
  schema: Schema,
  from: string,
  to: string,
  content: string,
  previous: string | undefined,
  hubThreshold: number,
): Promise<string> {
  const run = await beginRun(root, newRunId(), 'promote', `${keyFromPath(to)} (${from} → ${to})`);
  try {
    await recordBefore(run, to, previous);
    await recordBefore(run, from, content);
    await io.write(path.join(root, to), content);
    await recordAfter(run, to, content);
    await io.remove(path.join(root, from));
    await recordAfter(run, from, undefined);
    // The team's page is in the index like any page a run writes (and leaves it with an undo).
    await refreshIndex(root, io, schema, run, hubThreshold);
  } catch (error) {
    await finishRun(run, 'failed').catch(() => undefined);
    throw error;
  }
  await finishRun(run, 'completed');
  const lines = [moveLine(from, to, previous)];
  try {
    await appendLog(root, schema.contract.log, 'promote', `${keyFromPath(to)} (${from} → ${to})`, lines, undefined, run.runId);
  } catch (error) {
    if (!(error instanceof SandboxError)) throw error;
    // The page is moved and the move recorded: say so, not only why the log was refused.
    throw new SandboxError(`moved ${from} to ${to} (run ${run.runId}), but wrote no log entry: ${error.message}`, `make ${schema.contract.log} a regular file again; \`wiki undo ${run.runId}\` reverts the move`);
  }
  return run.runId;
}

function moveLine(from: string, to: string, previous: string | undefined): string {
  return `moved ${from} to ${to}${previous !== undefined ? ' (replacing the team page)' : ''}`;
}

/** index.md (and hub spokes) regenerated from the pages as they now stand, each change recorded in `run`. */
async function refreshIndex(root: string, io: ConfinedIo, schema: Schema, run: Run, hubThreshold: number): Promise<void> {
  const readIfExists = async (relPath: string): Promise<string | undefined> => (await io.readIfExists(resolveInRoot(root, relPath)))?.toString('utf8');
  await refreshIndexFiles({
    contract: schema.contract,
    hubThreshold,
    pages: PageIndex.fromPages(await loadPages(root, schema.contract), schema.contract),
    readIfExists,
    writeFile: async (relPath, text) => {
      const before = await readIfExists(relPath);
      if (before === text) return undefined;
      await recordBefore(run, relPath, before);
      await io.write(resolveInRoot(root, relPath), text);
      await recordAfter(run, relPath, text);
      return before === undefined ? 'created' : 'updated';
    },
    deleteFile: async (relPath) => {
      const before = await readIfExists(relPath);
      if (before === undefined) return false;
      await recordBefore(run, relPath, before);
      await io.remove(resolveInRoot(root, relPath));
      await recordAfter(run, relPath, undefined);
      return true;
    },
  });
}
