import type { LaneName } from '../types.js';

/** One lane's ranking: ids best first (rank 1 is the first id). */
export interface LaneRanking {
  lane: LaneName;
  weight: number;
  ids: readonly string[];
}

export interface FusedHit {
  id: string;
  score: number;
  lanes: Partial<Record<LaneName, number>>;
  contributions: Partial<Record<LaneName, number>>;
}

/**
 * Weighted Reciprocal Rank Fusion: score(d) = Σ_lane weight / (k + rank_lane(d)).
 * Ties break on the fused score, then on how many lanes ranked the hit, then on
 * `tieKey(id)` (the page key) and finally the id itself, so the order is total.
 */
export function fuseRankings(
  rankings: readonly LaneRanking[],
  k: number,
  tieKey: (id: string) => string = (id) => id,
): FusedHit[] {
  const hits = new Map<string, FusedHit>();
  for (const { lane, weight, ids } of rankings) {
    ids.forEach((id, index) => {
      const rank = index + 1;
      const contribution = weight / (k + rank);
      let hit = hits.get(id);
      if (!hit) {
        hit = { id, score: 0, lanes: {}, contributions: {} };
        hits.set(id, hit);
      }
      if (hit.lanes[lane] !== undefined) return; // a lane ranks an id once; keep its best rank
      hit.lanes[lane] = rank;
      hit.contributions[lane] = contribution;
      hit.score += contribution;
    });
  }
  const keys = new Map<string, string>();
  const keyOf = (id: string): string => {
    let key = keys.get(id);
    if (key === undefined) {
      key = tieKey(id);
      keys.set(id, key);
    }
    return key;
  };
  return [...hits.values()].sort(
    (a, b) =>
      b.score - a.score ||
      Object.keys(b.lanes).length - Object.keys(a.lanes).length ||
      compareStrings(keyOf(a.id), keyOf(b.id)) ||
      compareStrings(a.id, b.id),
  );
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** How many candidates each lane contributes: max(pool, 3 × limit). */
export function poolSize(pool: number, limit: number): number {
  return Math.max(pool, 3 * limit);
}
