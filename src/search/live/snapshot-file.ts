import { open, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../../util/fs.js';
import { stateDir } from '../../wiki/workspace.js';
import { ANALYZER_VERSION } from '../text/analyze.js';
import { ENGLISH } from '../language/languages.js';
import { SearchEngine, type SemanticSetup } from '../engine.js';
import { StaleIndexError, decodeSnapshot, encodeSnapshot } from './store.js';

/** Where and how the index is kept on disk: `.wiki/search/index.bin`. */
export const INDEX_FILE = 'index.bin';

export interface SnapshotMeta {
  analyzer: number;
  builtAt: string;
  updatedAt: string;
  /** Pages in the index when saved (read by `wiki status` without loading the index). */
  pages: number;
  /** The language pages that neither state nor show one were analysed in (absent: English). */
  language?: string;
  /** The semantic lane's measured strength in the corpus, when measured (shown by `wiki status`). */
  semanticStrength?: number;
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

/**
 * Open the index file and ask for all of it in one read. Resolves as soon as that read is
 * under way, so the caller can do other work meanwhile (a search scans the pages) rather
 * than the file arriving chunk by chunk whenever the event loop is free. `bytes` is
 * undefined when there is no readable file.
 */
export async function startSnapshotRead(file: string): Promise<{ bytes: Promise<Buffer | undefined> }> {
  let handle: FileHandle;
  let size: number;
  try {
    handle = await open(file, 'r');
  } catch {
    return { bytes: Promise.resolve(undefined) };
  }
  try {
    size = (await handle.stat()).size;
  } catch {
    await handle.close().catch(() => undefined);
    return { bytes: Promise.resolve(undefined) };
  }
  const buffer = Buffer.allocUnsafe(size);
  const readAll = async (): Promise<Buffer | undefined> => {
    try {
      let done = 0;
      while (done < size) {
        const { bytesRead } = await handle.read(buffer, done, size - done, done);
        if (bytesRead === 0) break;
        done += bytesRead;
      }
      return buffer.subarray(0, done);
    } catch {
      return undefined;
    } finally {
      await handle.close().catch(() => undefined);
    }
  };
  return { bytes: readAll() };
}

/** The index in `bytes`, or undefined when they are missing, corrupt or from another version. */
/** `language`: the one pages that neither state nor show one are to be analysed in; an index made under another is stale. */
export function decodeSnapshotFile(bytes: Buffer | undefined, semantic: SemanticSetup, language: string): LoadedSnapshot | undefined {
  if (!bytes) return undefined;
  try {
    const { meta, sections } = decodeSnapshot(bytes);
    const m = meta as SnapshotMeta;
    if (m?.analyzer !== ANALYZER_VERSION) throw new StaleIndexError('analyzer changed');
    if ((m.language ?? ENGLISH) !== language) throw new StaleIndexError('the wiki’s language changed');
    const { engine, semanticRestored } = SearchEngine.decode(sections, semantic, language);
    return { engine, meta: m, semanticRestored };
  } catch {
    // Corrupt, truncated or from another version: the index is only a cache of the pages,
    // so it is rebuilt from them rather than reported.
    return undefined;
  }
}

export async function saveSnapshot(file: string, engine: SearchEngine, times: { builtAt: string; updatedAt: string }): Promise<void> {
  await writeFileAtomic(file, snapshotBytes(engine, times));
}

/** The engine as the index file holds it (also what the database store keeps, store/postgres/snapshot.ts). */
export function snapshotBytes(engine: SearchEngine, times: { builtAt: string; updatedAt: string }): Uint8Array {
  const strength = engine.semanticStrength;
  const meta: SnapshotMeta = {
    analyzer: ANALYZER_VERSION,
    ...times,
    pages: engine.docs.liveCount,
    ...(engine.language === ENGLISH ? {} : { language: engine.language }),
    ...(strength === undefined ? {} : { semanticStrength: strength }),
  };
  return encodeSnapshot(meta, engine.encode());
}
