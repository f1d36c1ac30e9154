import { copyFile, lstat, mkdir, open, readFile, realpath, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import fg from 'fast-glob';
import { InputError } from '../../errors.js';
import { extractText, isExtractable } from '../../sources/extract.js';
import type { SourceLimits } from '../../sources/limits.js';
import { walkSourceTree } from '../../sources/raw-files.js';
import { assertTextFile } from '../../sources/read-window.js';
import { isSourceFile, SOURCE_EXTENSIONS, splitRawFiles } from '../../sources/source-kinds.js';
import { hashFile } from '../../state/hash.js';
import { atomicTempPath, pathExists, toPosixRelative } from '../../util/fs.js';

/** A source ready to ingest: a file under raw/, named workspace-relative. */
export interface ResolvedSource {
  rawPath: string;
  /** Set when the argument was outside raw/ and has been (or would be) copied in. */
  copiedFrom?: string;
  /** Set when the argument was a URL fetched into raw/. */
  url?: string;
}

const GLOB_CHARS = /[*?[\]{}]/;

export interface InputPlan {
  /** Files to ingest in order; raw paths are final (after copying). */
  sources: ResolvedSource[];
  /** URLs to fetch first (each becomes a raw file). */
  urls: string[];
  /** Files of a folder given that are not sources (an image, an archive…), each with why. */
  unsupported: Array<{ path: string; reason: string }>;
  /** Links to folders inside a folder argument: not followed, reported as skipped. */
  skipped: Array<{ source: string; reason: string }>;
}

/**
 * Turn `wiki ingest` arguments into an ordered list of sources. Pure planning plus stat
 * calls: nothing is copied or fetched here, so a bad argument fails before any write.
 */
export async function planInputs(root: string, args: string[], cwd: string): Promise<InputPlan> {
  if (args.length === 0) throw new InputError('no source given', 'e.g. `wiki ingest raw/paper.md` or `wiki ingest raw/`');
  const sources: ResolvedSource[] = [];
  const urls: string[] = [];
  const unsupported: InputPlan['unsupported'] = [];
  const skipped: InputPlan['skipped'] = [];
  const seen = new Set<string>();
  // Outside files planned for a raw/ name in this batch: a second file of the same name gets the next free one.
  const planned = new Map<string, string>();
  const add = (source: ResolvedSource): void => {
    if (seen.has(source.rawPath)) return;
    seen.add(source.rawPath);
    if (source.copiedFrom) planned.set(source.rawPath, source.copiedFrom);
    sources.push(source);
  };
  for (const arg of args) {
    if (/^https?:\/\//i.test(arg)) {
      urls.push(arg);
      continue;
    }
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(arg)) {
      throw new InputError(`${arg}: only http and https URLs can be fetched`);
    }
    const absolute = path.resolve(cwd, arg);
    if (GLOB_CHARS.test(arg) && !(await pathExists(absolute))) {
      // Links to folders are not followed: one leading back up would make the walk endless.
      const matches = (await fg(arg, { cwd, onlyFiles: true, dot: false, absolute: true, followSymbolicLinks: false })).sort();
      const usable = matches.filter(isSourceFile);
      if (usable.length === 0) {
        throw new InputError(`${arg}: the pattern matches no source files`, `supported: ${SOURCE_EXTENSIONS.join(' ')}`);
      }
      for (const file of usable) add(await resolveFile(root, file, planned));
      continue;
    }
    let info;
    try {
      info = await stat(absolute);
    } catch {
      throw new InputError(`${arg}: no such file`, 'check the path (it is relative to the current folder)');
    }
    if (info.isDirectory()) {
      const tree = await walkSourceTree(absolute);
      for (const folder of tree.linkedFolders) {
        skipped.push({ source: toPosixRelative(cwd, folder), reason: `${toPosixRelative(cwd, folder)} is a link to a folder; links to folders are not followed (one may lead back up and never end). Move or copy the files in instead` });
      }
      const split = splitRawFiles(tree.files.map((file) => toPosixRelative(root, file)));
      const files = tree.files.filter((file) => split.sources.includes(toPosixRelative(root, file)));
      for (const file of split.unsupported) if (!unsupported.some((u) => u.path === file.path)) unsupported.push(file);
      if (files.length === 0 && tree.linkedFolders.length === 0) {
        const notSources = split.unsupported.length ? ` (skipped: ${split.unsupported.map((u) => u.path).join(', ')})` : '';
        throw new InputError(`${arg} is a folder with no source files in it${notSources}`, `supported: ${SOURCE_EXTENSIONS.join(' ')}`);
      }
      for (const file of files) add(await resolveFile(root, file, planned));
      continue;
    }
    if (!info.isFile()) throw new InputError(`${arg} is not a regular file`);
    add(await resolveFile(root, absolute, planned));
  }
  return { sources, urls, unsupported, skipped };
}

/** A file under raw/ is used in place; anything else is planned to be copied into raw/. */
async function resolveFile(root: string, absolute: string, planned: ReadonlyMap<string, string>): Promise<ResolvedSource> {
  const relative = toPosixRelative(root, absolute);
  if (relative.startsWith('raw/') && !relative.includes('..')) return { rawPath: relative };
  if (!relative.startsWith('..') && (relative.startsWith('wiki/') || relative.startsWith('.wiki/'))) {
    throw new InputError(`${relative}: sources come from raw/ or outside the workspace, not from ${relative.split('/')[0]}/`);
  }
  const target = await freeRawName(root, path.basename(absolute), absolute, planned);
  return { rawPath: target, copiedFrom: absolute };
}

