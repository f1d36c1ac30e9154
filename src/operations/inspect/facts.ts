import type { EffectiveConfig } from '../../config/load.js';
import { UsageError } from '../../errors.js';
import { acquireLock, LockError } from '../../state/lock.js';
import { factsDbFile, rebuildFacts, updateFacts, type ExtractionReport, type FactsSettings } from '../../facts/extract.js';
import { FactStore } from '../../facts/store.js';
import type { Fact, FactHit, FactStats } from '../../facts/store-schema.js';
import { sourceLimitsOf } from '../../sources/limits.js';
import { listRawSources } from '../../sources/raw-files.js';
import { splitRawFiles } from '../../sources/source-kinds.js';

export function factsSettings(config: EffectiveConfig): FactsSettings {
  const { grain, similarity, maxSourceBytes } = config.config.facts;
  return { grain, similarity, maxSourceBytes, deny: config.config.sandbox.deny, sourceLimits: sourceLimitsOf(config.config.limits) };
}

/** Extract facts from every raw/ source the store does not already hold at its current sha256. */
export async function refreshFacts(root: string, config: EffectiveConfig): Promise<ExtractionReport> {
  return updateFacts(root, await rawSources(root), factsSettings(config));
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
): Promise<ExtractionReport> {
  const take = (waitSeconds: number): ReturnType<typeof acquireLock> =>
    acquireLock(root, { command: 'facts rebuild', waitSeconds, signal: options.signal, onNotice: options.onNotice });
  const lock = await take(0).catch(async (error: unknown) => {
    if (!(error instanceof LockError) || error.holder === undefined) throw error;
    options.onNotice?.(`waiting for the workspace lock (${error.holder.command}, pid ${error.holder.pid}) before rebuilding the facts store`);
    return take(REBUILD_WAIT_SECONDS);
  });
  lock.releaseOnExit();
  try {
    return await rebuildFacts(root, await rawSources(root), factsSettings(config));
  } finally {
    await lock.release();
  }
}

/** How long `wiki facts rebuild` queues behind another run before it gives up. */
const REBUILD_WAIT_SECONDS = 3600;

/** The store, brought in step with raw/ first, so a read never answers from stale facts. */
async function withFreshStore<T>(root: string, config: EffectiveConfig, use: (store: FactStore) => T): Promise<T> {
  await refreshFacts(root, config);
  const store = await FactStore.open(factsDbFile(root), { readonly: true });
  try {
    return use(store);
  } finally {
    store.close();
  }
}

export async function searchFacts(root: string, config: EffectiveConfig, query: string, limit: number): Promise<FactHit[]> {
  return withFreshStore(root, config, (store) => store.search(query, limit));
}

export async function showFact(root: string, config: EffectiveConfig, id: string): Promise<Fact> {
  const fact = await withFreshStore(root, config, (store) => store.get(id));
  if (!fact) throw new UsageError(`no fact with id ${id}`, 'find ids with wiki facts search "words"');
  return fact;
}

export async function factStats(root: string, config: EffectiveConfig): Promise<FactStats> {
  return withFreshStore(root, config, (store) => store.stats());
}
