import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { acquireLock, formatStart, LockError, lockPath, parseLockInfo, parseWaitSeconds, type Lock } from '../../src/state/lock.js';
import { REPO_ROOT } from '../helpers/cli.js';

const BUILT_LOCK = path.join(REPO_ROOT, 'dist/src/state/lock.js');

/** A second process that takes the lock through the built module, says "held", then keeps it. */
const HOLDER = `
const [root, holdMs, mode] = process.argv.slice(1);
const { acquireLock } = await import(${JSON.stringify(pathToFileURL(BUILT_LOCK).href)});
try {
  const lock = await acquireLock(root, { command: 'ingest' });
  process.stdout.write('held\\n');
  if (mode === 'exit-without-release') { lock.releaseOnExit(); process.exit(0); }
  setTimeout(async () => { await lock.release(); process.exit(0); }, Number(holdMs));
} catch (error) {
  process.stdout.write(error.name === 'LockError' ? 'busy\\n' : 'error ' + error.message + '\\n');
  process.exit(3);
}
`;

interface Holder {
  child: ChildProcess;
  /** First line the child prints: held, busy or error … */
  firstLine: Promise<string>;
  exited: Promise<number | null>;
}

function spawnHolder(root: string, holdMs: number, mode = ''): Holder {
  const child = spawn(process.execPath, ['--input-type=module', '-e', HOLDER, root, String(holdMs), mode], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  const firstLine = new Promise<string>((resolve) => {
    let buffer = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      buffer += chunk;
      if (buffer.includes('\n')) resolve(buffer.split('\n')[0] ?? '');
    });
    child.on('close', () => resolve(buffer.trim()));
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, firstLine, exited };
}

async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  const pid = child.pid;
  await new Promise((resolve) => child.on('close', resolve));
  if (pid === undefined) throw new Error('spawn gave no pid');
  return pid;
}

const children: ChildProcess[] = [];
const locks: Lock[] = [];

async function tempRoot(): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), 'wiki-lock-'));
}

async function take(root: string, options: Partial<Parameters<typeof acquireLock>[1]> = {}): Promise<Lock> {
  const lock = await acquireLock(root, { command: 'ingest', ...options });
  locks.push(lock);
  return lock;
}

async function failure(promise: Promise<unknown>): Promise<LockError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof LockError) return error;
    throw error;
  }
  throw new Error('expected the lock to be refused');
}

beforeAll(() => {
  if (!existsSync(BUILT_LOCK)) throw new Error(`${BUILT_LOCK} is missing: run \`npx tsc -p .\` first`);
});

