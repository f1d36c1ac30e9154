import { createHash } from 'node:crypto';
import { isCorpusEmbedder } from '../../search/lanes/semantic/embedder.js';
import type { SemanticLane } from '../../search/lanes/semantic/semantic.js';
import type { VectorHit } from '../../search/kernels/vectors.js';
import type { VectorRanker } from '../../search/lanes/semantic/vector-ranker.js';
import type { Database } from './connection.js';
import { ensureVectorIndex, type VectorKind } from './schema-vectors.js';

/** Rows per INSERT. */
const BATCH = 500;
/** Candidates the HNSW search keeps (pgvector's `hnsw.ef_search`, 40 by default): at least this, and twice the pool. */
const MIN_EF_SEARCH = 100;

/** One page's vector as this process's embedder made it for the text with `hash`. */
export interface PageVector {
  path: string;
  hash: string;
  vector: Float32Array;
}

/** The pages a ranking is for: a row counts only where this process holds the same text (by hash), at that slot. */
export interface RankedPages {
  slotOf(path: string, hash: string): number | undefined;
  slotCount: number;
  /** How many pages this process holds a vector for: the database must return as many. */
  expected(): number;
}

/**
 * Which model made a lane's vectors: the embedder's configuration and, for the built-in
 * embedder, its trained model (every replica that started from the same kept engine shares
 * it). Vectors of one model are only ever ranked against a query that model embedded.
 */
export function modelIdOf(lane: SemanticLane): string {
  const hash = createHash('sha256').update(lane.embedder.configKey);
  if (isCorpusEmbedder(lane.embedder)) {
    for (const [name, bytes] of Object.entries(lane.embedder.encodeModel() ?? {}).sort(([a], [b]) => a.localeCompare(b))) hash.update(`\0${name}\0`).update(bytes);
  }
  return hash.digest('hex').slice(0, 32);
}

/**
 * The vectors in `wiki_vectors` under one model: written as this process embeds pages, and
 * with pgvector ranked by the database (`VectorRanker`). A vector is written once per text
 * and model; `written` remembers which the database holds so only new ones are sent.
 */
export class PostgresVectors {
  private model: string | undefined;
  private readonly written = new Map<string, string>();
  private readonly indexed = new Set<number>();

  constructor(
    private readonly db: Database,
    readonly kind: VectorKind,
  ) {}

  /** Write under `model` from now on: what the database already holds for it is read, not sent again. */
  async use(model: string): Promise<void> {
    if (model === this.model) return;
    this.model = model;
    this.written.clear();
    const rows = await this.db.query<{ path: string; content_hash: string }>('SELECT path, content_hash FROM wiki_vectors WHERE model = $1', [model]);
    for (const row of rows) this.written.set(row.path, row.content_hash);
  }

  /** Whether the database holds `path`'s vector for the text with `hash` under the model in use. */
  holds(path: string, hash: string): boolean {
    return this.written.get(path) === hash;
  }

  /** Forget what was written (the database lost rows): the next `write` sends every vector again. */
  forget(): void {
    this.written.clear();
  }

  async write(pages: readonly PageVector[]): Promise<void> {
    const model = this.model;
    if (model === undefined) throw new Error('no model in use');
    const fresh = pages.filter((page) => this.written.get(page.path) !== page.hash);
    if (fresh.length === 0) return;
    const cast = this.kind === 'pgvector' ? '::vector' : '::real[]';
    const [open, close] = this.kind === 'pgvector' ? ['[', ']'] : ['{', '}'];
    for (let from = 0; from < fresh.length; from += BATCH) {
      const batch = fresh.slice(from, from + BATCH);
      await this.db.query(
        `INSERT INTO wiki_vectors AS old (path, model, content_hash, dims, embedding)
         SELECT p, $4, h, d, e${cast} FROM unnest($1::text[], $2::text[], $3::text[], $5::int[]) AS t(p, h, e, d)
         ON CONFLICT (path, model) DO UPDATE SET content_hash = excluded.content_hash, dims = excluded.dims, embedding = excluded.embedding, written_at = now()`,
        [batch.map((page) => page.path), batch.map((page) => page.hash), batch.map((page) => `${open}${Array.from(page.vector).join(',')}${close}`), model, batch.map((page) => page.vector.length)],
      );
      for (const page of batch) this.written.set(page.path, page.hash);
    }
    if (this.kind === 'pgvector') {
      for (const dims of new Set(fresh.map((page) => page.vector.length))) {
        if (this.indexed.has(dims)) continue;
        await ensureVectorIndex(this.db, dims);
        this.indexed.add(dims);
      }
    }
  }

