import { existsSync } from 'node:fs';
import { lstat, mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { InputError, SandboxError } from '../errors.js';
import { extractText } from '../sources/extract.js';
import type { SourceLimits } from '../sources/limits.js';
import { hashText } from '../state/hash.js';
import { ConfinedIo } from '../confine/confined-io.js';
import { deniedPathReason } from '../confine/paths.js';
import { segmentText, type FactGrain, type Segment } from './segment.js';
import { FactStore } from './store.js';
import { FACTS_DB_PATH } from './store-schema.js';

export interface FactsSettings {
  grain: FactGrain;
  similarity: number;
  /** Larger sources are left out (listed as `tooLarge`), so one huge file cannot stall an ingest. */
  maxSourceBytes: number;
  /** sandbox.deny (wiki.config.json): with the built-in deny list, files whose lines never become facts. */
  deny?: readonly string[];
  /** Bounds on reading one source (HTML depth, PDF size inside); a source past one is unreadable. Default DEFAULT_SOURCE_LIMITS. */
  sourceLimits?: SourceLimits;
}

export interface ExtractionReport {
  sources: {
    extracted: number;
    unchanged: number;
    removed: number;
    unreadable: string[];
    tooLarge: string[];
    /**
     * Sources not read, with why: denied (built-in list or sandbox.deny, as read_file refuses
     * them), a hard link or a link (their content may be another file's); their facts are dropped.
     */
    refused: string[];
  };
  facts: { inserted: number; merged: number; reworded: number; tombstoned: number };
  bytes: number;
}

/** Extracted text held before it is written in one transaction. */
const BATCH_CHARS = 8_000_000;

export function factsDbFile(root: string): string {
  return path.join(root, FACTS_DB_PATH);
}

/** Whether a facts store exists yet (lint and status only read one; they never create it). */
export function hasFactsStore(root: string): boolean {
  return existsSync(factsDbFile(root));
}

/**
 * Bring `.wiki/facts.db` in step with `sources` (workspace-relative raw/ paths): a source
 * whose sha256 the store already holds is not read further, a new or changed one is
 * segmented and upserted, and one the store knows but `sources` lacks is removed.
 */
export async function updateFacts(
  root: string,
  sources: readonly string[],
  settings: FactsSettings,
  now = new Date().toISOString(),
  dbFile = factsDbFile(root),
): Promise<ExtractionReport> {
  await mkdir(path.dirname(dbFile), { recursive: true });
  const store = await FactStore.open(dbFile);
  const report: ExtractionReport = {
    sources: { extracted: 0, unchanged: 0, removed: 0, unreadable: [], tooLarge: [], refused: [] },
    facts: { inserted: 0, merged: 0, reworded: 0, tombstoned: 0 },
    bytes: 0,
  };
  try {
    const known = store.sourceHashes();
    let pending: { source: string; sha256: string; segments: Segment[] }[] = [];
    let pendingBytes = 0;
    const flush = (): void => {
      // One transaction per batch: the journal is synced once for many sources.
      store.batch(() => {
        for (const item of pending) {
          const result = store.replaceSource(item.source, item.sha256, item.segments, settings.similarity, now);
          report.facts.inserted += result.inserted;
          report.facts.merged += result.merged;
          report.facts.reworded += result.reworded;
          report.facts.tombstoned += result.tombstoned;
        }
      });
      pending = [];
      pendingBytes = 0;
    };
    // Read as the model's read_file reads: never through a link, never a hard link, whose
    // content may be a denied or outside file's (facts reach the model).
    const io = new ConfinedIo(root);
    const refused = new Set<string>();
    for (const source of sources) {
      const denied = deniedPathReason(source, settings.deny);
      if (denied !== undefined) {
        refused.add(source);
        report.sources.refused.push(`${source}: ${denied}`);
        continue;
      }
      if ((await lstat(path.join(root, source))).size > settings.maxSourceBytes) {
        report.sources.tooLarge.push(source);
        continue;
      }
      let bytes: Uint8Array;
      try {
        bytes = await io.readBytes(path.join(root, source));
      } catch (error) {
        if (!(error instanceof SandboxError)) throw error;
        refused.add(source);
        report.sources.refused.push(error.message);
        continue;
      }
      const sha256 = hashText(bytes);
      if (known.get(source) === sha256) {
        report.sources.unchanged++;
        continue;
      }
      let text: string;
      try {
        text = (await extractText(source, bytes, settings.sourceLimits)).text;
      } catch (error) {
        if (!(error instanceof InputError)) throw error;
        report.sources.unreadable.push(source);
        continue;
      }
      // A sentence decoded with replacement characters (a source that is not UTF-8) is not a fact
      // of the source: its words are garbled, and it would ground nothing.
      const segments = segmentText(text, settings.grain).filter((segment) => !segment.text.includes('\uFFFD'));
      pending.push({ source, sha256, segments });
      pendingBytes += text.length;
      report.bytes += bytes.length;
      report.sources.extracted++;
      if (pendingBytes >= BATCH_CHARS) flush();
    }
    if (pending.length > 0) flush();
    const present = new Set(sources.filter((source) => !refused.has(source)));
    for (const source of known.keys()) {
      if (present.has(source)) continue;
      report.facts.tombstoned += store.removeSource(source, now);
      report.sources.removed++;
    }
  } finally {
    store.close();
  }
  return report;
}

/**
 * Extract every source again into a new store beside the old one, then put it in the old
 * one's place in one rename: a reader or writer beside the rebuild keeps the whole old store
 * until then (never a deleted or half-made one), and a rebuild cut off leaves the old store.
 */
export async function rebuildFacts(root: string, sources: readonly string[], settings: FactsSettings): Promise<ExtractionReport> {
  const target = factsDbFile(root);
  const fresh = `${target}.rebuild-${process.pid}`;
  for (const suffix of ['', '-journal']) await rm(`${fresh}${suffix}`, { force: true });
  try {
    const report = await updateFacts(root, sources, settings, undefined, fresh);
    await rename(fresh, target);
    for (const suffix of ['-journal', '-wal', '-shm']) await rm(`${target}${suffix}`, { force: true });
    return report;
  } catch (error) {
    for (const suffix of ['', '-journal']) await rm(`${fresh}${suffix}`, { force: true });
    throw error;
  }
}
