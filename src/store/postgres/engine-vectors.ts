import type { SearchEngine } from '../../search/engine.js';
import type { VectorRanker } from '../../search/lanes/semantic/vector-ranker.js';
import type { Database } from './connection.js';
import type { StoredPage } from './page-rows.js';
import { modelIdOf, PostgresVectors, type PageVector } from './pg-vectors.js';
import type { VectorKind } from './schema-vectors.js';

/**
 * One process's engine and the database's `wiki_vectors` kept in step: the vectors of the
 * pages it holds written under its embedder's model, and (with pgvector) the database
 * ranking them for its searches.
 */
export class EngineVectors {
  private readonly vectors: PostgresVectors;
  /** The embedder model the vectors written are of, as of the lane's model version. */
  private model: { version: number; id: string } | undefined;

  constructor(
    db: Database,
    kind: VectorKind,
    private readonly engine: SearchEngine,
    /** The rows the engine holds, by path. */
    private readonly rows: ReadonlyMap<string, StoredPage>,
  ) {
    this.vectors = new PostgresVectors(db, kind);
  }

  /** Write the vectors the database lacks for the pages held (all of them after a training), and drop deleted pages'. */
  async keep(removed: readonly string[]): Promise<void> {
    await this.vectors.remove(removed);
    const semantic = this.engine.semantic;
    if (!('lane' in semantic)) return;
    const { lane } = semantic;
    if (this.model?.version !== lane.modelVersion) this.model = { version: lane.modelVersion, id: modelIdOf(lane) };
    await this.vectors.use(this.model.id);
    const pages: PageVector[] = [];
    for (const row of this.rows.values()) {
      if (row.hash === null || this.vectors.holds(row.path, row.hash)) continue;
      const vector = this.vectorOf(row.path);
      if (vector) pages.push({ path: row.path, hash: row.hash, vector });
    }
    await this.vectors.write(pages);
  }

  /** Once an engine is kept: vectors of other models, unwritten for an hour, are no replica's. */
  async dropOtherModels(): Promise<void> {
    if (this.model) await this.vectors.dropOtherModels(this.model.id);
  }

  /**
   * With pgvector, the database ranks the vectors of the pages held (`rewrite` runs `keep`
   * anew when it returns fewer than held); undefined: the lane ranks its own.
   */
  ranker(rewrite: (again: () => Promise<void>) => Promise<void>): VectorRanker | undefined {
    if (this.vectors.kind !== 'pgvector' || this.model === undefined) return undefined;
    const { docs } = this.engine;
    return this.vectors.ranker(
      {
        slotOf: (pagePath, hash) => (this.rows.get(pagePath)?.hash === hash ? docs.slotOf(pagePath) : undefined),
        slotCount: docs.slotCount,
        expected: () => {
          let held = 0;
          for (const pagePath of this.rows.keys()) if (this.vectorOf(pagePath)) held++;
          return held;
        },
      },
      () =>
        rewrite(async () => {
          this.vectors.forget();
          await this.keep([]);
        }),
    );
  }

  private vectorOf(pagePath: string): Float32Array | undefined {
    const slot = this.engine.docs.slotOf(pagePath);
    return slot === undefined || !('lane' in this.engine.semantic) ? undefined : this.engine.semantic.lane.pageVector(slot);
  }
}
