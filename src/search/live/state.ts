import { open } from 'node:fs/promises';
import path from 'node:path';
import type { SearchSettings } from '../settings.js';
import { ANALYZER_VERSION } from '../text/analyze.js';
import { ENGLISH, languageOf } from '../language/languages.js';
import { embedderSetting } from '../lanes/semantic/embedder-factory.js';
import { INDEX_FILE, searchDirectory, type SnapshotMeta } from './snapshot-file.js';
import { readSnapshotMeta } from './store.js';
import { LANES, type LaneName, type LaneStatus } from '../types.js';
import { semanticWeightScale, smallWikiScale } from '../fusion/semantic-strength.js';
import { DEFAULT_TUNING } from '../fusion/tuning.js';

/**
 * The search index as `wiki status` shows it, read from the persisted file's header
 * only: opening the index would build or refresh it, which a status report must not do.
 */
export interface SearchIndexState {
  /** Workspace-relative path of the index file. */
  file: string;
  /** A current, readable index exists (otherwise the next search builds one). */
  built: boolean;
  /** Why the existing file will be rebuilt, when it will. */
  problem?: string;
  pages?: number;
  builtAt?: string;
  updatedAt?: string;
  /** The configured lanes: weight 0 or no embedder make a lane `skipped`. */
  lanes: Record<LaneName, LaneStatus>;
  /** The embedder the configuration asks for. */
  embedder: string | undefined;
  /** What the configured semantic weight is multiplied by in this wiki (the built-in embedder's measured strength); absent when 1. */
  semanticWeightFactor?: number;
}

export async function readSearchIndexState(root: string, config: Pick<SearchSettings, 'search' | 'language'>, env: NodeJS.ProcessEnv = process.env): Promise<SearchIndexState> {
  const file = path.join(searchDirectory(root), INDEX_FILE);
  const setting = embedderSetting(config, env);
  const lanes = {} as Record<LaneName, LaneStatus>;
  for (const lane of LANES) lanes[lane] = config.search.weights[lane] > 0 ? 'ok' : 'skipped: weight is 0';
  if (setting.kind === 'off' && lanes.semantic === 'ok') lanes.semantic = `skipped: ${setting.reason}`;
  const embedder =
    setting.kind === 'builtin'
      ? `built-in LSA (${setting.dimensions} dimensions)`
      : setting.kind === 'openai'
        ? `${setting.model} at ${setting.baseUrl}`
        : undefined;
  const state: SearchIndexState = { file: path.relative(root, file).split(path.sep).join('/'), built: false, lanes, embedder };
  let handle;
  try {
    handle = await open(file, 'r');
  } catch {
    return state;
  }
  try {
    const meta = (await readSnapshotMeta(handle)) as Partial<SnapshotMeta> | undefined;
    if (!meta || meta.analyzer !== ANALYZER_VERSION) return { ...state, problem: 'from another version; rebuilt on the next search' };
    if ((meta.language ?? ENGLISH) !== (languageOf(config.language) ?? ENGLISH)) return { ...state, problem: 'made under another language setting; rebuilt on the next search' };
    const factor = setting.kind === 'off' ? 1 : (setting.kind === 'builtin' ? semanticWeightScale(meta.semanticStrength, DEFAULT_TUNING.semanticStrength) : 1) * smallWikiScale(meta.pages ?? Infinity);
    return { ...state, built: true, pages: meta.pages, builtAt: meta.builtAt, updatedAt: meta.updatedAt, ...(factor === 1 ? {} : { semanticWeightFactor: factor }) };
  } catch {
    return { ...state, problem: 'unreadable; rebuilt on the next search' };
  } finally {
    await handle.close();
  }
}
