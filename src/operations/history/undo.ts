import { ConfigError, InputError, SandboxError, UsageError } from '../../errors.js';
import { hashText } from '../../state/hash.js';
import {
  beginRun,
  finishRun,
  isValidRunId,
  listRuns,
  loadRun,
  newRunId,
  runBeforeImages,
  type BeforeImages,
  recordAfter,
  recordBefore,
  type RunFile,
  type RunRecord,
} from '../../state/history.js';
import { acquireLock } from '../../state/lock.js';
import { MANIFEST_PATH } from '../../state/manifest.js';
import { resolveInRoot } from '../../state/paths.js';
import { isPathUnder } from '../../state/source-record.js';
import { isWikiFile } from '../../state/write-places.js';
import { ConfinedIo, type WritePlace } from '../../confine/confined-io.js';
import { removeAbandonedTempFiles } from '../../util/fs.js';
import { appendLog } from '../../wiki/log.js';

/**
 * `wiki undo`: put back the files one run changed, from the before-images it recorded.
 * The undo is itself recorded as a run, so it can be undone in turn.
 *
 * The log is the exception: it is append-only (a chronology must not lose entries, and
 * later runs may have appended after the undone one), so it is never restored; the undo
 * appends its own entry instead.
 */
/**
 * Undo puts back what runs write — files under wiki/ and the ingest record — and nothing
 * else: `.wiki/history/` is a folder anyone can edit, and a crafted record naming
 * `.git/config` or `schema.md` must not become a write there.
 */
const UNDO_PLACE: WritePlace = {
  what: `undo restores only files under wiki/ and ${MANIFEST_PATH} (and the sources a \`wiki rm\` removed)`,
  allows: (relative) => isWikiFile(relative) || relative === MANIFEST_PATH,
};

/** Runs that may name a raw source: `wiki rm` removes them, and the undo of one puts them back. */
const RUNS_TOUCHING_SOURCES = new Set(['rm', 'undo']);

/** Where undoing `run` may write: UNDO_PLACE, and raw/ when the run removed sources (or put them back). */
function undoPlaceFor(run: RunRecord): WritePlace {
  if (!RUNS_TOUCHING_SOURCES.has(run.op)) return UNDO_PLACE;
  return { what: UNDO_PLACE.what, allows: (relative) => UNDO_PLACE.allows(relative) || isPathUnder(relative, 'raw/') };
}

export type UndoActionKind = 'restore' | 'delete' | 'skip';

export interface UndoAction {
  path: string;
  /** restore the before-image · delete a file the run created · skip (nothing to do). */
  action: UndoActionKind;
  /** Why a file is skipped. */
  reason?: string;
  /** The file is no longer what the run left: undoing overwrites a later change. */
  changedSinceRun: boolean;
}

export interface UndoPlan {
  run: RunRecord;
  actions: UndoAction[];
  /** Paths of actions with `changedSinceRun`. */
  conflicts: string[];
}

export interface UndoOptions {
  /** Which run; default the most recent run that changed files. */
  runId?: string;
  /** Workspace-relative log path (schema.md's `contract.log`). */
  logPath: string;
  /** The generated files (index, hub spokes): a run that changed only those and the tool's state changed no page. */
  isGenerated?: (path: string) => boolean;
  /** Undo even files changed since the run. */
  force?: boolean;
  /** Only plan: no lock, nothing written. */
  dryRun?: boolean;
  waitSeconds?: number;
  /** Aborted (SIGINT/SIGTERM) while waiting for the lock: give the wait up at once. */
  signal?: AbortSignal;
  onNotice?: (message: string) => void;
  /** Shown the plan before anything is decided. */
  onPlan?: (plan: UndoPlan) => void;
  /** Asked before applying; false cancels. Absent means yes. */
  confirm?: (plan: UndoPlan) => Promise<boolean>;
}

export interface UndoResult {
  runId: string | null;
  op?: string;
  title?: string;
  actions: UndoAction[];
  applied: boolean;
  /** Why nothing was applied. */
  outcome: 'applied' | 'nothing-to-undo' | 'dry-run' | 'cancelled';
  /** The run that recorded this undo (undo it to redo). */
  undoRunId?: string;
}

export async function undo(root: string, options: UndoOptions): Promise<UndoResult> {
  if (options.dryRun) return finishPlan(await planUndo(root, options), options, async () => undefined);
  const lock = await acquireLock(root, {
    command: 'undo',
    waitSeconds: options.waitSeconds ?? 0,
    onNotice: options.onNotice,
    signal: options.signal,
  });
  lock.releaseOnExit();
  try {
    const plan = await planUndo(root, options);
    return await finishPlan(plan, options, (ready) => applyUndo(root, ready, options.logPath));
  } finally {
    await lock.release();
  }
}

