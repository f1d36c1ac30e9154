import { ConfigError } from '../errors.js';
import { isValidRunId } from './history.js';
import { checkRelativePath } from './paths.js';

/**
 * The committed record of what was ingested (`wiki.sources.jsonl` at the workspace root):
 * one JSON line per source, sorted by path, so that git merges two people's ingests of
 * different sources line by line (and `.gitattributes` unions it: see operations/workspace/init.ts).
 * It holds only what travels between clones — path, sha256, size, when and by which run,
 * the pages produced — never a machine's file times (those stay in `.wiki/`).
 *
 * Read strictly: the stale marks and undo act on the paths it names, and a clone takes it
 * from whoever pushed. Every line is checked; a source path must lie under raw/, a page
 * path must be a markdown page under wiki/, and a left-over merge conflict is named.
 */
export interface RecordedSource {
  sha256: string;
  size: number;
  /** ISO timestamp. */
  ingestedAt: string;
  runId: string;
  pages: { created: string[]; updated: string[] };
  /**
   * The sha256 of a later version of the source whose lines the pages' citations number
   * since `wiki lint --fix` moved them without a model; absent when they number the ingested
   * version's. The source itself is not ingested thereby: its new lines wait for a model.
   */
  followed?: string;
}

const FIELDS = ['path', 'sha256', 'size', 'ingestedAt', 'runId', 'created', 'updated', 'followed'] as const;
const SHA256 = /^[0-9a-f]{64}$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;
const CONFLICT_MARKER = /^(<{7}|={7}|>{7}|\|{7})( |$)/;
const MAX_PATH = 1024;

export function serialiseSourceRecord(sources: Record<string, RecordedSource>): string {
  return Object.keys(sources)
    .sort()
    .map((source) => {
      const entry = sources[source] as RecordedSource;
      return `${JSON.stringify({
        path: source,
        sha256: entry.sha256,
        size: entry.size,
        ingestedAt: entry.ingestedAt,
        runId: entry.runId,
        created: entry.pages.created,
        updated: entry.pages.updated,
        ...(entry.followed === undefined ? {} : { followed: entry.followed }),
      })}\n`;
    })
    .join('');
}

/**
 * The sources a record names. Lines may come in any order and a source may appear twice
 * (git's union merge of two clones that both ingested it): the latest ingest wins and the
 * pages of both are kept, so stale marks reach every page either clone produced.
 */
export function parseSourceRecord(text: string, label: string): Record<string, RecordedSource> {
  const sources = new Map<string, RecordedSource>();
  const lines = text.split('\n');
  lines.forEach((raw, i) => {
    const line = raw.replace(/\r$/, '');
    if (line.trim() === '') return;
    const where = `${label} line ${i + 1}`;
    if (CONFLICT_MARKER.test(line)) {
      throw new ConfigError(`${where}: an unresolved merge conflict`, `keep every source's line, remove the conflict markers, and run \`wiki status\``);
    }
    const { path, entry } = parseLine(line, where);
    const earlier = sources.get(path);
    sources.set(path, earlier ? laterOf(earlier, entry) : entry);
  });
  return Object.fromEntries([...sources].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function parseLine(line: string, where: string): { path: string; entry: RecordedSource } {
  const fail = (why: string): never => {
    throw new ConfigError(`${where}: ${why}`, 'fix or remove that line (a removed source is ingested again by the next `wiki ingest`)');
  };
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return fail('not a JSON object');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail('not a JSON object');
  const record = value as Record<string, unknown>;
  const unknown = Object.keys(record).find((key) => !(FIELDS as readonly string[]).includes(key));
  if (unknown !== undefined) fail(`unknown field "${unknown.slice(0, 40)}"`);
  const source = record.path;
  if (typeof source !== 'string' || !isPathUnder(source, 'raw/')) fail('"path" must be a source path under raw/');
  if (typeof record.sha256 !== 'string' || !SHA256.test(record.sha256)) fail('"sha256" must be a sha256 in hex');
  if (typeof record.size !== 'number' || !Number.isSafeInteger(record.size) || record.size < 0) fail('"size" must be a whole number of bytes');
  if (typeof record.ingestedAt !== 'string' || !ISO_TIME.test(record.ingestedAt) || Number.isNaN(Date.parse(record.ingestedAt))) {
    fail('"ingestedAt" must be an ISO time such as 2026-11-28T10:00:00.000Z');
  }
  if (typeof record.runId !== 'string' || !isValidRunId(record.runId)) fail('"runId" must be a run id');
  if (record.followed !== undefined && (typeof record.followed !== 'string' || !SHA256.test(record.followed))) fail('"followed" must be a sha256 in hex');
  const pages = (field: 'created' | 'updated'): string[] => {
    const list = record[field];
    if (!Array.isArray(list) || !list.every((page): page is string => typeof page === 'string' && isWikiPagePath(page))) {
      return fail(`"${field}" must list markdown pages under wiki/`);
    }
    return uniqueSorted(list);
  };
  return {
    path: source as string,
    entry: {
      sha256: record.sha256 as string,
      size: record.size as number,
      ingestedAt: record.ingestedAt as string,
      runId: record.runId as string,
      pages: { created: pages('created'), updated: pages('updated') },
      // Citations that follow the ingested version itself need no mark.
      ...(record.followed === undefined || record.followed === record.sha256 ? {} : { followed: record.followed as string }),
    },
  };
}

function laterOf(a: RecordedSource, b: RecordedSource): RecordedSource {
  const later = a.ingestedAt > b.ingestedAt || (a.ingestedAt === b.ingestedAt && a.runId >= b.runId) ? a : b;
  return {
    ...later,
    pages: {
      created: uniqueSorted([...a.pages.created, ...b.pages.created]),
      updated: uniqueSorted([...a.pages.updated, ...b.pages.updated]),
    },
  };
}

/** A clean workspace-relative path under `folder` (no `..`, no empty or `.` parts, no control characters). */
export function isPathUnder(relPath: string, folder: string): boolean {
  if (relPath.length > MAX_PATH || /[\u0000-\u001f\u007f]/.test(relPath) || relPath.includes('\\')) return false;
  try {
    checkRelativePath(relPath);
  } catch {
    return false;
  }
  return relPath.startsWith(folder) && relPath.length > folder.length;
}

/** A markdown page path under wiki/. */
export function isWikiPagePath(relPath: string): boolean {
  return isPathUnder(relPath, 'wiki/') && relPath.endsWith('.md') && !relPath.split('/').some((part) => part.startsWith('.'));
}

function uniqueSorted(values: readonly string[]): string[] {
  return [...new Set(values)].sort();
}
