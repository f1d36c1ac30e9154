import type { FusedHit } from './rrf.js';
import type { LaneName } from './types.js';

/** One lane's hits best first, each with the lane's own score. */
export interface ScoredLaneRanking {
  lane: LaneName;
  weight: number;
  ids: readonly string[];
  scores: readonly number[];
  /** Scores already on a fixed scale (cosine similarity): taken as they are, not scaled over the hits. */
  absolute?: boolean;
}

/**
 * Weighted score fusion: score(d) = Σ_lane weight × (s − min) / (max − min), each lane's
 * scores scaled to [0, 1] over the hits it returned (a lane whose hits all score alike
 * gives each 1), 0 where a lane did not return the page. Unlike rank fusion it keeps how
 * far apart a lane's scores are: a page far ahead lexically stays ahead unless another
 * lane is about as sure of a different one. Ties break as in `fuseRankings`.
 */
export function fuseScores(rankings: readonly ScoredLaneRanking[], tieKey: (id: string) => string = (id) => id): FusedHit[] {
  const hits = new Map<string, FusedHit>();
  for (const { lane, weight, ids, scores, absolute } of rankings) {
    let min = Infinity;
    let max = -Infinity;
    for (const score of scores) {
      if (score < min) min = score;
      if (score > max) max = score;
    }
    const span = max - min;
    ids.forEach((id, index) => {
      let hit = hits.get(id);
      if (!hit) {
        hit = { id, score: 0, lanes: {}, contributions: {} };
        hits.set(id, hit);
      }
      if (hit.lanes[lane] !== undefined) return; // a lane ranks an id once; keep its best rank
      const scaled = absolute ? Math.max(0, scores[index] ?? 0) : span > 0 ? ((scores[index] ?? min) - min) / span : 1;
      const contribution = weight * scaled;
      hit.lanes[lane] = index + 1;
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
      compare(keyOf(a.id), keyOf(b.id)) ||
      compare(a.id, b.id),
  );
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