afterEach(async () => {
  for (const lock of locks.splice(0)) await lock.release();
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

describe('acquireLock in one process', () => {
  it('writes pid, command, start time and host, and release removes the file', async () => {
    const root = await tempRoot();
    const lock = await take(root, { command: 'lint --fix' });
    const info = JSON.parse(await readFile(lockPath(root), 'utf8')) as Record<string, unknown>;
    expect(info).toEqual({ pid: process.pid, command: 'lint --fix', startedAt: lock.info.startedAt, host: os.hostname() });
    await lock.release();
    expect(existsSync(lockPath(root))).toBe(false);
    await lock.release(); // a second release is harmless
  });

  it('refuses a second acquisition at once, naming the holder, with exit code 2', async () => {
    const root = await tempRoot();
    await take(root, { command: 'ingest' });
    const error = await failure(take(root, { command: 'lint --fix' }));
    expect(error.exitCode).toBe(2);
    expect(error.message).toMatch(new RegExp(`^another wiki run holds the lock: ingest \\(pid ${process.pid}, started \\d\\d:\\d\\d:\\d\\d\\)$`));
    expect(error.hint).toBe('wait for it or pass --wait 60');
    expect(error.holder?.pid).toBe(process.pid);
  });

  it('can be taken again once released', async () => {
    const root = await tempRoot();
    const first = await take(root);
    await first.release();
    const second = await take(root, { command: 'query --save' });
    expect(JSON.parse(await readFile(lockPath(root), 'utf8'))).toMatchObject({ command: 'query --save' });
    await second.release();
  });

  it('release leaves a lock that is no longer ours', async () => {
    const root = await tempRoot();
    const lock = await take(root);
    const someoneElse = JSON.stringify({ pid: 1, command: 'ingest', startedAt: new Date().toISOString(), host: os.hostname() });
    await writeFile(lockPath(root), someoneElse);
    await lock.release();
    expect(await readFile(lockPath(root), 'utf8')).toBe(someoneElse);
  });
});

describe('acquireLock against another process', () => {
  it('fails naming the live holder in a second process', async () => {
    const root = await tempRoot();
    const holder = spawnHolder(root, 30_000);
    expect(await holder.firstLine).toBe('held');
    const error = await failure(take(root, { command: 'lint --fix' }));
    expect(error.message).toContain(`holds the lock: ingest (pid ${holder.child.pid}, started `);
    expect(JSON.parse(await readFile(lockPath(root), 'utf8'))).toMatchObject({ pid: holder.child.pid, command: 'ingest' });
  });

  it('--wait succeeds when the holder releases within the window', async () => {
    const root = await tempRoot();
    const holder = spawnHolder(root, 800);
    expect(await holder.firstLine).toBe('held');
    const started = Date.now();
    const lock = await take(root, { waitSeconds: 20 });
    const waited = Date.now() - started;
    expect(waited).toBeGreaterThan(300);
    expect(lock.info.pid).toBe(process.pid);
    expect(await holder.exited).toBe(0);
  });

  it('--wait gives up when the window passes and says how long it waited', async () => {
    const root = await tempRoot();
    const holder = spawnHolder(root, 30_000);
    expect(await holder.firstLine).toBe('held');
    const started = Date.now();
    const error = await failure(take(root, { waitSeconds: 0.5 }));
    expect(Date.now() - started).toBeGreaterThanOrEqual(450);
    expect(error.message).toContain('(still held after waiting 0.5s)');
  });

  it('takes over the lock of a process that exited, with a notice', async () => {
    const root = await tempRoot();
    const pid = await deadPid();
    await mkdir(path.dirname(lockPath(root)), { recursive: true });
    const startedAt = new Date().toISOString();
    await writeFile(lockPath(root), JSON.stringify({ pid, command: 'ingest', startedAt, host: os.hostname() }));
    const notices: string[] = [];
    const lock = await take(root, { onNotice: (message) => notices.push(message) });
    expect(notices).toEqual([`took over a stale lock left by pid ${pid} (ingest, started ${formatStart(startedAt)})`]);
    expect(JSON.parse(await readFile(lockPath(root), 'utf8'))).toMatchObject({ pid: process.pid });
    expect(lock.info.pid).toBe(process.pid);
  });

  it('takes over the lock of a holder killed with SIGKILL', async () => {
    const root = await tempRoot();
    const holder = spawnHolder(root, 30_000);
    expect(await holder.firstLine).toBe('held');
    holder.child.kill('SIGKILL');
    await holder.exited;
    const notices: string[] = [];
    await take(root, { onNotice: (message) => notices.push(message) });
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain(`took over a stale lock left by pid ${holder.child.pid} (ingest`);
  });

  it('lets exactly one of several processes take over the same stale lock', async () => {
    const root = await tempRoot();
    const pid = await deadPid();
    await mkdir(path.dirname(lockPath(root)), { recursive: true });
    await writeFile(lockPath(root), JSON.stringify({ pid, command: 'ingest', startedAt: new Date().toISOString(), host: os.hostname() }));
    const racers = Array.from({ length: 4 }, () => spawnHolder(root, 5_000));
    const outcomes = await Promise.all(racers.map((racer) => racer.firstLine));
    expect(outcomes.filter((line) => line === 'held')).toHaveLength(1);
    expect(outcomes.filter((line) => line === 'busy')).toHaveLength(3);
  });

  it('releaseOnExit removes the lock when the holder exits without releasing', async () => {
    const root = await tempRoot();
    const holder = spawnHolder(root, 0, 'exit-without-release');
    expect(await holder.firstLine).toBe('held');
    expect(await holder.exited).toBe(0);
    expect(existsSync(lockPath(root))).toBe(false);
  });

  it('treats a lock from another host as held (its process cannot be checked)', async () => {
    const root = await tempRoot();
    const pid = await deadPid();
    await mkdir(path.dirname(lockPath(root)), { recursive: true });
    await writeFile(lockPath(root), JSON.stringify({ pid, command: 'ingest', startedAt: new Date().toISOString(), host: 'elsewhere' }));
    const error = await failure(take(root));
    expect(error.message).toContain(`ingest (pid ${pid} on host elsewhere, started`);
    expect(error.hint).toContain('delete .wiki/lock');
  });
});

describe('corrupt lock files', () => {
  it.each([
    ['not JSON', 'garbage{'],
    ['empty', ''],
    ['no valid pid', JSON.stringify({ pid: 0, command: 'x', startedAt: 'y', host: os.hostname() })],
    ['missing fields', JSON.stringify({ pid: 123 })],
  ])('replaces an old unreadable lock (%s) with a notice', async (reason, text) => {
    const root = await tempRoot();
    await mkdir(path.dirname(lockPath(root)), { recursive: true });
    await writeFile(lockPath(root), text);
    const old = new Date(Date.now() - 60_000);
    await utimes(lockPath(root), old, old);
    const notices: string[] = [];
    await take(root, { onNotice: (message) => notices.push(message) });
    expect(notices).toEqual([`replaced an unreadable lock file ${lockPath(root)} (${reason})`]);
    expect(JSON.parse(await readFile(lockPath(root), 'utf8'))).toMatchObject({ pid: process.pid });
  });

  it('treats a just-created empty lock as a holder still writing it', async () => {
    const root = await tempRoot();
    await mkdir(path.dirname(lockPath(root)), { recursive: true });
    await writeFile(lockPath(root), '');
    const error = await failure(take(root));
    expect(error.message).toBe('another wiki run is taking the lock right now');
    expect(await readFile(lockPath(root), 'utf8')).toBe('');
  });
});

describe('parsing helpers', () => {
  it.each([
    ['{"pid":12,"command":"ingest","startedAt":"2026-01-01T00:00:00.000Z","host":"h"}', { pid: 12, command: 'ingest', startedAt: '2026-01-01T00:00:00.000Z', host: 'h' }],
    ['{"pid":-1,"command":"a","startedAt":"b","host":"h"}', 'no valid pid'],
    ['{"pid":1.5,"command":"a","startedAt":"b","host":"h"}', 'no valid pid'],
    ['[1]', 'no valid pid'],
    ['null', 'not a JSON object'],
    ['  ', 'empty'],
  ])('parseLockInfo(%j)', (text, expected) => {
    expect(parseLockInfo(text)).toEqual(expected);
  });

  it.each([
    ['0', 0],
    ['60', 60],
    ['2.5', 2.5],
  ])('parseWaitSeconds(%j) = %d', (raw, seconds) => {
    expect(parseWaitSeconds(raw)).toBe(seconds);
  });

  it.each(['-1', 'soon', ''])('parseWaitSeconds(%j) is a usage error', (raw) => {
    expect(() => parseWaitSeconds(raw)).toThrow(/--wait .*not a number of seconds/);
  });

  it('formatStart shows the time for today and the date otherwise', () => {
    const now = new Date(2026, 0, 21, 12, 0, 0);
    expect(formatStart(new Date(2026, 0, 21, 10, 22, 33).toISOString(), now)).toBe('10:22:33');
    expect(formatStart(new Date(2026, 0, 20, 23, 5, 1).toISOString(), now)).toBe('2026-01-20 23:05:01');
    expect(formatStart('not a date', now)).toBe('not a date');
  });
});
