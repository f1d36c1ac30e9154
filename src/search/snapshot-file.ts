import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../util/fs.js';
import { stateDir } from '../wiki/workspace.js';
import { ANALYZER_VERSION } from './analyze.js';
import { SearchEngine, type SemanticSetup } from './engine.js';
import { StaleIndexError, decodeSnapshot, encodeSnapshot } from './store.js';

/** Where and how the index is kept on disk: `.wiki/search/index.bin`. */
export const INDEX_FILE = 'index.bin';

export interface SnapshotMeta {
  analyzer: number;
  builtAt: string;
  updatedAt: string;
  /** Pages in the index when saved (read by `wiki status` without loading the index). */
  pages: number;
}

export function searchDirectory(root: string): string {
  return path.join(stateDir(root), 'search');
}

export interface LoadedSnapshot {
  engine: SearchEngine;
  meta: SnapshotMeta;
  /** False when the semantic part was made under another embedder configuration. */
  semanticRestored: boolean;
}

/** The persisted index, or undefined when there is none or it cannot be used. */
export async function loadSnapshot(file: string, semantic: SemanticSetup): Promise<LoadedSnapshot | undefined> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch {
    return undefined;
  }
  try {
    const { meta, sections } = decodeSnapshot(bytes);
    const m = meta as SnapshotMeta;
    if (m?.analyzer !== ANALYZER_VERSION) throw new StaleIndexError('analyzer changed');
    const { engine, semanticRestored } = SearchEngine.decode(sections, semantic);
    return { engine, meta: m, semanticRestored };
  } catch {
    // Corrupt, truncated or from another version: the index is only a cache of the pages,
    // so it is rebuilt from them rather than reported.
    return undefined;
  }
}

export async function saveSnapshot(file: string, engine: SearchEngine, times: { builtAt: string; updatedAt: string }): Promise<void> {
  const meta: SnapshotMeta = { analyzer: ANALYZER_VERSION, ...times, pages: engine.docs.liveCount };
  await writeFileAtomic(file, encodeSnapshot(meta, engine.encode()));
}
