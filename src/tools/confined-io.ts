import { closeSync, constants, existsSync, fstatSync, mkdirSync, openSync, readFileSync, type Stats } from 'node:fs';
import { lstat, mkdir, open, readdir, realpath, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { SandboxError } from '../errors.js';
import { writeFileAtomic } from '../util/fs.js';
import { isInsideRoot } from '../util/fs.js';

/**
 * File I/O that cannot be redirected out of the workspace root by swapping a file or folder
 * for a symbolic link between the sandbox's check and the I/O itself. The sandbox decides
 * which real location a path may use; this module makes sure the I/O happens exactly there.
 *
 * On Linux every path is walked from the root one folder at a time through descriptors
 * (`/proc/self/fd/N/name`, the equivalent of openat), each step opened with O_NOFOLLOW: a
 * component that is a link when it is used makes the call fail, whatever it was when it
 * was checked. Files are opened with O_NOFOLLOW too and must be regular files with a single
 * link (a hard link may carry a denied or outside file's content). A write creates its temp
 * file inside the verified folder's descriptor and renames it there, so neither the temp
 * file nor the page can land elsewhere. Where descriptor paths do not exist (macOS,
 * Windows), the opened folder or file is compared (device and inode) with the checked path
 * after the open, and a write's folder again after the rename.
 */

const { O_RDONLY, O_DIRECTORY, O_NOFOLLOW, O_NONBLOCK } = constants;
/** O_NOFOLLOW / O_DIRECTORY are undefined on Windows; 0 leaves the flag out. */
const FOLDER_FLAGS = O_RDONLY | (O_DIRECTORY ?? 0) | (O_NOFOLLOW ?? 0);
// O_NONBLOCK: a FIFO swapped in for a page must not block the open forever.
const FILE_FLAGS = O_RDONLY | (O_NOFOLLOW ?? 0) | (O_NONBLOCK ?? 0);
/** Files up to this size are read with synchronous calls (see readSmallFile). */
const SYNC_READ_MAX_BYTES = 1024 * 1024;
const DESCRIPTOR_PATHS = process.platform === 'linux' && existsSync('/proc/self/fd');

export interface ConfinedEntry {
  name: string;
  kind: 'file' | 'dir' | 'symlink' | 'other';
  size: number;
}

export class ConfinedIo {
  private realRoot: string | undefined;
  private readonly resolvedRoot: string;
  private readonly byDescriptors: boolean;

  /** `descriptorPaths: false` uses the check-after-open way even where descriptor paths exist (for tests). */
  constructor(root: string, options: { descriptorPaths?: boolean } = {}) {
    this.resolvedRoot = path.resolve(root);
    this.byDescriptors = DESCRIPTOR_PATHS && options.descriptorPaths !== false;
  }

  /** A regular single-link file's bytes, or `length` bytes from `start`. */
  async readBytes(absolute: string, range?: { start: number; length: number }): Promise<Uint8Array> {
    if (!range && this.byDescriptors) {
      const small = await this.readSmallFile(absolute);
      if (small) return small;
    }
    const handle = await this.openFile(absolute);
    try {
      if (!range) return await handle.readFile();
      const buffer = Buffer.alloc(range.length);
      const { bytesRead } = await handle.read(buffer, 0, range.length, range.start);
      return buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  }

  /**
   * A page-sized file read with synchronous calls (microseconds each, where a thread-pool
   * trip costs far more), under openFile's checks; undefined when larger (read in the pool).
   */
  private async readSmallFile(absolute: string): Promise<Uint8Array | undefined> {
    const { realRoot, segments, name, shown } = await this.locateFile(absolute);
    const folder = await this.openFolder(realRoot, segments, false);
    try {
      let fd: number;
      try {
        fd = openSync(folder.child(name), FILE_FLAGS);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw swappedLink(shown);
        throw error;
      }
      try {
        const info = fstatSync(fd);
        checkOpenedFile(info, shown);
        return info.size > SYNC_READ_MAX_BYTES ? undefined : readFileSync(fd);
      } finally {
        closeSync(fd);
      }
    } finally {
      await folder.close();
    }
  }

  /** The entries of a folder (links reported as links, sizes of files from lstat). */
  async list(absolute: string, signal?: AbortSignal): Promise<ConfinedEntry[]> {
    const { realRoot, segments } = await this.locate(absolute);
    const folder = await this.openFolder(realRoot, segments, false);
    try {
      const dirents = await readdir(folder.self, { withFileTypes: true });
      const entries: ConfinedEntry[] = [];
      for (const dirent of dirents) {
        signal?.throwIfAborted();
        const kind = dirent.isSymbolicLink() ? 'symlink' : dirent.isDirectory() ? 'dir' : dirent.isFile() ? 'file' : 'other';
        const size = kind === 'file' ? await lstat(folder.child(dirent.name)).then((s) => s.size, () => 0) : 0;
        entries.push({ name: dirent.name, kind, size });
      }
      await folder.verify();
      return entries;
    } finally {
      await folder.close();
    }
  }

  /** Replace or create the file atomically inside its verified folder (folders are created as needed, never through a link). */
  async write(absolute: string, content: string | Uint8Array): Promise<void> {
    const { realRoot, segments, name } = await this.locateFile(absolute);
    const folder = await this.openFolder(realRoot, segments, true);
    try {
      await writeFileAtomic(folder.child(name), content);
      await folder.verify();
    } finally {
      await folder.close();
    }
  }

  /** Read (a missing file reads as empty) and replace with the text appended, so the file is never half-appended; returns the new content. */
  async append(absolute: string, content: string): Promise<string> {
    let existing = '';
    try {
      existing = Buffer.from(await this.readBytes(absolute)).toString('utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    await this.write(absolute, existing + content);
    return existing + content;
  }

  private async openFile(absolute: string): Promise<FileHandle> {
    const { realRoot, segments, name, shown } = await this.locateFile(absolute);
    const folder = await this.openFolder(realRoot, segments, false);
    try {
      let handle: FileHandle;
      try {
        handle = await open(folder.child(name), FILE_FLAGS);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw swappedLink(shown);
        throw error;
      }
      try {
        const info = await handle.stat();
        checkOpenedFile(info, shown);
        if (!this.byDescriptors) {
          const onPath = await lstat(folder.child(name));
          if (onPath.dev !== info.dev || onPath.ino !== info.ino) throw swappedLink(shown);
        }
        await folder.verify();
        return handle;
      } catch (error) {
        await handle.close();
        throw error;
      }
    } finally {
      await folder.close();
    }
  }

  /** Open the folder `segments` below `realRoot`, never through a link; `create` makes missing folders. */
  private openFolder(realRoot: string, segments: readonly string[], create: boolean): Promise<OpenFolder> {
    return this.byDescriptors ? openFolderByDescriptors(realRoot, segments, create) : openFolderByPath(realRoot, segments, create);
  }

  /** The root's real path and the folder names leading from it to `absolute`. */
  /** A file's place: its folder's segments, its name, and the path shown in messages; the root itself is no file. */
  private async locateFile(absolute: string): Promise<{ realRoot: string; segments: string[]; name: string; shown: string }> {
    const { realRoot, segments } = await this.locate(absolute);
    const name = segments.pop();
    if (name === undefined) throw Object.assign(new Error('EISDIR: the workspace root is a directory'), { code: 'EISDIR' });
    return { realRoot, segments, name, shown: [...segments, name].join('/') };
  }

  private async locate(absolute: string): Promise<{ realRoot: string; segments: string[] }> {
    if (this.realRoot === undefined) {
      try {
        this.realRoot = await realpath(this.resolvedRoot);
      } catch {
        throw new SandboxError(`the workspace root ${this.resolvedRoot} does not exist`);
      }
    }
    const resolved = path.resolve(absolute);
    for (const root of [this.realRoot, this.resolvedRoot]) {
      const relative = path.relative(root, resolved);
      if (isInsideRoot(relative)) return { realRoot: this.realRoot, segments: relative === '' ? [] : relative.split(path.sep) };
    }
    throw new SandboxError(`${absolute} is outside the workspace root; only files inside it can be used`);
  }
}

/** A hard link can carry the content of a denied file or of one outside the workspace; nothing tells them apart. */
export function hardLinkRefusal(shown: string, links: number): string {
  return `${shown} is a hard link (${links} names for one file), so its content may belong to a file outside the wiki's bounds; it cannot be read. Copy the file instead of linking it.`;
}

/** An opened file may be read only when it is a regular file with a single link. */
function checkOpenedFile(info: Stats, shown: string): void {
  if (info.isDirectory()) throw Object.assign(new Error(`EISDIR: ${shown} is a directory`), { code: 'EISDIR' });
  if (!info.isFile()) throw new SandboxError(`${shown} is not a regular file (a device, socket or pipe); only files can be read`);
  if (info.nlink > 1) throw new SandboxError(hardLinkRefusal(shown, info.nlink));
}

function swappedLink(shown: string): SandboxError {
  return new SandboxError(`${shown} is (or just became) a symbolic link; files are used only where the sandbox checked them, never through a link`);
}

interface OpenFolder {
  /** A path naming the opened folder itself. */
  self: string;
  /** A path naming `name` inside the opened folder. */
  child(name: string): string;
  /** Throws when the folder's path no longer names the opened folder (no-op with descriptor paths). */
  verify(): Promise<void>;
  close(): Promise<void>;
}

/** Walked with synchronous calls: each is microseconds, a trip through the thread pool far more. */
async function openFolderByDescriptors(realRoot: string, segments: readonly string[], create: boolean): Promise<OpenFolder> {
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

async function openFolderByPath(realRoot: string, segments: readonly string[], create: boolean): Promise<OpenFolder> {
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
