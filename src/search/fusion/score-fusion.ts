import type { LaneName } from '../types.js';

/** One lane's scores over the whole index: the pages it scored above 0, in no order. */
export interface LaneScores {
  lane: LaneName;
  weight: number;
  /** The slot of each score; absent when `scores` is indexed by slot (a lane scoring every page). */
  slots?: ArrayLike<number>;
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
  // A lane scoring every page (the semantic lane) comes last. A page only it scored ranks
  // by that score alone, so only its `limit` best such pages can make the list: pages
  // below its limit-th best score join only where another lane scored them too.
  const dense = lanes.filter((lane) => !lane.slots);
  const order = lanes.map((_, l) => l).sort((a, b) => Number(!lanes[a]!.slots) - Number(!lanes[b]!.slots));
  for (const l of order) {
    const { weight, slots, scores } = lanes[l]!;
    const scale = weight * scales[l]!;
    const floor = !slots && dense.length === 1 ? kthLargest(scores, scores.length, limit, (i) => i) : -Infinity;
    for (let i = 0; i < scores.length; i++) {
      const score = scores[i]!;
      if (!(score > 0)) continue;
      const slot = slots ? slots[i]! : i;
      if (laneCount[slot] === 0) {
        if (score < floor) continue;
        touched.push(slot);
      }
      laneCount[slot]!++;
      fused[slot] = fused[slot]! + scale * score;
    }
  }
  const keys = new Map<number, string>();
  const keyOf = (slot: number): string => {
    let key = keys.get(slot);
    if (key === undefined) keys.set(slot, (key = tieKey(slot)));
    return key;
  };
  // Only pages scoring at least the limit-th best score can make the list: that score is
  // found among plain numbers, and only those pages are compared in full.
  const threshold = kthLargest(fused, touched.length, limit, (i) => touched[i]!);
  const best = touched
    .filter((slot) => fused[slot]! >= threshold)
    .sort((a, b) => fused[b]! - fused[a]! || laneCount[b]! - laneCount[a]! || compare(keyOf(a), keyOf(b)))
    .slice(0, limit);
  const hits = best.map((slot): FusedSlot => ({ slot, score: fused[slot]!, lanes: {}, contributions: {} }));
  const position = new Map(best.map((slot, i) => [slot, i]));
  lanes.forEach(({ lane, weight, slots, scores }, l) => {
    const own = new Float64Array(best.length);
    if (slots) {
      for (let i = 0; i < slots.length; i++) {
        const at = position.get(slots[i]!);
        if (at !== undefined) own[at] = scores[i]!;
      }
    } else best.forEach((slot, at) => (own[at] = scores[slot] ?? 0));
    const ranks = ranksOf(own, scores);
    hits.forEach((hit, i) => {
      if (!(own[i]! > 0)) return;
      hit.lanes[lane] = ranks[i]!;
      hit.contributions[lane] = weight * scales[l]! * own[i]!;
    });
  });
  return hits;
}

/**
 * The `k`-th largest positive value among `values[at(0)]` … `values[at(count − 1)]`, or
 * -Infinity when there are fewer than `k` (a min-heap of the k largest seen).
 */
function kthLargest(values: ArrayLike<number>, count: number, k: number, at: (i: number) => number): number {
  if (count < k || k <= 0) return -Infinity;
  const heap = new Float64Array(k);
  let size = 0;
  for (let n = 0; n < count; n++) {
    const value = values[at(n)]!;
    if (!(value > 0)) continue;
    if (size < k) {
      let i = size++;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (heap[parent]! <= value) break;
        heap[i] = heap[parent]!;
        i = parent;
      }
      heap[i] = value;
    } else if (value > heap[0]!) {
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        if (left >= k) break;
        const child = left + 1 < k && heap[left + 1]! < heap[left]! ? left + 1 : left;
        if (heap[child]! >= value) break;
        heap[i] = heap[child]!;
        i = child;
      }
      heap[i] = value;
    }
  }
  return size < k ? -Infinity : heap[0]!;
}

/** Each of `own`'s rank among `scores`: 1 + how many scores are higher (one pass, a binary search each). */
function ranksOf(own: Float64Array, scores: ArrayLike<number>): number[] {
  const ascending = Float64Array.from(own).sort();
  // higherThan[j]: how many scores exceed ascending[j], summed from the counts of scores
  // falling just above each value.
  const above = new Float64Array(ascending.length + 1);
  // A score not above the lowest of `own` exceeds none of them (most of a lane's scores).
  const lowest = ascending.length > 0 ? Math.max(0, ascending[0]!) : Infinity;
  for (let i = 0; i < scores.length; i++) {
    const score = scores[i]!;
    if (!(score > lowest)) continue;
    // How many of ascending are below score: the score is higher than each of those.
    let lo = 0;
    let hi = ascending.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ascending[mid]! < score) lo = mid + 1;
      else hi = mid;
    }
    above[lo] = above[lo]! + 1;
  }
  // A score counted at index lo exceeds ascending[0..lo-1].
  const higherThan = new Float64Array(ascending.length);
  let running = 0;
  for (let j = ascending.length - 1; j >= 0; j--) {
    running += above[j + 1]!;
    higherThan[j] = running;
  }
  return Array.from(own, (value) => {
    let lo = 0;
    let hi = ascending.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ascending[mid]! < value) lo = mid + 1;
      else hi = mid;
    }
    return (higherThan[lo] ?? 0) + 1;
  });
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
