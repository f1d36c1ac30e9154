import type { EffectiveConfig } from '../../config/load.js';
import { UsageError } from '../../errors.js';
import { acquireLock, LockError } from '../../state/lock.js';
import { factsDbFile, rebuildFacts, updateFacts, type ExtractionReport, type FactsSettings } from '../../facts/extract.js';
import type { FactReader } from '../../facts/reader.js';
import { FactStore } from '../../facts/store.js';
import type { Fact, FactHit, FactStats } from '../../facts/store-schema.js';
import { openFactReader, publishFacts, type FactsPublishReport } from '../../store/open-facts.js';
import { sourceLimitsOf } from '../../sources/limits.js';
import { listRawSources } from '../../sources/raw-files.js';
import { splitRawFiles } from '../../sources/source-kinds.js';

export function factsSettings(config: EffectiveConfig): FactsSettings {
  const { grain, similarity, maxSourceBytes } = config.config.facts;
  return { grain, similarity, maxSourceBytes, deny: config.config.sandbox.deny, sourceLimits: sourceLimitsOf(config.config.limits) };
}

/** An extraction, and with `store.kind: postgres` what of it the shared database took. */
export interface FactsRefresh extends ExtractionReport {
  database?: FactsPublishReport;
}

/**
 * Extract facts from every raw/ source the local store does not already hold at its current
 * sha256; with `store.kind: postgres`, offer the database each source whose version differs
 * from its own (the local store is this checkout's extraction cache, the database the truth
 * every replica reads).
 */
export async function refreshFacts(root: string, config: EffectiveConfig): Promise<FactsRefresh> {
  const report = await updateFacts(root, await rawSources(root), factsSettings(config));
  const database = await publishFacts(root, config.config);
  return database ? { ...report, database } : report;
}

/** The files of raw/ that are sources: an image or an archive has no sentences to extract. */
async function rawSources(root: string): Promise<string[]> {
  return splitRawFiles(await listRawSources(root)).sources;
}

/**
 * Rebuild under the workspace lock, waiting for a run that holds it (an ingest refreshes the
 * store as it starts): a rebuild never swaps the store out from under a mutating run.
 */
export async function rebuildWorkspaceFacts(
  root: string,
  config: EffectiveConfig,
  options: { signal?: AbortSignal; onNotice?: (message: string) => void } = {},
): Promise<FactsRefresh> {
  const take = (waitSeconds: number): ReturnType<typeof acquireLock> =>
    acquireLock(root, { command: 'facts rebuild', waitSeconds, signal: options.signal, onNotice: options.onNotice });
  const lock = await take(0).catch(async (error: unknown) => {
    if (!(error instanceof LockError) || error.holder === undefined) throw error;
    options.onNotice?.(`waiting for the workspace lock (${error.holder.command}, pid ${error.holder.pid}) before rebuilding the facts store`);
    return take(REBUILD_WAIT_SECONDS);
  });
  lock.releaseOnExit();
  try {
    const report = await rebuildFacts(root, await rawSources(root), factsSettings(config));
    // The database's facts of every source this checkout holds become this extraction's (a newer version elsewhere stays).
    const database = await publishFacts(root, config.config, { all: true });
    return database ? { ...report, database } : report;
  } finally {
    await lock.release();
  }
}

/** How long `wiki facts rebuild` queues behind another run before it gives up. */
const REBUILD_WAIT_SECONDS = 3600;

/** The facts the configuration reads (local store or database), brought in step with raw/ first, so a read never answers from stale facts. */
async function withFreshReader<T>(root: string, config: EffectiveConfig, use: (reader: FactReader) => Promise<T>): Promise<T> {
  await refreshFacts(root, config);
  const reader = await openFactReader(root, config.config, config.config.sandbox.deny);
  try {
    return await use(reader);
  } finally {
    await reader.close();
  }
}

export async function searchFacts(root: string, config: EffectiveConfig, query: string, limit: number): Promise<FactHit[]> {
  return withFreshReader(root, config, (reader) => reader.search(query, limit));
}

export async function showFact(root: string, config: EffectiveConfig, id: string): Promise<Fact> {
  const fact = await withFreshReader(root, config, (reader) => reader.get(id));
  if (!fact) throw new UsageError(`no fact with id ${id}`, 'find ids with wiki facts search "words"');
  return fact;
}

/** The counts, and where the facts are read from; rewordings are counted by this checkout's extraction (the database keeps no lineage). */
export async function factStats(root: string, config: EffectiveConfig): Promise<FactStats & { where: string }> {
  return withFreshReader(root, config, async (reader) => {
    const stats = await reader.stats();
    if (config.config.store.kind !== 'postgres') return { ...stats, where: reader.where };
    const local = await FactStore.open(factsDbFile(root), { readonly: true });
    try {
      return { ...stats, reworded: local.stats().reworded, where: reader.where };
    } finally {
      local.close();
    }
  });
}
