import { mkdir, rename } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { SandboxError } from '../errors.js';
import { ensureMergeAttributes } from '../git/attributes.js';
import { ConfinedIo } from '../confine/confined-io.js';
import { inPageFolder, type Contract } from '../wiki/contract.js';
import type { FileStamp } from '../util/file-stamp.js';
import { writeFileAtomic } from '../util/fs.js';
import { stateDir } from '../wiki/workspace.js';
import { recordAfter, recordBefore, type Run } from './history.js';
import { parseStateJson, readStateJson } from './json-file.js';
import { checkRelativePath, resolveInRoot } from './paths.js';
import { parseSourceRecord, serialiseSourceRecord, type RecordedSource } from './source-record.js';

export { hashFile } from './hash.js';
export { markStale, type MarkStaleResult } from './stale.js';

/**
 * What was ingested from each raw source, so an unchanged source is not sent to the model
 * again and a changed or deleted one can mark its pages stale. Its source of truth is the
 * committed record `wiki.sources.jsonl` (state/source-record.ts), which travels with the
 * wiki through git; the stamps `wiki status` trusts instead of hashing are this machine's
 * and stay in `.wiki/cache/source-stamps.json`.
 */
export const MANIFEST_PATH = 'wiki.sources.jsonl';
/** Where the manifest lived before it was committed; migrated on first use. */
export const LEGACY_MANIFEST_PATH = '.wiki/sources.json';
const STAMPS_FILE = 'cache/source-stamps.json';

export interface SourceEntry {
  sha256: string;
  size: number;
  /**
   * The file's modification time when `sha256` was recorded, and when its hashing began
   * (ms since epoch): with `size`, the stamp `wiki status` trusts instead of hashing again
   * (util/file-stamp.ts). Absent in manifests written before stamps were kept.
   */
  mtimeMs?: number;
  seenAt?: number;
  /** ISO timestamp. */
  ingestedAt: string;
  runId: string;
  /** Content pages the ingest created or updated (not index.md or log.md). */
  pages: { created: string[]; updated: string[] };
  /** A later version whose lines the citations number since `wiki lint --fix` moved them (state/source-record.ts). */
  followed?: string;
}

export interface Manifest {
  version: 1;
  /** Keyed by workspace-relative source path, e.g. `raw/paper.md`. */
  sources: Record<string, SourceEntry>;
}

export type SourceState = 'new' | 'changed' | 'unchanged';

const entrySchema = z.object({
  sha256: z.string().regex(/^[0-9a-f]{64}$/, 'must be a sha256 in hex'),
  size: z.number().int().nonnegative(),
  mtimeMs: z.number().optional(),
  seenAt: z.number().optional(),
  ingestedAt: z.string(),
  runId: z.string(),
  pages: z.object({ created: z.array(z.string()), updated: z.array(z.string()) }),
  followed: z.string().optional(),
});
const manifestSchema = z.object({ version: z.literal(1), sources: z.record(z.string(), entrySchema) });

export function emptyManifest(): Manifest {
  return { version: 1, sources: {} };
}

/**
 * The manifest: the committed record with this machine's stamps. A workspace from before
 * the record (only `.wiki/sources.json`) is migrated: the record is written from it and the
 * old file renamed to `.wiki/sources.json.migrated` (unless `migrate` is false: a dry run).
 */
export async function loadManifest(root: string, options: { migrate?: boolean } = {}): Promise<Manifest> {
  const text = await readRecordText(root);
  if (text !== undefined) return withStamps(parseSourceRecord(text, MANIFEST_PATH), await loadStamps(root));
  const legacyText = await readInPlace(root, LEGACY_MANIFEST_PATH, 'delete it to re-ingest every source from scratch');
  if (legacyText === undefined) return emptyManifest();
  const legacy = parseStateJson(legacyText, manifestSchema, LEGACY_MANIFEST_PATH, 'delete it to re-ingest every source from scratch');
  // Checked as strictly as the record: what is migrated must read back.
  const migrated = parseSourceRecord(serialiseSourceRecord(legacy.sources), LEGACY_MANIFEST_PATH);
  if (options.migrate !== false) {
    // First: a .gitattributes that is a link is refused before the record is written or the old file moved.
    await ensureMergeAttributes(root);
    await saveManifest(root, legacy);
    await rename(path.join(root, LEGACY_MANIFEST_PATH), path.join(root, `${LEGACY_MANIFEST_PATH}.migrated`));
  }
  return withStamps(migrated, stampsOf(legacy));
}

/**
 * Write the manifest: the record atomically (with a run, its before-image is kept too, so
 * undoing an ingest also forgets that the source was ingested), then the local stamps.
 */
export async function saveManifest(root: string, manifest: Manifest, run?: Run): Promise<void> {
  const recorded: Record<string, RecordedSource> = {};
  for (const [source, entry] of Object.entries(manifest.sources)) {
    recorded[checkRelativePath(source)] = {
      sha256: entry.sha256,
      size: entry.size,
      ingestedAt: entry.ingestedAt,
      runId: entry.runId,
      pages: entry.pages,
      ...(entry.followed === undefined || entry.followed === entry.sha256 ? {} : { followed: entry.followed }),
    };
  }
  const text = serialiseSourceRecord(recorded);
  // Never write what the strict reader would refuse next time (a source outside raw/, say).
  parseSourceRecord(text, MANIFEST_PATH);
  const io = new ConfinedIo(root);
  const target = resolveInRoot(root, MANIFEST_PATH);
  if (run) await recordBefore(run, MANIFEST_PATH, await io.readIfExists(target));
  await io.write(target, text);
  if (run) await recordAfter(run, MANIFEST_PATH, text);
  await saveStamps(root, stampsOf(manifest)).catch(() => undefined);
}

