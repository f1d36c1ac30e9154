import { unlinkSync, readFileSync } from 'node:fs';
import { mkdir, open, readFile, stat, unlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { UsageError, WikiError } from '../errors.js';
import { processExists } from '../util/process.js';
import { stateDir } from '../wiki/workspace.js';

/**
 * The workspace lock for mutating commands: `.wiki/lock`, a small JSON file naming the
 * holder. It is pid-based rather than mtime-based (proper-lockfile) because the rule users
 * rely on is "a lock whose process is gone is taken over": a long model call must never
 * look stale just because it is slow, and a killed run must never block the next one.
 */
export const LOCK_FILE = 'lock';

/** A fresh unparseable lock may be a holder between its exclusive create and its write. */
const CORRUPT_GRACE_MS = 2_000;
const POLL_MS = 100;
const GUARD_ABANDONED_MS = 5_000;

export interface LockInfo {
  pid: number;
  command: string;
  /** ISO timestamp. */
  startedAt: string;
  host: string;
}

export interface Lock {
  readonly path: string;
  readonly info: LockInfo;
  /** Remove the lock if it is still ours. Safe to call more than once. */
  release(): Promise<void>;
  /** Synchronous twin of `release`, for exit handlers. */
  releaseSync(): void;
  /** Release synchronously on the process 'exit' event too (not fired by an unhandled SIGKILL). */
  releaseOnExit(): void;
}

export interface AcquireOptions {
  command: string;
  /** How long to wait for a live holder to finish; 0 (the default) fails at once. */
  waitSeconds?: number;
  /** Told about stale or corrupt locks that were taken over. */
  onNotice?: (message: string) => void;
  /** Stop waiting (LockError) once aborted, e.g. on SIGINT/SIGTERM. */
  signal?: AbortSignal;
}

/** Another live run holds the workspace lock. */
export class LockError extends WikiError {
  readonly exitCode = 2 as const;
  readonly holder: LockInfo | undefined;
  constructor(message: string, hint: string | undefined, holder: LockInfo | undefined) {
    super(message, hint);
    this.holder = holder;
  }
}

/** Locks this process holds, so a second acquisition in the same process is refused too. */
const heldHere = new Set<string>();

export function lockPath(root: string): string {
  return path.join(stateDir(root), LOCK_FILE);
}

export async function acquireLock(root: string, options: AcquireOptions): Promise<Lock> {
  return acquireLockFile(lockPath(root), options);
}

/** The same lock at another place: a file kept outside any workspace (the `wiki serve` tokens file) is locked beside it. */
export async function acquireLockFile(file: string, options: AcquireOptions): Promise<Lock> {
  await mkdir(path.dirname(file), { recursive: true });
  const waitMs = Math.max(0, (options.waitSeconds ?? 0) * 1000);
  const deadline = Date.now() + waitMs;
  for (;;) {
    const info: LockInfo = { pid: process.pid, command: options.command, startedAt: new Date().toISOString(), host: os.hostname() };
    const text = `${JSON.stringify(info)}\n`;
    if (await createExclusive(file, text)) {
      heldHere.add(file);
      return makeLock(file, info, text);
    }
    const holder = await inspectHolder(file);
    if (holder.state === 'gone') continue;
    if (holder.state === 'stale' || holder.state === 'corrupt') {
      if (await removeIfUnchanged(file, holder.text)) {
        options.onNotice?.(holder.state === 'stale' ? staleNotice(holder.info) : `replaced an unreadable lock file ${file} (${holder.reason})`);
      }
      continue;
    }
    if (Date.now() >= deadline || options.signal?.aborted) throw heldError(holder.info, waitMs);
    await sleep(Math.min(POLL_MS, Math.max(1, deadline - Date.now())));
  }
}

/** Parse a `--wait SECONDS` flag value (commander argParser for every mutating command). */
export function parseWaitSeconds(raw: string): number {
  const seconds = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(seconds) || seconds < 0) {
    throw new UsageError(`--wait ${raw}: not a number of seconds`, 'pass e.g. --wait 60 (0 fails at once when another run holds the lock)');
  }
  return seconds;
}

/** Read the current lock without taking it (for `wiki status` and messages). */
export async function readLock(root: string): Promise<LockInfo | undefined> {
  const holder = await inspectHolder(lockPath(root));
  return holder.state === 'live' || holder.state === 'stale' ? holder.info : undefined;
}

type Holder =
  | { state: 'gone' }
  | { state: 'live'; info: LockInfo | undefined; text: string }
  | { state: 'stale'; info: LockInfo; text: string }
  | { state: 'corrupt'; reason: string; text: string };

async function inspectHolder(file: string): Promise<Holder> {
  let text: string;
  let modified: number;
  try {
    [text, modified] = await Promise.all([readFile(file, 'utf8'), stat(file).then((s) => s.mtimeMs)]);
  } catch (error) {
    if (isCode(error, 'ENOENT')) return { state: 'gone' };
    // A read of a folder fails on the descriptor, so the error names no path; name it, so the top-level handler can say which state file is of the wrong kind.
    if (isCode(error, 'EISDIR')) throw Object.assign(error as NodeJS.ErrnoException, { path: file });
    throw error;
  }
  const parsed = parseLockInfo(text);
  if (typeof parsed === 'string') {
    // Between a holder's exclusive create and its write the file is briefly empty.
    if (Date.now() - modified < CORRUPT_GRACE_MS) return { state: 'live', info: undefined, text };
    return { state: 'corrupt', reason: parsed, text };
  }
  if (heldHere.has(file) && parsed.pid === process.pid) return { state: 'live', info: parsed, text };
  return isAlive(parsed) ? { state: 'live', info: parsed, text } : { state: 'stale', info: parsed, text };
}

