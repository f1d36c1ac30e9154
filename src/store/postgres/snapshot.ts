import type { SearchEngine, SemanticSetup } from '../../search/engine.js';
import { decodeSnapshotFile, snapshotBytes } from '../../search/live/snapshot-file.js';
import type { Database } from './connection.js';
import type { StoredPage } from './page-rows.js';

/**
 * An engine kept in the database (`wiki_snapshot`): the same bytes as the file index's
 * `index.bin` — page table, lanes, the built-in embedder's state and every page's vector —
 * as of write `seq`. A replica starts from it and the rows written since, instead of
 * analysing and embedding every page again.
 */
export interface StoredEngine {
  engine: SearchEngine;
  seq: number;
  /** When the engine was first built from the rows (ISO time). */
  builtAt: string;
  /** The live rows the engine holds (seq ≤ its seq), with their text for snippets and upkeep. */
  rows: StoredPage[];
  /** The pages deleted as of its seq (their rows' content NULL). */
  deleted: string[];
}

/** The stored engine, or undefined when there is none, or it is from another analyser or embedder configuration (then the rows are indexed anew). */
export async function loadStoredEngine(db: Database, semantic: SemanticSetup, language: string): Promise<StoredEngine | undefined> {
  const [stored] = await db.query<{ seq: string; bytes: Buffer }>('SELECT seq, bytes FROM wiki_snapshot WHERE id = 1');
  if (!stored) return undefined;
  const loaded = decodeSnapshotFile(stored.bytes, semantic, language);
  if (!loaded || !loaded.semanticRestored) return undefined;
  const seq = Number(stored.seq);
  const all = await db.query<{ path: string; content: string | null; content_hash: string; visibility: string | null; stamp: string; seq: string }>(
    'SELECT path, content, content_hash, visibility, stamp, seq FROM wiki_pages WHERE seq <= $1',
    [seq],
  );
  const deleted = all.filter((row) => row.content === null).map((row) => row.path);
  const rows = all.filter((row): row is typeof row & { content: string } => row.content !== null);
  const held = rows.map((row) => ({ path: row.path, content: row.content, hash: row.content_hash, visibility: row.visibility, stamp: Number(row.stamp), seq: Number(row.seq) }));
  // Every row unchanged since holds what the engine holds; a page the engine holds beyond
  // them was changed or deleted since (a later seq), which following the rows redoes.
  if (held.some((row) => loaded.engine.docs.get(row.path)?.hash !== row.hash)) return undefined;
  return { engine: loaded.engine, seq, rows: held, deleted, builtAt: loaded.meta.builtAt };
}

/** Keep `engine` (as of write `seq`) unless a later one is already kept. */
export async function storeEngine(db: Database, engine: SearchEngine, seq: number, times: { builtAt: string; updatedAt: string }): Promise<void> {
  const bytes = Buffer.from(snapshotBytes(engine, times));
  await db.query(
    `INSERT INTO wiki_snapshot (id, seq, bytes) VALUES (1, $1, $2)
     ON CONFLICT (id) DO UPDATE SET seq = excluded.seq, bytes = excluded.bytes, saved_at = now() WHERE wiki_snapshot.seq < excluded.seq`,
    [seq, bytes],
  );
}
