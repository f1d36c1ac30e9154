import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { processExists } from './process.js';

/**
 * Write a file so that a crash at any moment leaves either the old or the new content:
 * write a sibling temp file, fsync it, then rename over the target. A rewrite keeps the
 * file's permission bits (a rename would otherwise leave the temp file's, from the umask).
 */
export async function writeFileAtomic(filePath: string, content: string | Uint8Array): Promise<void> {
  await mkdir(path.dirname(filePath), { recursive: true });
  const temp = atomicTempPath(filePath);
  const mode = await stat(filePath).then(
    (existing) => existing.mode & 0o7777,
    () => undefined,
  );
  // 'wx': never through a link or over a file someone put at the temp name.
  const handle = await open(temp, 'wx');
  try {
    if (mode !== undefined) await handle.chmod(mode);
    await handle.writeFile(content);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temp, filePath);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
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
