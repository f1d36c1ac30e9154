import { closeSync, constants, mkdirSync, openSync } from 'node:fs';
import { lstat, mkdir, open, realpath } from 'node:fs/promises';
import path from 'node:path';
import { SandboxError } from '../errors.js';

/**
 * Opening a folder inside the workspace so that no step on the way is a link (confined-io.ts
 * does its file I/O inside the folder opened here): by descriptors on Linux, by path with a
 * check of the folder's identity elsewhere.
 */

const { O_RDONLY, O_DIRECTORY, O_NOFOLLOW } = constants;
/** O_NOFOLLOW / O_DIRECTORY are undefined on Windows; 0 leaves the flag out. */
const FOLDER_FLAGS = O_RDONLY | (O_DIRECTORY ?? 0) | (O_NOFOLLOW ?? 0);

export function swappedLink(shown: string): SandboxError {
  return new SandboxError(`${shown} is (or just became) a symbolic link; files are used only where the sandbox checked them, never through a link`);
}

export interface OpenFolder {
  /** A path naming the opened folder itself. */
  self: string;
  /** A path naming `name` inside the opened folder. */
  child(name: string): string;
  /** Throws when the folder's path no longer names the opened folder (no-op with descriptor paths). */
  verify(): Promise<void>;
  close(): Promise<void>;
}

/** Walked with synchronous calls: each is microseconds, a trip through the thread pool far more. */
export async function openFolderByDescriptors(realRoot: string, segments: readonly string[], create: boolean): Promise<OpenFolder> {
  let current = openSync(realRoot, FOLDER_FLAGS);
  try {
    for (let i = 0; i < segments.length; i++) {
      const at = `/proc/self/fd/${current}/${segments[i]}`;
      if (create) {
        try {
          mkdirSync(at);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        }
      }
      let next: number;
      try {
        next = openSync(at, FOLDER_FLAGS);
      } catch (error) {
        throw await folderOpenError(error as NodeJS.ErrnoException, at, segments.slice(0, i + 1).join('/'));
      }
      closeSync(current);
      current = next;
    }
  } catch (error) {
    closeSync(current);
    throw error;
  }
  const fd = current;
  const self = `/proc/self/fd/${fd}`;
  return {
    self,
    child: (name) => `${self}/${name}`,
    verify: async () => undefined,
    close: async () => closeSync(fd),
  };
}

export async function openFolderByPath(realRoot: string, segments: readonly string[], create: boolean): Promise<OpenFolder> {
  let at = realRoot;
  for (let i = 0; i < segments.length; i++) {
    at = path.join(at, segments[i] as string);
    const info = await lstat(at).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' && create) return undefined;
      throw error;
    });
    if (info === undefined) {
      await mkdir(at).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'EEXIST') throw error;
      });
    } else if (info.isSymbolicLink()) {
      throw swappedLink(segments.slice(0, i + 1).join('/'));
    }
  }
  // Where folders cannot be opened (Windows), the folder's identity is taken from its lstat.
  const handle = O_DIRECTORY === undefined ? undefined : await open(at, FOLDER_FLAGS).catch(async (error: NodeJS.ErrnoException) => {
    throw await folderOpenError(error, at, segments.join('/'));
  });
  const opened = handle ? await handle.stat() : await lstat(at);
  const verify = async (): Promise<void> => {
    const real = await realpath(at).catch(() => undefined);
    const onPath = await lstat(at).catch(() => undefined);
    if (real !== at || onPath?.isDirectory() !== true || onPath.dev !== opened.dev || onPath.ino !== opened.ino) throw swappedLink(segments.join('/') || '.');
  };
  try {
    await verify();
  } catch (error) {
    await handle?.close();
    throw error;
  }
  return { self: at, child: (name) => path.join(at, name), verify, close: async () => handle?.close() };
}

/** ENOTDIR/ELOOP on a folder step is a link (refused) or a file where a folder belongs (the original error). */
async function folderOpenError(error: NodeJS.ErrnoException, at: string, shown: string): Promise<Error> {
  if (error.code !== 'ENOTDIR' && error.code !== 'ELOOP') return error;
  const info = await lstat(at).catch(() => undefined);
  return info?.isSymbolicLink() === true || error.code === 'ELOOP' ? swappedLink(shown) : error;
}
