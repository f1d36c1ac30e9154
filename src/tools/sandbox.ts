import { realpathSync } from 'node:fs';
import { lstat, readlink } from 'node:fs/promises';
import path from 'node:path';
import { SandboxError } from '../errors.js';
import { deniedPathReason, normalizeWorkspacePath } from '../confine/paths.js';
import { isInsideRoot } from '../util/fs.js';

/**
 * Where the model may read and write. Reads: anywhere inside the workspace root except
 * machine state (.wiki/), version control (.git/), secrets (.env*) and node_modules/.
 * Writes: only files under wiki/. Every check is made twice: on the path as written, and on
 * the real location it leads to on disk (symlinks followed, also dangling ones), so a link
 * can neither leave the root nor reach a read-only or forbidden place inside it.
 *
 * Always consults the real disk, even in a dry run: the overlay only ever holds files the
 * sandbox already allowed.
 */

export type AccessMode = 'read' | 'write';

export interface SandboxPath {
  /** Canonical workspace-relative form of the requested path (`''` for the root). */
  relative: string;
  /** Absolute real location on disk (symlinks resolved); where I/O must happen. */
  absolute: string;
  /** Workspace-relative form of `absolute`; differs from `relative` only through symlinks. */
  real: string;
}

const MAX_LINK_HOPS = 40;
const WRITE_ROOT = 'wiki';

export async function resolveForRead(root: string, requested: string, deny: readonly string[] = []): Promise<string> {
  return (await resolveInSandbox(root, requested, 'read', deny)).absolute;
}

export async function resolveForWrite(root: string, requested: string, deny: readonly string[] = []): Promise<string> {
  return (await resolveInSandbox(root, requested, 'write', deny)).absolute;
}

/** `deny`: the user's extra sandbox.deny patterns (wiki.config.json), on top of the built-in list. */
export async function resolveInSandbox(root: string, requested: string, mode: AccessMode, deny: readonly string[] = []): Promise<SandboxPath> {
  const relative = normalizeWorkspacePath(requested);
  const segments = relative === '' ? [] : relative.split('/');
  checkSegments(relative, segments, mode, deny);
  if (mode === 'write') checkWritablePlace(relative, segments);

  const realRoot = await realRootOf(root);
  const absolute = await realLocation(path.join(realRoot, ...segments), 0, relative);
  const realRelative = path.relative(realRoot, absolute);
  if (!isInsideRoot(realRelative)) {
    throw new SandboxError(
      `${relative} leads outside the workspace through a symbolic link; only files inside the workspace root can be used`,
    );
  }
  const realSegments = realRelative === '' ? [] : realRelative.split(path.sep);
  try {
    checkSegments(relative, realSegments, mode, deny);
    if (mode === 'write') checkWritablePlace(realSegments.join('/'), realSegments);
  } catch (error) {
    if (!(error instanceof SandboxError)) throw error;
    throw new SandboxError(`${relative} leads through a symbolic link to ${realSegments.join('/')}: ${error.message}`);
  }
  return { relative, absolute, real: realSegments.join('/') };
}

/**
 * The C library's realpath, called synchronously: it takes microseconds, where a trip
 * through the thread pool costs a good part of a millisecond on a busy machine.
 */
function realpathOf(absolute: string): string {
  return realpathSync.native(absolute);
}

async function realRootOf(root: string): Promise<string> {
  try {
    return realpathOf(path.resolve(root));
  } catch {
    throw new SandboxError(`the workspace root ${root} does not exist`);
  }
}

function checkSegments(relative: string, segments: string[], mode: AccessMode, deny: readonly string[]): void {
  const reason = deniedPathReason(segments.join('/'), deny);
  if (reason) throw new SandboxError(`cannot ${mode} ${relative}: ${reason}`);
}

function checkWritablePlace(relative: string, segments: string[]): void {
  const [first, ...rest] = segments;
  if (first !== WRITE_ROOT || rest.length === 0) {
    const why =
      first === 'raw'
        ? 'raw/ holds the sources and is read-only'
        : relative === 'schema.md'
          ? 'schema.md is read-only to the model; only the wiki’s owners edit it'
          : first === WRITE_ROOT
            ? 'give a file inside wiki/, not the folder itself'
            : `${relative || 'the workspace root'} is read-only`;
    throw new SandboxError(`cannot write ${relative || '.'}: ${why}. Writes are allowed only under wiki/, e.g. wiki/concepts/attention.md`);
  }
  const hidden = rest.find((segment) => segment.startsWith('.'));
  if (hidden) {
    throw new SandboxError(`cannot write ${relative}: hidden files and folders (${hidden}) under wiki/ belong to other tools; write pages like wiki/concepts/attention.md`);
  }
}

/**
 * The real location `absolute` refers to. Unlike fs.realpath this also works when the path,
 * or the target of a (dangling) link on the way, does not exist yet: the nearest existing
 * ancestor is resolved and the missing tail appended, following links it finds.
 */
async function realLocation(absolute: string, hops: number, shown: string): Promise<string> {
  try {
    return realpathOf(absolute);
  } catch (error) {
    if (!isMissingOrLoop(error)) throw error;
  }
  const parent = path.dirname(absolute);
  if (parent === absolute) return absolute;
  const realParent = await realLocation(parent, hops, shown);
  const candidate = path.join(realParent, path.basename(absolute));
  let isLink = false;
  try {
    isLink = (await lstat(candidate)).isSymbolicLink();
  } catch {
    return candidate;
  }
  if (!isLink) return candidate;
  if (hops >= MAX_LINK_HOPS) throw new SandboxError(`${shown}: too many levels of symbolic links`);
  let target: string;
  try {
    target = await readlink(candidate);
  } catch (error) {
    // Swapped back to a file or removed since the lstat: resolve that entry afresh.
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EINVAL' && code !== 'ENOENT') throw error;
    return realLocation(candidate, hops + 1, shown);
  }
  return realLocation(path.resolve(realParent, target), hops + 1, shown);
}

function isMissingOrLoop(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP';
}