export function parseLockInfo(text: string): LockInfo | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return text.trim() === '' ? 'empty' : 'not JSON';
  }
  if (typeof value !== 'object' || value === null) return 'not a JSON object';
  const record = value as Record<string, unknown>;
  const { pid, command, startedAt, host } = record;
  // pid 0 or negative would signal a whole process group in process.kill.
  if (typeof pid !== 'number' || !Number.isInteger(pid) || pid <= 0) return 'no valid pid';
  if (typeof command !== 'string' || typeof startedAt !== 'string' || typeof host !== 'string') return 'missing fields';
  return { pid, command, startedAt, host };
}

/**
 * Whether the holder may still be running. A lock from another host cannot be checked, so
 * it counts as live. Our own pid, not held by this process, is a previous incarnation
 * (containers restart with the same small pids).
 */
function isAlive(info: LockInfo): boolean {
  if (info.host !== os.hostname()) return true;
  if (info.pid === process.pid) return false;
  return processExists(info.pid);
}

async function createExclusive(file: string, text: string): Promise<boolean> {
  let handle;
  try {
    handle = await open(file, 'wx');
  } catch (error) {
    if (isCode(error, 'EEXIST')) return false;
    throw error;
  }
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
  return true;
}

/**
 * Remove a stale lock only if it is still the one we judged stale. Removal happens under a
 * short-lived guard file, so two processes taking over the same stale lock cannot delete
 * each other's new lock: only the guard holder deletes, and only the content it re-read.
 * Returns false when the lock changed or another process is taking it over right now.
 */
async function removeIfUnchanged(file: string, expected: string): Promise<boolean> {
  const guard = `${file}.takeover`;
  if (!(await createExclusive(guard, `${JSON.stringify({ pid: process.pid })}\n`))) {
    await removeAbandonedGuard(guard);
    await sleep(10);
    return false;
  }
  try {
    const current = await readFile(file, 'utf8').catch(() => undefined);
    if (current !== expected) return false;
    await unlink(file);
    return true;
  } finally {
    await unlink(guard).catch(() => undefined);
  }
}

/** A take-over lasts milliseconds; a guard much older than that was left by a killed process. */
async function removeAbandonedGuard(guard: string): Promise<void> {
  try {
    if (Date.now() - (await stat(guard)).mtimeMs > GUARD_ABANDONED_MS) await unlink(guard);
  } catch {
    // gone already
  }
}

function makeLock(file: string, info: LockInfo, text: string): Lock {
  let released = false;
  const isOurs = (): boolean => {
    try {
      return readFileSync(file, 'utf8') === text;
    } catch {
      return false;
    }
  };
  const onExit = (): void => lock.releaseSync();
  const lock: Lock = {
    path: file,
    info,
    async release() {
      if (released) return;
      released = true;
      heldHere.delete(file);
      process.removeListener('exit', onExit);
      const current = await readFile(file, 'utf8').catch(() => undefined);
      if (current === text) await unlink(file).catch(() => undefined);
    },
    releaseSync() {
      if (released) return;
      released = true;
      heldHere.delete(file);
      process.removeListener('exit', onExit);
      if (isOurs()) {
        try {
          unlinkSync(file);
        } catch {
          // already gone
        }
      }
    },
    releaseOnExit() {
      if (!released && !process.listeners('exit').includes(onExit)) process.on('exit', onExit);
    },
  };
  return lock;
}

function heldError(info: LockInfo | undefined, waitedMs: number): LockError {
  const waited = waitedMs > 0 ? ` (still held after waiting ${formatSeconds(waitedMs)})` : '';
  if (!info) {
    return new LockError(`another wiki run is taking the lock right now${waited}`, 'try again in a moment or pass --wait 60', undefined);
  }
  const where = info.host === os.hostname() ? '' : ` on host ${info.host}`;
  const message = `another wiki run holds the lock: ${info.command} (pid ${info.pid}${where}, started ${formatStart(info.startedAt)})${waited}`;
  const hint =
    info.host === os.hostname()
      ? 'wait for it or pass --wait 60'
      : `wait for it or pass --wait 60; if that run is gone, delete .wiki/lock`;
  return new LockError(message, hint, info);
}

function staleNotice(info: LockInfo): string {
  return `took over a stale lock left by pid ${info.pid} (${info.command}, started ${formatStart(info.startedAt)})`;
}

/** Time of day when the run started today, else date and time (local). */
export function formatStart(iso: string, now = new Date()): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const pad = (n: number): string => String(n).padStart(2, '0');
  const time = `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
  const sameDay = date.toDateString() === now.toDateString();
  return sameDay ? time : `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${time}`;
}

function formatSeconds(ms: number): string {
  const seconds = ms / 1000;
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)}s`;
}

function isCode(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && (error as NodeJS.ErrnoException).code === code;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
