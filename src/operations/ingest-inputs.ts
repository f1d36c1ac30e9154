import { copyFile, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import fg from 'fast-glob';
import { InputError } from '../errors.js';
import { pathExists, toPosixRelative } from '../util/fs.js';

/** A source ready to ingest: a file under raw/, named workspace-relative. */
export interface ResolvedSource {
  rawPath: string;
  /** Set when the argument was outside raw/ and has been (or would be) copied in. */
  copiedFrom?: string;
  /** Set when the argument was a URL fetched into raw/. */
  url?: string;
}

export const SOURCE_EXTENSIONS = ['.md', '.markdown', '.txt', '.text', '.pdf', '.html', '.htm', '.rst', '.org', '.csv', '.json', '.tex'];

const GLOB_CHARS = /[*?[\]{}]/;

export interface InputPlan {
  /** Files to ingest in order; raw paths are final (after copying). */
  sources: ResolvedSource[];
  /** URLs to fetch first (each becomes a raw file). */
  urls: string[];
}

/**
 * Turn `wiki ingest` arguments into an ordered list of sources. Pure planning plus stat
 * calls: nothing is copied or fetched here, so a bad argument fails before any write.
 */
export async function planInputs(root: string, args: string[], cwd: string): Promise<InputPlan> {
  if (args.length === 0) throw new InputError('no source given', 'e.g. `wiki ingest raw/paper.md` or `wiki ingest raw/`');
  const sources: ResolvedSource[] = [];
  const urls: string[] = [];
  const seen = new Set<string>();
  const add = (source: ResolvedSource): void => {
    if (seen.has(source.rawPath)) return;
    seen.add(source.rawPath);
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
      const matches = (await fg(arg, { cwd, onlyFiles: true, dot: false, absolute: true })).sort();
      const usable = matches.filter(isSourceFile);
      if (usable.length === 0) {
        throw new InputError(`${arg}: the pattern matches no source files`, `supported: ${SOURCE_EXTENSIONS.join(' ')}`);
      }
      for (const file of usable) add(await resolveFile(root, file));
      continue;
    }
    let info;
    try {
      info = await stat(absolute);
    } catch {
      throw new InputError(`${arg}: no such file`, 'check the path (it is relative to the current folder)');
    }
    if (info.isDirectory()) {
      const files = (await fg('**/*', { cwd: absolute, onlyFiles: true, dot: false, absolute: true }))
        .filter(isSourceFile)
        .filter((file) => !toPosixRelative(root, file).startsWith('raw/assets/'))
        .sort();
      if (files.length === 0) {
        throw new InputError(`${arg} is a folder with no source files in it`, `supported: ${SOURCE_EXTENSIONS.join(' ')}`);
      }
      for (const file of files) add(await resolveFile(root, file));
      continue;
    }
    if (!info.isFile()) throw new InputError(`${arg} is not a regular file`);
    add(await resolveFile(root, absolute));
  }
  return { sources, urls };
}

function isSourceFile(file: string): boolean {
  return SOURCE_EXTENSIONS.includes(path.extname(file).toLowerCase());
}

/** A file under raw/ is used in place; anything else is planned to be copied into raw/. */
async function resolveFile(root: string, absolute: string): Promise<ResolvedSource> {
  const relative = toPosixRelative(root, absolute);
  if (relative.startsWith('raw/') && !relative.includes('..')) return { rawPath: relative };
  if (!relative.startsWith('..') && (relative.startsWith('wiki/') || relative.startsWith('.wiki/'))) {
    throw new InputError(`${relative}: sources come from raw/ or outside the workspace, not from ${relative.split('/')[0]}/`);
  }
  const target = await freeRawName(root, path.basename(absolute), absolute);
  return { rawPath: target, copiedFrom: absolute };
}

/** raw/<name>, or raw/<name>-2… when a different file already has that name. */
async function freeRawName(root: string, base: string, source: string): Promise<string> {
  const ext = path.extname(base);
  const stem = base.slice(0, base.length - ext.length);
  const content = await readFile(source);
  for (let n = 1; n < 1000; n++) {
    const name = n === 1 ? base : `${stem}-${n}${ext}`;
    const candidate = path.join(root, 'raw', name);
    if (!(await pathExists(candidate))) return `raw/${name}`;
    if ((await readFile(candidate)).equals(content)) return `raw/${name}`;
  }
  throw new InputError(`${base}: too many files named like it in raw/`);
}

/** Copy the planned outside files into raw/ (skipped when identical content is there). */
export async function copyIntoRaw(root: string, sources: ResolvedSource[]): Promise<void> {
  for (const source of sources) {
    if (!source.copiedFrom) continue;
    const target = path.join(root, source.rawPath);
    if (await pathExists(target)) continue;
    await copyFile(source.copiedFrom, target);
  }
}
