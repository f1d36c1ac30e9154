import type { LaneName } from '../types.js';

/** One lane's scores over the whole index, by slot: the pages it scored above 0, in no order. */
export interface LaneScores {
  lane: LaneName;
  weight: number;
  slots: ArrayLike<number>;
  scores: ArrayLike<number>;
  /** Scores on a fixed scale (cosine similarity): taken as they are instead of divided by the lane's best. */
  absolute?: boolean;
}

export interface FusedSlot {
  slot: number;
  score: number;
  /** The page's rank in each lane that scored it. */
  lanes: Partial<Record<LaneName, number>>;
  contributions: Partial<Record<LaneName, number>>;
}

/**
 * Weighted score fusion over every page the lanes scored: score(d) = Σ_lane weight ×
 * s_lane(d) / max_lane (the lane's best score; a cosine is taken as it is), 0 where a lane
 * did not score the page. Each term depends only on the query and the page, never on how
 * many results are asked for, so a page's score and the order of the best pages are the
 * same at any limit (a filter applied after the search that asks for more changes nothing
 * above its cut). Returns the `limit` best, ties broken by how many lanes scored the page,
 * then by `tieKey(slot)` (the page key, then its path).
 */
export function fuseLaneScores(lanes: readonly LaneScores[], slotCount: number, limit: number, tieKey: (slot: number) => string): FusedSlot[] {
  const fused = new Float64Array(slotCount);
  const laneCount = new Uint8Array(slotCount);
  const touched: number[] = [];
  const scales = lanes.map(({ scores, absolute }) => {
    if (absolute) return 1;
    let max = 0;
    for (let i = 0; i < scores.length; i++) if (scores[i]! > max) max = scores[i]!;
    return max > 0 ? 1 / max : 0;
  });
  lanes.forEach(({ weight, slots, scores }, l) => {
    const scale = weight * scales[l]!;
    for (let i = 0; i < slots.length; i++) {
      const score = scores[i]!;
      if (!(score > 0)) continue;
      const slot = slots[i]!;
      if (laneCount[slot] === 0) touched.push(slot);
      laneCount[slot]!++;
      fused[slot] = fused[slot]! + scale * score;
    }
  });
  const keys = new Map<number, string>();
  const keyOf = (slot: number): string => {
    let key = keys.get(slot);
    if (key === undefined) keys.set(slot, (key = tieKey(slot)));
    return key;
  };
  // Ranked best first by score, then lanes, then key: as a min-heap of the `limit` best.
  const worse = (a: number, b: number): boolean =>
    fused[a] !== fused[b] ? fused[a]! < fused[b]! : laneCount[a] !== laneCount[b] ? laneCount[a]! < laneCount[b]! : keyOf(a) > keyOf(b);
  const best = topSlots(touched, limit, worse);
  const explained = lanes.map(({ lane, weight, slots, scores }, l) => {
    const own = new Map<number, number>();
    for (const slot of best) own.set(slot, 0);
    for (let i = 0; i < slots.length; i++) if (own.has(slots[i]!)) own.set(slots[i]!, scores[i]!);
    return { lane, scale: weight * scales[l]!, own, rankOf: ranker(scores, best.length) };
  });
  return best.map((slot) => {
    const hit: FusedSlot = { slot, score: fused[slot]!, lanes: {}, contributions: {} };
    for (const { lane, scale, own, rankOf } of explained) {
      const score = own.get(slot) ?? 0;
      if (!(score > 0)) continue;
      hit.lanes[lane] = rankOf(score);
      hit.contributions[lane] = scale * score;
    }
    return hit;
  });
}

/** Rank of a score among a lane's: 1 + how many are higher (counted, or by binary search when many are asked). */
function ranker(scores: ArrayLike<number>, asked: number): (score: number) => number {
  if (asked <= 16) {
    return (score) => {
      let higher = 0;
      for (let i = 0; i < scores.length; i++) if (scores[i]! > score) higher++;
      return higher + 1;
    };
  }
  const ascending = Float64Array.from(scores).sort();
  return (score) => {
    let lo = 0;
    let hi = ascending.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ascending[mid]! <= score) lo = mid + 1;
      else hi = mid;
    }
    return ascending.length - lo + 1;
  };
}

/** The `limit` best of `candidates` under `worse`, best first (a bounded min-heap, then a sort). */
function topSlots(candidates: readonly number[], limit: number, worse: (a: number, b: number) => boolean): number[] {
  const heap: number[] = [];
  const swap = (i: number, j: number): void => {
    [heap[i], heap[j]] = [heap[j]!, heap[i]!];
  };
  for (const slot of candidates) {
    if (heap.length < limit) {
      heap.push(slot);
      for (let i = heap.length - 1; i > 0; ) {
        const parent = (i - 1) >> 1;
        if (!worse(heap[i]!, heap[parent]!)) break;
        swap(i, parent);
        i = parent;
      }
    } else if (limit > 0 && worse(heap[0]!, slot)) {
      heap[0] = slot;
      for (let i = 0; ; ) {
        const left = 2 * i + 1;
        let worst = i;
        if (left < heap.length && worse(heap[left]!, heap[worst]!)) worst = left;
        if (left + 1 < heap.length && worse(heap[left + 1]!, heap[worst]!)) worst = left + 1;
        if (worst === i) break;
        swap(i, worst);
        i = worst;
      }
    }
  }
  return heap.sort((a, b) => (worse(a, b) ? 1 : worse(b, a) ? -1 : 0));
}