async function finishPlan(
  plan: UndoPlan | undefined,
  options: UndoOptions,
  apply: (plan: UndoPlan) => Promise<string | undefined>,
): Promise<UndoResult> {
  if (!plan) return { runId: null, actions: [], applied: false, outcome: 'nothing-to-undo' };
  const base = { runId: plan.run.runId, op: plan.run.op, title: plan.run.title, actions: plan.actions };
  options.onPlan?.(plan);
  if (!plan.actions.some((action) => action.action !== 'skip')) return { ...base, applied: false, outcome: 'nothing-to-undo' };
  if (options.dryRun) return { ...base, applied: false, outcome: 'dry-run' };
  if (plan.conflicts.length > 0 && !options.force) {
    throw new InputError(
      `${plan.conflicts.length} file(s) changed since run ${plan.run.runId}: ${plan.conflicts.join(', ')}`,
      'nothing was changed; pass --force to undo anyway (the current versions are kept by the undo run, so undoing it brings them back)',
    );
  }
  if (options.confirm && !(await options.confirm(plan))) return { ...base, applied: false, outcome: 'cancelled' };
  const undoRunId = await apply(plan);
  return { ...base, applied: true, outcome: 'applied', undoRunId };
}

/** What undoing a run would do, read-only. Undefined when no run changed any file. */
export async function planUndo(root: string, options: Pick<UndoOptions, 'runId' | 'logPath' | 'isGenerated'>): Promise<UndoPlan | undefined> {
  const run = await pickRun(root, options);
  if (!run) return undefined;
  const actions: UndoAction[] = [];
  const beforeImages = runBeforeImages(root, run.runId);
  // Read as the sandbox reads: a file that is a link (or behind one) is refused, never followed.
  const io = new ConfinedIo(root);
  const outside = run.files.find((file) => !undoPlaceFor(run).allows(file.path));
  if (outside) {
    throw new ConfigError(
      `the history of run ${run.runId} is damaged: it names ${outside.path}, which no run writes (${UNDO_PLACE.what})`,
      `nothing was changed; delete .wiki/history/${run.runId} if you did not make it`,
    );
  }
  for (const file of run.files) actions.push(await planFile(root, io, beforeImages, run, file, options.logPath));
  return { run, actions, conflicts: actions.filter((a) => a.changedSinceRun).map((a) => a.path) };
}

async function pickRun(root: string, options: Pick<UndoOptions, 'runId' | 'logPath' | 'isGenerated'>): Promise<RunRecord | undefined> {
  const { runId } = options;
  if (runId !== undefined) {
    if (!isValidRunId(runId)) throw new UsageError(`not a run id: ${JSON.stringify(runId)}`, 'see the run ids with `wiki undo --dry-run` or in .wiki/history/');
    const run = await loadRun(root, runId);
    if (!run) {
      const recent = (await listRuns(root)).slice(-3).map((r) => r.runId);
      throw new InputError(`no run ${runId} in .wiki/history/`, recent.length ? `recent runs: ${recent.join(', ')} (see \`wiki undo --list\`)` : 'no runs are recorded yet');
    }
    return run;
  }
  // The last run that changed pages: not a no-op `ingest --force` that only rewrote the source record.
  const runs = await listRuns(root);
  return runs.reverse().find((run) => {
    const pages = pagesChanged(run, options);
    return pages.created.length + pages.updated.length > 0;
  });
}

/** The pages a run created and changed: not the log, the generated index and spokes, nor the tool's own state (.wiki/, the source record). */
export function pagesChanged(run: RunRecord, options: Pick<UndoOptions, 'logPath' | 'isGenerated'>): { created: string[]; updated: string[] } {
  const isToolState = (file: string): boolean => file.startsWith('.wiki/') || file === MANIFEST_PATH;
  const pages = run.files.filter((file) => file.path !== options.logPath && !isToolState(file.path) && !(options.isGenerated?.(file.path) ?? false));
  return { created: pages.filter((file) => !file.existedBefore).map((file) => file.path), updated: pages.filter((file) => file.existedBefore).map((file) => file.path) };
}

/** One recorded run as `wiki undo --list` shows it. */
export interface RunSummaryLine {
  runId: string;
  op: string;
  title: string;
  startedAt: string;
  status: RunRecord['status'];
  created: string[];
  updated: string[];
  /** Other files it changed: the index, the tool's state. */
  otherFiles: number;
}

