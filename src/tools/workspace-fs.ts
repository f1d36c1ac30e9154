import { lstatSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { ConfinedIo } from '../confine/confined-io.js';
import { unifiedDiffOf, type FileChange } from './diff.js';
import { isInsideRoot } from '../util/fs.js';

/**
 * The file I/O the tools (and the operations around a run) perform, behind one port so a
 * dry run can swap the disk for an overlay. Every path is absolute — normally the real
 * location the sandbox returned. The port does not apply the sandbox's rules, but on the
 * disk every read, write, append and listing stays inside the workspace root whatever is
 * swapped in between (confined-io.ts).
 */
export type EntryKind = 'file' | 'dir' | 'symlink' | 'other';

export interface FileStat {
  kind: EntryKind;
  /** Bytes (files); 0 for directories. */
  size: number;
  mtimeMs: number;
  /** Hard links to the file (1 normally); more means its content may also live elsewhere. */
  links: number;
}

export interface DirEntry {
  name: string;
  /** `symlink` is reported for the link itself, not its target. */
  kind: EntryKind;
  size: number;
}

export interface WorkspaceFs {
  /** Reads refuse a file with more than one hard link (its content may be a denied or outside file's). */
  readText(absolute: string): Promise<string>;
  /** Bytes of a file, or just `length` bytes from `start` (for files too large to load whole). */
  readBytes(absolute: string, range?: { start: number; length: number }): Promise<Uint8Array>;
  /** Follows symlinks; `kind: 'symlink'` only for a dangling link. `undefined` when absent. */
  stat(absolute: string): Promise<FileStat | undefined>;
  /** `signal` stops a long listing (a huge folder) early, with the signal's reason. */
  list(absolute: string, signal?: AbortSignal): Promise<DirEntry[]>;
  exists(absolute: string): Promise<boolean>;
  /** Replace or create the file atomically (temp file + rename); parents are created. */
  writeText(absolute: string, content: string): Promise<void>;
  /** Append so that the file is at every moment either the old or the new whole; returns the whole new content. */
  appendText(absolute: string, content: string): Promise<string>;
}

/** The real disk, confined to the workspace root. */
export class DiskFs implements WorkspaceFs {
  private readonly io: ConfinedIo;

  constructor(root: string) {
    this.io = new ConfinedIo(root);
  }

  async readText(absolute: string): Promise<string> {
    return Buffer.from(await this.io.readBytes(absolute)).toString('utf8');
  }

  async readBytes(absolute: string, range?: { start: number; length: number }): Promise<Uint8Array> {
    return this.io.readBytes(absolute, range);
  }

  // Synchronous: a stat takes microseconds, a trip through the thread pool far more on a busy machine.
  async stat(absolute: string): Promise<FileStat | undefined> {
    try {
      const info = statSync(absolute);
      return { kind: kindOf(info), size: info.isDirectory() ? 0 : info.size, mtimeMs: info.mtimeMs, links: info.nlink };
    } catch {
      try {
        const link = lstatSync(absolute);
        return link.isSymbolicLink() ? { kind: 'symlink', size: 0, mtimeMs: link.mtimeMs, links: 1 } : undefined;
      } catch {
        return undefined;
      }
    }
  }

  async list(absolute: string, signal?: AbortSignal): Promise<DirEntry[]> {
    return this.io.list(absolute, signal);
  }

  async exists(absolute: string): Promise<boolean> {
    return (await this.stat(absolute)) !== undefined;
  }

  async writeText(absolute: string, content: string): Promise<void> {
    await this.io.write(absolute, content);
  }

  async appendText(absolute: string, content: string): Promise<string> {
    // Read + atomic replace rather than appendFile: a kill mid-append must not leave half an
    // entry, and a hard link to the file elsewhere is never written through.
    return this.io.append(absolute, content);
  }
}

function kindOf(info: { isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean }): EntryKind {
  if (info.isFile()) return 'file';
  if (info.isDirectory()) return 'dir';
  if (info.isSymbolicLink()) return 'symlink';
  return 'other';
}

/**
 * A dry run's file system: reads fall through to `base` (the disk) unless the file was
 * written here; writes and appends stay in memory. Nothing under the workspace changes.
 * Files are keyed by their workspace-relative path, so `changes()` can name them.
 */
export class OverlayFs implements WorkspaceFs {
  private readonly roots: string[];
  private readonly files = new Map<string, { before: string | undefined; after: string; mtimeMs: number }>();

  constructor(
    root: string,
    private readonly base: WorkspaceFs = new DiskFs(root),
  ) {
    const resolved = path.resolve(root);
    let real = resolved;
    try {
      real = realpathSync(resolved);
    } catch {
      // A missing root only matters once something is read; keep the resolved form.
    }
    this.roots = real === resolved ? [real] : [real, resolved];
  }

  /** Every file whose content would change, in path order, with its content before and after. */
  changes(): FileChange[] {
    return [...this.files.entries()]
      .filter(([, file]) => file.before !== file.after)
      .map(([key, file]) => ({ path: key, before: file.before, after: file.after }))
      .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  unifiedDiff(): string {
    return unifiedDiffOf(this.changes());
  }

  async readText(absolute: string): Promise<string> {
    const file = this.files.get(this.key(absolute));
    return file ? file.after : this.base.readText(absolute);
  }

  async readBytes(absolute: string, range?: { start: number; length: number }): Promise<Uint8Array> {
    const file = this.files.get(this.key(absolute));
    if (!file) return this.base.readBytes(absolute, range);
    const bytes = Buffer.from(file.after, 'utf8');
    return range ? bytes.subarray(range.start, range.start + range.length) : bytes;
  }

  async stat(absolute: string): Promise<FileStat | undefined> {
    const key = this.key(absolute);
    const file = this.files.get(key);
    if (file) return { kind: 'file', size: Buffer.byteLength(file.after, 'utf8'), mtimeMs: file.mtimeMs, links: 1 };
    const onDisk = await this.base.stat(absolute);
    if (onDisk) return onDisk;
    return this.holdsFilesUnder(key) ? { kind: 'dir', size: 0, mtimeMs: Date.now(), links: 1 } : undefined;
  }

  async list(absolute: string, signal?: AbortSignal): Promise<DirEntry[]> {
    const key = this.key(absolute);
    const byName = new Map<string, DirEntry>();
    try {
      for (const entry of await this.base.list(absolute, signal)) byName.set(entry.name, entry);
    } catch (error) {
      if (!this.holdsFilesUnder(key)) throw error;
    }
    const prefix = key === '' ? '' : `${key}/`;
    for (const [fileKey, file] of this.files) {
      if (!fileKey.startsWith(prefix)) continue;
      const [name, ...deeper] = fileKey.slice(prefix.length).split('/');
      if (!name) continue;
      if (deeper.length > 0) {
        if (!byName.has(name)) byName.set(name, { name, kind: 'dir', size: 0 });
      } else {
        byName.set(name, { name, kind: 'file', size: Buffer.byteLength(file.after, 'utf8') });
      }
    }
    return [...byName.values()];
  }

  async exists(absolute: string): Promise<boolean> {
    return (await this.stat(absolute)) !== undefined;
  }

  async writeText(absolute: string, content: string): Promise<void> {
    const before = await this.beforeImage(absolute);
    this.files.set(this.key(absolute), { before, after: content, mtimeMs: Date.now() });
  }

  async appendText(absolute: string, content: string): Promise<string> {
    const before = await this.beforeImage(absolute);
    const after = (this.files.get(this.key(absolute))?.after ?? before ?? '') + content;
    this.files.set(this.key(absolute), { before, after, mtimeMs: Date.now() });
    return after;
  }

  /** The disk content the first overlay write replaced (kept across later writes). */
  private async beforeImage(absolute: string): Promise<string | undefined> {
    const tracked = this.files.get(this.key(absolute));
    if (tracked) return tracked.before;
    const onDisk = await this.base.stat(absolute);
    if (onDisk?.kind === 'dir') {
      throw Object.assign(new Error(`EISDIR: illegal operation on a directory, write '${absolute}'`), { code: 'EISDIR' });
    }
    return onDisk?.kind === 'file' ? await this.base.readText(absolute) : undefined;
  }

  private holdsFilesUnder(key: string): boolean {
    const prefix = key === '' ? '' : `${key}/`;
    for (const fileKey of this.files.keys()) if (fileKey.startsWith(prefix)) return true;
    return false;
  }

  private key(absolute: string): string {
    const resolved = path.resolve(absolute);
    for (const root of this.roots) {
      const relative = path.relative(root, resolved);
      if (isInsideRoot(relative)) return relative.split(path.sep).join('/');
    }
    return resolved;
  }
}
