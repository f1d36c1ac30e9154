import { randomBytes } from 'node:crypto';
import { closeSync, fchmodSync, fdatasync, mkdirSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { promisify } from 'node:util';
import path from 'node:path';
import { DiskFullError, isDiskFull } from '../errors.js';
import { processExists } from './process.js';

const flushData = promisify(fdatasync);

/**
 * Write a file so that a crash at any moment leaves either the old or the new content:
 * write a sibling temp file, flush it to disk, then rename over the target. A rewrite keeps
 * the file's permission bits (a rename would otherwise leave the temp file's, from the
 * umask). `durable: false` skips the flush, for files whose content is checked when read
 * (a machine that loses power may then leave them empty, never half-new).
 *
 * Everything but the flush is a synchronous call: each takes microseconds, where a trip
 * through the thread pool costs a write a good part of a millisecond on a busy machine.
 * The flush (fdatasync: the data and what is needed to read it back) runs in the pool.
 */
export async function writeFileAtomic(filePath: string, content: string | Uint8Array, options: { durable?: boolean } = {}): Promise<void> {
  const temp = atomicTempPath(filePath);
  const mode = existingMode(filePath);
  // 'wx': never through a link or over a file someone put at the temp name.
  let fd: number;
  try {
    fd = openNew(temp);
  } catch (error) {
    throw isDiskFull(error) ? new DiskFullError(filePath) : error;
  }
  try {
    try {
      if (mode !== undefined) fchmodSync(fd, mode);
      writeAll(fd, content);
      if (options.durable !== false) await flushData(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, filePath);
  } catch (error) {
    // A write cut short (a full disk above all) leaves no temp file behind.
    rmSync(temp, { force: true });
    throw isDiskFull(error) ? new DiskFullError(filePath) : error;
  }
}

function existingMode(filePath: string): number | undefined {
  try {
    const info = statSync(filePath, { throwIfNoEntry: false });
    return info === undefined ? undefined : info.mode & 0o7777;
  } catch {
    return undefined;
  }
}

/** Create `temp` exclusively, making its folder first when it is missing. */
function openNew(temp: string): number {
  try {
    return openSync(temp, 'wx');
  } catch (error) {
    // A missing folder is made; a file in the folder's place makes mkdir say so (EEXIST).
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
  }
  mkdirSync(path.dirname(temp), { recursive: true });
  return openSync(temp, 'wx');
}

function writeAll(fd: number, content: string | Uint8Array): void {
  const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  let written = 0;
  while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
}

/**
 * `.name.<pid>.<8 hex>.tmp` next to the target: the temp file of an atomic write. The pid lets
 * a later run tell a dead writer's leftovers (atomicTempOwner) from a live one's.
 */
export function atomicTempPath(target: string): string {
  return path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
}

const ATOMIC_TEMP = /^\..+\.(\d+)\.[0-9a-f]{8}\.tmp$/;

/** The pid that wrote an atomic write's temp file (by its name), or undefined for any other name. */
export function atomicTempOwner(fileName: string): number | undefined {
  const pid = ATOMIC_TEMP.exec(fileName)?.[1];
  return pid === undefined ? undefined : Number(pid);
}

/**
 * Remove temp files that runs killed mid-write left under `folders` of `root`. Call it holding
 * the workspace lock: only the holder writes there, and only temp files of processes that are
 * gone are touched.
 */
export async function removeAbandonedTempFiles(root: string, folders: readonly string[]): Promise<string[]> {
  const removed: string[] = [];
  const walk = async (relative: string): Promise<void> => {
    const entries = await readdir(path.join(root, relative), { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const child = `${relative}/${entry.name}`;
      if (entry.isDirectory()) await walk(child);
      const pid = atomicTempOwner(entry.name);
      if (entry.isFile() && pid !== undefined && pid !== process.pid && !processExists(pid)) {
        await rm(path.join(root, child), { force: true });
        removed.push(child);
      }
    }
  };
  for (const folder of folders) await walk(folder);
  return removed;
}

export async function pathExists(filePath: string): Promise<boolean> {
  try {
    await stat(filePath);
    return true;
  } catch {
    return false;
  }
}

export async function isDirectory(filePath: string): Promise<boolean> {
  try {
    return (await stat(filePath)).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The file standing where `folder` or one of its parents must be a folder: the first path
 * that exists on the way up from `folder`, when it is not a directory; undefined when the
 * folder exists or can be made.
 */
export async function fileInTheWay(folder: string): Promise<string | undefined> {
  for (let dir = path.resolve(folder); ; dir = path.dirname(dir)) {
    if (await pathExists(dir)) return (await isDirectory(dir)) ? undefined : dir;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** A file's text, or undefined when it does not exist (any other failure throws). */
export async function readTextIfExists(filePath: string): Promise<string | undefined> {
  return (await readBytesIfExists(filePath))?.toString('utf8');
}

/** A file's bytes, or undefined when it does not exist (any other failure throws). */
export async function readBytesIfExists(filePath: string): Promise<Buffer | undefined> {
  try {
    return await readFile(filePath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Workspace-relative, always `/`-separated. */
export function toPosixRelative(root: string, absolute: string): string {
  return path.relative(root, absolute).split(path.sep).join('/');
}

/** Whether a `path.relative(root, x)` result stays inside root. */
export function isInsideRoot(relative: string): boolean {
  return relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative);
}