/** raw/<name>, or raw/<name>-2… when a different file already has that name. */
async function freeRawName(root: string, base: string, source: string, planned: ReadonlyMap<string, string>): Promise<string> {
  const ext = path.extname(base);
  const stem = base.slice(0, base.length - ext.length);
  const size = (await stat(source)).size;
  let sourceHash: string | undefined;
  for (let n = 1; n < 1000; n++) {
    const name = n === 1 ? base : `${stem}-${n}${ext}`;
    const candidate = path.join(root, 'raw', name);
    const plannedFrom = planned.get(`raw/${name}`);
    if (plannedFrom !== undefined) {
      if (plannedFrom === source || (await hashFile(plannedFrom)) === (sourceHash ??= await hashFile(source))) return `raw/${name}`;
      continue;
    }
    const existing = await stat(candidate).catch(() => undefined);
    if (!existing) return `raw/${name}`;
    // Same content already there (compared by streamed hash: sources may be huge).
    if (existing.isFile() && existing.size === size && (await hashFile(candidate)) === (sourceHash ??= await hashFile(source))) return `raw/${name}`;
  }
  throw new InputError(`${base}: too many files named like it in raw/`);
}

/**
 * Copy the planned outside files into raw/ (skipped when identical content is there). Each
 * copy goes to a temp file renamed into place, so a killed run never leaves half a source
 * in raw/ for a later `wiki ingest raw/` to take for a whole one.
 */
export async function copyIntoRaw(root: string, sources: ResolvedSource[]): Promise<void> {
  for (const source of sources) {
    if (!source.copiedFrom) continue;
    const target = path.join(root, source.rawPath);
    if (await pathExists(target)) continue;
    await mkdir(path.dirname(target), { recursive: true });
    const temp = atomicTempPath(target);
    try {
      await copyFile(source.copiedFrom, temp);
      await rename(temp, target);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }
}

/** What a source's size means for its run: the read windows, the turns, the facts limit. */
export interface SizeLimits {
  /** Characters read_file gives a window by default. */
  windowChars: number;
  maxTurns: number;
  /** facts.maxSourceBytes: larger sources get no facts. */
  maxFactBytes: number;
}

/** Windows past which a source is worth a warning before its run starts. */
const MANY_WINDOWS = 20;

/**
 * The warning a large source starts with: about how many windows it takes and how many
 * turns at the least (one read each, and the answer), whether the turn limit is below that,
 * and whether its facts are skipped for size. Undefined for a source of ordinary size.
 */
export async function sizeWarning(root: string, source: ResolvedSource, limits: SizeLimits): Promise<string | undefined> {
  const bytes = (await stat(source.copiedFrom ?? path.join(root, source.rawPath))).size;
  // Text is about one character a byte; PDF and HTML hold less text than bytes, so this is an upper bound.
  const windows = Math.ceil(bytes / limits.windowChars);
  const turns = windows + 1;
  const parts: string[] = [];
  if (windows >= MANY_WINDOWS || turns > limits.maxTurns) {
    const limit = turns > limits.maxTurns ? ` — above the turn limit (${limits.maxTurns}): raise it with --max-turns ${turns + 10}, or split the source` : '';
    parts.push(`it will need about ${windows} read windows and ${turns} turns at least${limit}`);
  }
  if (bytes > limits.maxFactBytes) {
    parts.push(`its facts are skipped for size (over facts.maxSourceBytes, ${formatMegabytes(limits.maxFactBytes)}), so grounding and \`wiki facts\` will not cover it`);
  }
  return parts.length === 0 ? undefined : `${source.rawPath} is ${formatMegabytes(bytes)}: ${parts.join('; ')}`;
}

function formatMegabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** Refuse unreadable sources before anything is written (missing, empty, binary). */
export async function checkReadable(root: string, source: ResolvedSource, limits?: SourceLimits): Promise<string[]> {
  const file = source.copiedFrom ?? path.join(root, source.rawPath);
  if (!source.copiedFrom && (await lstat(file)).isSymbolicLink()) {
    const target = await realpath(file).catch(() => undefined);
    const inside = target !== undefined && !path.relative(await realpath(root), target).startsWith('..');
    if (!inside) throw new InputError(`${source.rawPath} is a symbolic link to ${target === undefined ? 'nothing' : 'a file outside the workspace'}`, 'copy the file itself into raw/');
  }
  if (isExtractable(source.rawPath)) {
    return (await extractText(source.rawPath, await readFile(file), limits)).warnings;
  }
  await assertTextFile(file, source.copiedFrom ?? source.rawPath);
  const head = await readHead(file, CHECKED_HEAD_BYTES);
  const { warnings } = await extractText(source.rawPath, head).catch(() => ({ warnings: [] as string[] }));
  return warnings;
}

/** How much of a plain-text source is decoded up front; the model reads the rest by windows. */
const CHECKED_HEAD_BYTES = 1 << 20;

/** The first `maxBytes` of a file without loading the rest, never ending inside a UTF-8 character. */
export async function readHead(file: string, maxBytes: number): Promise<Uint8Array> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(maxBytes);
    const { bytesRead } = await handle.read(buffer, 0, maxBytes, 0);
    const head = buffer.subarray(0, bytesRead);
    return bytesRead < (await handle.stat()).size ? withoutCutCharacter(head) : head;
  } finally {
    await handle.close();
  }
}

/** Drop a UTF-8 sequence cut off at the end, so a head of valid text decodes as valid. */
function withoutCutCharacter(bytes: Uint8Array): Uint8Array {
  for (let back = 1; back <= Math.min(4, bytes.length); back++) {
    const byte = bytes[bytes.length - back] ?? 0;
    if ((byte & 0xc0) === 0x80) continue;
    const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return needed > back ? bytes.subarray(0, bytes.length - back) : bytes;
  }
  return bytes;
}
