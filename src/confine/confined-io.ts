import { closeSync, constants, existsSync, fstatSync, openSync, readFileSync, type Stats } from 'node:fs';
import { lstat, open, readdir, realpath, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { DiskFullError, isDiskFull, SandboxError } from '../errors.js';
import { writeFileAtomic } from '../util/fs.js';
import { isInsideRoot } from '../util/fs.js';
import { openFolderByDescriptors, openFolderByPath, swappedLink, type OpenFolder } from './confined-folders.js';

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

const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK } = constants;
// O_NONBLOCK: a FIFO swapped in for a page must not block the open forever.
const FILE_FLAGS = O_RDONLY | (O_NOFOLLOW ?? 0) | (O_NONBLOCK ?? 0);
/** Files up to this size are read with synchronous calls (see readSmallFile). */
const SYNC_READ_MAX_BYTES = 1024 * 1024;
const DESCRIPTOR_PATHS = process.platform === 'linux' && existsSync('/proc/self/fd');

/** The places a writer may write or remove, as workspace-relative `/` paths; `what` says which, in a refusal. */
export interface WritePlace {
  what: string;
  allows(relative: string): boolean;
}

export interface ConfinedEntry {
  name: string;
  kind: 'file' | 'dir' | 'symlink' | 'other';
  size: number;
}

export class ConfinedIo {
  private realRoot: string | undefined;
  private readonly resolvedRoot: string;
  private readonly byDescriptors: boolean;

  private readonly place: WritePlace | undefined;

  /**
   * `descriptorPaths: false` uses the check-after-open way even where descriptor paths exist (for tests).
   * `place`: where writes and removals may go (write-places.ts); anywhere inside the root when absent.
   */
  constructor(root: string, options: { descriptorPaths?: boolean; place?: WritePlace } = {}) {
    this.resolvedRoot = path.resolve(root);
    this.byDescriptors = DESCRIPTOR_PATHS && options.descriptorPaths !== false;
    this.place = options.place;
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
    const { realRoot, segments, name, shown } = await this.locateFile(absolute);
    this.checkPlace(shown);
    const folder = await this.openFolder(realRoot, segments, true);
    try {
      await writeFileAtomic(folder.child(name), content);
      await folder.verify();
    } catch (error) {
      // Named as the workspace knows it, not by the descriptor path it was written through.
      throw isDiskFull(error) ? new DiskFullError(shown) : error;
    } finally {
      await folder.close();
    }
  }

  /** Make the folder and any missing folders on its way, never through a link (an existing link on the way is refused). */
  async makeFolder(absolute: string): Promise<void> {
    const { realRoot, segments } = await this.locate(absolute);
    this.checkPlace(segments.join('/'));
    const folder = await this.openFolder(realRoot, segments, true);
    await folder.close();
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

  /** A file's bytes as `readBytes` gives them, or undefined when it (or a folder on its way) does not exist. */
  async readIfExists(absolute: string): Promise<Buffer | undefined> {
    try {
      return Buffer.from(await this.readBytes(absolute));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  /** Delete the file (a link is deleted, never followed) inside its folder, reached never through a link; a missing one is no error. */
  async remove(absolute: string): Promise<void> {
    const { realRoot, segments, name, shown } = await this.locateFile(absolute);
    this.checkPlace(shown);
    let folder: OpenFolder;
    try {
      folder = await this.openFolder(realRoot, segments, false);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    try {
      await rm(folder.child(name), { force: true });
      await folder.verify();
    } finally {
      await folder.close();
    }
  }

  private checkPlace(shown: string): void {
    if (this.place && !this.place.allows(shown)) throw new SandboxError(`refused to write ${shown}: ${this.place.what}`);
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