/** The record's text; undefined when there is none. Read in place, never through a link. */
function readRecordText(root: string): Promise<string | undefined> {
  return readInPlace(root, MANIFEST_PATH, 'make it a regular file in the workspace (e.g. `git checkout -- wiki.sources.jsonl`)');
}

/** A regular file's text inside the workspace, never read through a link (SandboxError naming `relative`); undefined when missing. */
async function readInPlace(root: string, relative: string, fix: string): Promise<string | undefined> {
  try {
    return (await new ConfinedIo(root).readIfExists(resolveInRoot(root, relative)))?.toString('utf8');
  } catch (error) {
    if (error instanceof SandboxError) throw new SandboxError(`${relative}: ${error.message}`, fix);
    throw error;
  }
}

interface SourceStamp {
  sha256: string;
  size: number;
  mtimeMs: number;
  seenAt: number;
}

const stampsSchema = z.object({
  version: z.literal(1),
  stamps: z.record(z.string(), z.object({ sha256: z.string(), size: z.number(), mtimeMs: z.number(), seenAt: z.number() })),
});

/** This machine's stamps; a cache, so anything unreadable is no stamps at all. */
async function loadStamps(root: string): Promise<Record<string, SourceStamp>> {
  try {
    return (await readStateJson(path.join(stateDir(root), STAMPS_FILE), stampsSchema, STAMPS_FILE, ''))?.stamps ?? {};
  } catch {
    return {};
  }
}

async function saveStamps(root: string, stamps: Record<string, SourceStamp>): Promise<void> {
  await mkdir(path.join(stateDir(root), 'cache'), { recursive: true });
  await writeFileAtomic(path.join(stateDir(root), STAMPS_FILE), `${JSON.stringify({ version: 1, stamps })}\n`);
}

function stampsOf(manifest: Manifest): Record<string, SourceStamp> {
  const stamps: Record<string, SourceStamp> = {};
  for (const [source, entry] of Object.entries(manifest.sources)) {
    if (entry.mtimeMs !== undefined && entry.seenAt !== undefined) stamps[source] = { sha256: entry.sha256, size: entry.size, mtimeMs: entry.mtimeMs, seenAt: entry.seenAt };
  }
  return stamps;
}

/** The record's entries, each with its stamp when the stamp was taken of the same content. */
function withStamps(sources: Record<string, RecordedSource>, stamps: Record<string, SourceStamp>): Manifest {
  const entries: Record<string, SourceEntry> = {};
  for (const [source, entry] of Object.entries(sources)) {
    const stamp = stamps[source];
    entries[source] = stamp && stamp.sha256 === entry.sha256 && stamp.size === entry.size ? { ...entry, mtimeMs: stamp.mtimeMs, seenAt: stamp.seenAt } : entry;
  }
  return { version: 1, sources: entries };
}

/** The change-detector stamp of a source's entry, undefined when the entry has none. */
export function entryStamp(entry: SourceEntry): FileStamp | undefined {
  return entry.mtimeMs === undefined || entry.seenAt === undefined ? undefined : { size: entry.size, mtimeMs: entry.mtimeMs, seenAt: entry.seenAt };
}

export function classifySource(manifest: Manifest, relPath: string, sha256: string): SourceState {
  const entry = manifest.sources[relPath];
  if (!entry) return 'new';
  return entry.sha256 === sha256 ? 'unchanged' : 'changed';
}

/** A new manifest with `relPath`'s entry set (replacing any earlier one). */
export function recordIngest(manifest: Manifest, relPath: string, entry: SourceEntry): Manifest {
  const clean = checkRelativePath(relPath);
  const pages = { created: uniqueSorted(entry.pages.created), updated: uniqueSorted(entry.pages.updated) };
  return { version: 1, sources: { ...manifest.sources, [clean]: { ...entry, pages } } };
}

/** A new manifest without `relPath` (after its deletion has been dealt with). */
export function forgetSource(manifest: Manifest, relPath: string): Manifest {
  const sources = { ...manifest.sources };
  delete sources[relPath];
  return { version: 1, sources };
}

/** Sources the manifest knows that no longer exist, sorted. */
export function deletedSources(manifest: Manifest, existingRawPaths: readonly string[]): string[] {
  const existing = new Set(existingRawPaths);
  return Object.keys(manifest.sources)
    .filter((source) => !existing.has(source))
    .sort();
}

/**
 * Pages that draw on a changed or deleted source and were not rewritten by this run: the
 * pages its last ingest created or updated plus those citing it, minus `rewrittenPaths`.
 */
export function pagesToMarkStale(
  manifest: Manifest,
  relPath: string,
  rewrittenPaths: readonly string[],
  pagesCitingSource: readonly string[],
  contract: Contract,
): string[] {
  const entry = manifest.sources[relPath];
  const rewritten = new Set(rewrittenPaths);
  // The record is committed and may be crafted: of the pages it names, only page files of a
  // page folder are a source's (never log.md, index.md or a hub spoke; lint reports the rest).
  const produced = [...(entry?.pages.created ?? []), ...(entry?.pages.updated ?? [])].filter((page) => inPageFolder(contract, page));
  const candidates = [...produced, ...pagesCitingSource];
  return uniqueSorted(candidates.filter((page) => !rewritten.has(page)));
}

function uniqueSorted(values: readonly string[]): string[] {
  return [...new Set(values)].sort();
}