/** The most recent runs, newest first, with the pages each changed. */
export async function recentRuns(root: string, options: Pick<UndoOptions, 'logPath' | 'isGenerated'> & { limit: number }): Promise<RunSummaryLine[]> {
  const runs = (await listRuns(root)).reverse().slice(0, options.limit);
  return runs.map((run) => {
    const { created, updated } = pagesChanged(run, options);
    const otherFiles = run.files.filter((file) => file.path !== options.logPath).length - created.length - updated.length;
    return { runId: run.runId, op: run.op, title: run.title, startedAt: run.startedAt, status: run.status, created, updated, otherFiles };
  });
}

async function planFile(root: string, io: ConfinedIo, beforeImages: BeforeImages, run: RunRecord, file: RunFile, logPath: string): Promise<UndoAction> {
  if (file.path === logPath) {
    return { path: file.path, action: 'skip', reason: 'the log is append-only; the undo is logged instead', changedSinceRun: false };
  }
  const current = await io.readIfExists(resolveInRoot(root, file.path));
  const currentSha = current === undefined ? null : hashText(current);
  // A source is put back only where nothing is now: undo never replaces or removes a file someone placed in raw/ since.
  if (isPathUnder(file.path, 'raw/') && file.existedBefore && current !== undefined && currentSha !== file.beforeSha256) {
    return { path: file.path, action: 'skip', reason: 'a different file is in raw/ at that path now; undo never replaces a source', changedSinceRun: false };
  }
  if (file.existedBefore) {
    const image = await beforeImages(file.path);
    if (image === undefined || hashText(image) !== file.beforeSha256) {
      throw new ConfigError(
        `the history of run ${run.runId} is damaged: the before-image of ${file.path} is missing or altered`,
        'nothing was changed; restore that file by hand (e.g. from git)',
      );
    }
    if (currentSha === file.beforeSha256) return { path: file.path, action: 'skip', reason: 'already as before the run', changedSinceRun: false };
  } else if (current === undefined) {
    return { path: file.path, action: 'skip', reason: 'already absent', changedSinceRun: false };
  }
  // Without an after-sha (a run killed between its write and the record) nothing later can be told apart.
  const changedSinceRun = file.afterSha256 !== undefined && currentSha !== file.afterSha256;
  return { path: file.path, action: file.existedBefore ? 'restore' : 'delete', changedSinceRun };
}

/** Apply a plan file by file (each write atomic), recording it as a run; returns its id. */
async function applyUndo(root: string, plan: UndoPlan, logPath: string): Promise<string> {
  const { run } = plan;
  const title = `${run.runId} (${run.op}: ${run.title})`;
  // Temp files of writes a killed or failed run left behind go with its changes.
  await removeAbandonedTempFiles(root, ['wiki', 'raw']);
  const undoRun = await beginRun(root, newRunId(), 'undo', title);
  const beforeImages = runBeforeImages(root, run.runId);
  // Every read, write and removal inside the workspace, never through a link (confined-io.ts), only where runs write.
  const io = new ConfinedIo(root, { place: undoPlaceFor(run) });
  const lines: string[] = [];
  try {
    for (const action of plan.actions) {
      if (action.action === 'skip') continue;
      const file = run.files.find((f) => f.path === action.path);
      if (!file) continue;
      const target = resolveInRoot(root, action.path);
      await recordBefore(undoRun, action.path, await io.readIfExists(target));
      if (action.action === 'restore') {
        const image = (await beforeImages(action.path)) ?? Buffer.alloc(0);
        await io.write(target, image);
        await recordAfter(undoRun, action.path, image, { written: file.writtenBefore });
        lines.push(`restored ${action.path}`);
      } else {
        await io.remove(target);
        await recordAfter(undoRun, action.path, undefined, { written: file.writtenBefore });
        lines.push(`deleted ${action.path} (created by that run)`);
      }
    }
  } catch (error) {
    await finishRun(undoRun, 'failed').catch(() => undefined);
    throw error;
  }
  await finishRun(undoRun, 'completed');
  lines.push(`recorded as run ${undoRun.runId} (\`wiki undo ${undoRun.runId}\` reverts this undo)`);
  try {
    await appendLog(root, logPath, 'undo', title, lines, undefined, undoRun.runId);
  } catch (error) {
    if (!(error instanceof SandboxError)) throw error;
    // The files are restored and the undo recorded: say so, not only why the log was refused.
    throw new SandboxError(`undid run ${run.runId} (recorded as run ${undoRun.runId}), but wrote no log entry: ${error.message}`, `make ${logPath} a regular file again; \`wiki undo ${undoRun.runId}\` reverts this undo`);
  }
  return undoRun.runId;
}
