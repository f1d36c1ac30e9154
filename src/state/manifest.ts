import path from 'node:path';
import { z } from 'zod';
import type { FileStamp } from '../util/file-stamp.js';
import { readTextIfExists, writeFileAtomic } from '../util/fs.js';
import { stateDir } from '../wiki/workspace.js';
import { recordAfter, recordBefore, type Run } from './history.js';
import { readStateJson } from './json-file.js';
import { checkRelativePath, resolveInRoot } from './paths.js';

export { hashFile } from './hash.js';
export { markStale, type MarkStaleResult } from './stale.js';

/**
 * `.wiki/sources.json`: what was ingested from each raw source, so an unchanged source is
 * not sent to the model again and a changed or deleted one can mark its pages stale.
 */
export const MANIFEST_PATH = '.wiki/sources.json';

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
});
const manifestSchema = z.object({ version: z.literal(1), sources: z.record(z.string(), entrySchema) });

export function emptyManifest(): Manifest {
  return { version: 1, sources: {} };
}

export async function loadManifest(root: string): Promise<Manifest> {
  const value = await readStateJson(
    manifestFile(root),
    manifestSchema,
    MANIFEST_PATH,
    'delete it to re-ingest every source from scratch',
  );
  return value ?? emptyManifest();
}

/**
 * Write the manifest atomically. With a run, its before-image is kept too, so undoing an
 * ingest also forgets that the source was ingested.
 */
export async function saveManifest(root: string, manifest: Manifest, run?: Run): Promise<void> {
  const text = `${JSON.stringify(sortedManifest(manifest), null, 2)}\n`;
  if (run) await recordBefore(run, MANIFEST_PATH, await readTextIfExists(resolveInRoot(root, MANIFEST_PATH)));
  await writeFileAtomic(manifestFile(root), text);
  if (run) await recordAfter(run, MANIFEST_PATH, text);
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
): string[] {
  const entry = manifest.sources[relPath];
  const rewritten = new Set(rewrittenPaths);
  const candidates = [...(entry?.pages.created ?? []), ...(entry?.pages.updated ?? []), ...pagesCitingSource];
  return uniqueSorted(candidates.filter((page) => !rewritten.has(page)));
}

function manifestFile(root: string): string {
  return path.join(stateDir(root), 'sources.json');
}

function sortedManifest(manifest: Manifest): Manifest {
  const sources: Record<string, SourceEntry> = {};
  for (const key of Object.keys(manifest.sources).sort()) {
    const entry = manifest.sources[key];
    if (entry) sources[key] = entry;
  }
  return { version: 1, sources };
}

function uniqueSorted(values: readonly string[]): string[] {
  return [...new Set(values)].sort();
}