  /** Drop deleted pages' vectors under every model. */
  async remove(paths: readonly string[]): Promise<void> {
    if (paths.length === 0) return;
    await this.db.query('DELETE FROM wiki_vectors WHERE path = ANY($1::text[])', [paths]);
    for (const path of paths) this.written.delete(path);
  }

  /** Drop vectors of models other than `keep` not written for an hour: no replica still ranks with them. */
  async dropOtherModels(keep: string): Promise<void> {
    await this.db.query("DELETE FROM wiki_vectors WHERE model <> $1 AND written_at < now() - interval '1 hour'", [keep]);
  }

  /**
   * The database's ranking of `pages` under the model in use (pgvector only): every cosine
   * by `<=>`, or the nearest by the HNSW index. A row counts only for the text this process
   * holds; where the database returns fewer vectors than the process holds (rows lost),
   * `repair` writes them again and the ranking is asked once more.
   */
  ranker(pages: RankedPages, repair: () => Promise<void>): VectorRanker {
    return {
      similarities: async (query) => {
        let scores = await this.similarities(query, pages);
        if (scores.found < pages.expected()) {
          await repair();
          scores = await this.similarities(query, pages);
        }
        return scores.bySlot;
      },
      nearest: (query, pool) => this.nearest(query, pool, pages),
    };
  }

  private async similarities(query: Float32Array, pages: RankedPages): Promise<{ bySlot: Float64Array; found: number }> {
    const rows = await this.db.query<{ path: string; content_hash: string; similarity: number }>(
      // The length as stored, not as claimed: `<=>` on vectors of two lengths is an error.
      'SELECT path, content_hash, 1 - (embedding <=> $1::vector) AS similarity FROM wiki_vectors WHERE model = $2 AND vector_dims(embedding) = $3',
      [`[${Array.from(query).join(',')}]`, this.model, query.length],
    );
    const bySlot = new Float64Array(pages.slotCount);
    let found = 0;
    for (const row of rows) {
      const slot = pages.slotOf(row.path, row.content_hash);
      if (slot === undefined) continue;
      bySlot[slot] = row.similarity;
      found++;
    }
    return { bySlot, found };
  }

  private async nearest(query: Float32Array, pool: number, pages: RankedPages): Promise<VectorHit[]> {
    const dims = query.length;
    // The partial index is chosen only where the query names its dimension count as written.
    const column = `embedding::vector(${dims})`;
    const rows = await this.db.transaction(async (client) => {
      await client.query("SELECT set_config('hnsw.ef_search', $1, true)", [String(Math.max(MIN_EF_SEARCH, 2 * pool))]);
      const { rows } = await client.query<{ path: string; content_hash: string; similarity: number }>(
        `SELECT path, content_hash, 1 - (${column} <=> $1::vector(${dims})) AS similarity FROM wiki_vectors
         WHERE model = $2 AND dims = ${dims} ORDER BY ${column} <=> $1::vector(${dims}) LIMIT $3`,
        [`[${Array.from(query).join(',')}]`, this.model, 2 * pool],
      );
      return rows;
    });
    const hits: VectorHit[] = [];
    for (const row of rows) {
      const slot = pages.slotOf(row.path, row.content_hash);
      if (slot !== undefined && row.similarity > 0) hits.push({ slot, similarity: row.similarity });
    }
    return hits.sort((a, b) => b.similarity - a.similarity || a.slot - b.slot).slice(0, pool);
  }
}
