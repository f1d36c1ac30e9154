import path from 'node:path';
import type { Schema } from '../wiki/contract.js';
import { createEmbedder, type EmbedderContext } from './lanes/semantic/embedder-factory.js';
import { SearchEngine, type SearchParams, type SemanticSetup } from './engine.js';
import type { BuildWorker } from './build/build-threads.js';
import { LiveSearchIndex } from './live/live-index.js';
import { PARALLEL_BUILD_MIN_PAGES, type PageScan } from './live/refresh.js';
import { SemanticLane } from './lanes/semantic/semantic.js';
import { scanPages } from './live/scan.js';
import { INDEX_FILE, decodeSnapshotFile, searchDirectory, startSnapshotRead } from './live/snapshot-file.js';
import { withTuning, type SearchTuning } from './fusion/tuning.js';
import type { SearchSettings } from './settings.js';
import { ENGLISH, languageOf } from './language/languages.js';
import type { SearchIndex } from './types.js';

export type { LaneName, LaneStatus, SearchIndex, RefreshSummary, SearchIndexInfo, SearchOptions, SearchResponse, SearchResult } from './types.js';
export { INDEX_FILE, searchDirectory, type SnapshotMeta } from './live/snapshot-file.js';

export interface OpenSearchIndexOptions {
  env?: NodeJS.ProcessEnv;
  /** Settings below the configuration, for the evaluation; defaults are the measured best. */
  tuning?: Partial<SearchTuning>;
  /** A search rescans the files when the last scan is older than this (default 2000 ms). */
  rescanAfterMs?: number;
  /** Keep the index in memory only (default: persist under `.wiki/search/`). */
  persist?: boolean;
}

const DEFAULT_RESCAN_MS = 2000;

export async function openSearchIndex(
  root: string,
  schema: Schema,
  config: SearchSettings,
  options: OpenSearchIndexOptions = {},
): Promise<SearchIndex> {
  const { context, semanticSetup, params } = engineSetup(root, config, options);
  const persist = options.persist !== false;
  const file = path.join(context.searchDir, INDEX_FILE);
  // The saved index is read while the pages are scanned: a search needs both.
  const reading = persist ? await startSnapshotRead(file) : undefined;
  // Without a saved index a full build follows: its worker thread starts up during the scan
  // (the build's modules are loaded only then: a search over a saved index never needs them).
  const threads = reading ? undefined : await import('./build/build-threads.js');
  let buildWorker: BuildWorker | undefined;
  const foreseeBuild = (markdownNames: number): void => {
    if (!buildWorker && threads && markdownNames >= PARALLEL_BUILD_MIN_PAGES) buildWorker = threads.BuildWorker.start();
  };
  const startedAt = Date.now();
  const { files, hardLinked } = scanPages(root, schema.contract, reading ? undefined : foreseeBuild);
  const scan: PageScan = { startedAt, files, hardLinked, buildWorker };
  // Pages that neither state nor show their language are read in the wiki's.
  const language = languageOf(config.language) ?? ENGLISH;
  const loaded = reading ? decodeSnapshotFile(await reading.bytes, await semanticSetup(), language) : undefined;
  let engine: SearchEngine;
  try {
    engine = loaded?.engine ?? SearchEngine.empty(await semanticSetup(), language);
  } catch (error) {
    void buildWorker?.close();
    throw error;
  }
  const now = new Date().toISOString();
  const index = new LiveSearchIndex({
    root,
    contract: schema.contract,
    params,
    engine,
    file,
    persist,
    rescanAfterMs: options.rescanAfterMs ?? DEFAULT_RESCAN_MS,
    builtAt: loaded?.meta.builtAt ?? now,
    updatedAt: loaded?.meta.updatedAt ?? now,
    rebuilt: !loaded,
  });
  if (loaded && !loaded.semanticRestored) index.semanticConfigChanged();
  await index.refresh(scan);
  return index;
}

/**
 * What an engine is made with: its parameters and the semantic lane (the embedder the
 * configuration chose), for the file index here and the database store (store/postgres/).
 */
export function engineSetup(
  root: string,
  config: SearchSettings,
  options: Pick<OpenSearchIndexOptions, 'env' | 'tuning'> = {},
): { context: EmbedderContext; semanticSetup: () => Promise<SemanticSetup>; params: SearchParams } {
  const tuning = withTuning(options.tuning);
  const context: EmbedderContext = {
    env: options.env ?? process.env,
    searchDir: searchDirectory(root),
    tuning,
    timeoutMs: config.requestTimeoutMs,
    maxRetries: config.maxRetries,
  };
  const semanticSetup = async (): Promise<SemanticSetup> => {
    const choice = await createEmbedder(config, context);
    return 'embedder' in choice ? { lane: new SemanticLane(choice.embedder) } : { off: choice.off };
  };
  return { context, semanticSetup, params: searchParams(config, tuning) };
}

function searchParams(config: SearchSettings, tuning: SearchTuning): SearchParams {
  const search = config.search;
  return {
    weights: { ...search.weights },
    k: search.k,
    pool: search.pool,
    lexical: { k1: search.bm25.k1, b: search.bm25.b, ...tuning.lexical },
    feedback: tuning.feedback,
    fusion: tuning.fusion,
    semanticScale: tuning.semanticScale,
    smoothing: tuning.smoothing,
    semanticStrength: tuning.semanticStrength,
    language: languageOf(config.language),
  };
}
