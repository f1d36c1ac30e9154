import type { VectorHit } from '../../kernels/vectors.js';

/**
 * What ranks the pages' vectors against a query's unit vector in the semantic lane's stead:
 * by default the lane's own vectors in memory; a store may rank the same vectors where it
 * keeps them (the database's, store/postgres/pg-vectors.ts). Either way the answer is the
 * same: every page's cosine, or the `pool` nearest.
 */
export interface VectorRanker {
  /** Every page's cosine with `query`, by slot (0 where a page has no vector). */
  similarities(query: Float32Array): Promise<Float64Array>;
  /** The `pool` live pages most similar to `query` with a positive cosine, most similar first. */
  nearest(query: Float32Array, pool: number): Promise<VectorHit[]>;
}
