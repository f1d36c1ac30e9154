import type { FusedSlot } from './score-fusion.js';
import type { LaneName } from '../types.js';

export interface SmoothingParams {
  /** How many of the best fused pages are smoothed (0: none). */
  pages: number;
  /** How many of a page's most similar pages among them lend it their scores. */
  neighbours: number;
  /** What share of the neighbours' mean each page gains (0: off). */
  weight: number;
}

/**
 * Score regularisation over the page similarity graph (the cluster hypothesis: pages like
 * a relevant page tend to be relevant too). Among the `pages` best fused pages, each page
 * gains `weight` × the mean fused score of its `neighbours` most similar pages among them
 * (cosine of their page vectors, positive ones only, each neighbour weighted by it), lane by
 * lane: a lane's contribution grows by `weight` × the neighbours' mean contribution of that
 * lane, so a page's contributions still sum to its score. A gain is never negative, so the
 * smoothed pages stay above every page below them, and the pages smoothed are the same at
 * any limit: no page's score depends on the limit. `hits` are the fused best, best first
 * (at least `pages` of them where there are); returns them re-ordered by the new scores,
 * ties as in fusion (more lanes, then `tieKey`).
 */
export function smoothOverNeighbours(
  hits: readonly FusedSlot[],
  params: SmoothingParams,
  vectorOf: (slot: number) => Float32Array | undefined,
  tieKey: (slot: number) => string,
): FusedSlot[] {
  const count = Math.min(hits.length, params.pages);
  if (count < 2 || params.weight <= 0 || params.neighbours <= 0) return [...hits];
  const top = hits.slice(0, count);
  const vectors = top.map((hit) => vectorOf(hit.slot));
  // Each pair's cosine once (the matrix is symmetric).
  const similarity = new Float64Array(count * count);
  for (let a = 0; a < count; a++) {
    const u = vectors[a];
    if (!u) continue;
    for (let b = a + 1; b < count; b++) {
      const v = vectors[b];
      if (!v || v.length !== u.length) continue;
      const dot = dotProduct(u, v);
      similarity[a * count + b] = dot;
      similarity[b * count + a] = dot;
    }
  }
  const smoothed = top.map((hit, i): FusedSlot => {
    const near: Array<{ at: number; weight: number }> = [];
    for (let j = 0; j < count; j++) {
      const weight = similarity[i * count + j]!;
      if (j !== i && weight > 0) near.push({ at: j, weight });
    }
    near.sort((a, b) => b.weight - a.weight || a.at - b.at);
    const chosen = near.slice(0, params.neighbours);
    const total = chosen.reduce((sum, { weight }) => sum + weight, 0);
    if (total <= 0) return hit;
    const contributions = { ...hit.contributions };
    let gain = 0;
    for (const { at, weight } of chosen) {
      for (const [lane, share] of Object.entries(top[at]!.contributions) as Array<[LaneName, number]>) {
        const added = (params.weight * weight * share) / total;
        contributions[lane] = (contributions[lane] ?? 0) + added;
        gain += added;
      }
    }
    return { ...hit, score: hit.score + gain, contributions };
  });
  const laneCount = (hit: FusedSlot): number => Object.keys(hit.lanes).length;
  smoothed.sort((a, b) => b.score - a.score || laneCount(b) - laneCount(a) || compare(tieKey(a.slot), tieKey(b.slot)));
  return [...smoothed, ...hits.slice(count)];
}

/**
 * One sum, element by element. A small function of its own: in a fresh process V8
 * optimises it after a few of its 435 calls, where the same loop inside the function above
 * ran most of a first search's pairs unoptimised (docs/search-eval.md).
 */
function dotProduct(u: Float32Array, v: Float32Array): number {
  let dot = 0;
  for (let i = 0; i < u.length; i++) dot += u[i]! * v[i]!;
  return dot;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
