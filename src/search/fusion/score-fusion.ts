import type { LaneName } from '../types.js';
import { kthLargest, kthLargestAt } from '../kernels/kth-largest.js';

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
  const { best, fused, scales } = fuseBest(lanes, slotCount, limit, tieKey);
  return describeHits(lanes, slotCount, best, fused, scales);
}

/**
 * The `limit` best slots of `fuseLaneScores`, in its order, without each lane's rank and
 * contribution (a pass over every lane's scores that a caller wanting only the slots,
 * the feedback round, need not pay).
 */
export function bestFusedSlots(lanes: readonly LaneScores[], slotCount: number, limit: number, tieKey: (slot: number) => string): number[] {
  return fuseBest(lanes, slotCount, limit, tieKey).best;
}

/** The fused scores by slot, each lane's scale, and the `limit` best slots in order. */
function fuseBest(
  lanes: readonly LaneScores[],
  slotCount: number,
  limit: number,
  tieKey: (slot: number) => string,
): { best: number[]; fused: Float64Array; scales: number[] } {
  const sums = new FusedSums(slotCount);
  const scales = lanes.map(({ scores, absolute }) => {
    if (absolute) return 1;
    const max = largestOf(scores);
    return max > 0 ? 1 / max : 0;
  });
  // A lane scoring every page (the semantic lane) comes last. A page only it scored ranks
  // by that score alone, so only its `limit` best such pages can make the list: pages
  // below its limit-th best score join only where another lane scored them too.
  const denseCount = lanes.filter((lane) => !lane.slots).length;
  const order = lanes.map((_, l) => l).sort((a, b) => Number(!lanes[a]!.slots) - Number(!lanes[b]!.slots));
  // Every page's terms are added in the same lane order.
  for (const l of order) {
    const { weight, slots, scores } = lanes[l]!;
    const scale = weight * scales[l]!;
    if (slots) sums.addListed(slots, scores, scale);
    else sums.addDense(scores, scale, denseCount === 1 ? kthLargest(scores, scores.length, limit) : -Infinity);
  }
  const { fused, laneCount, touched, touchedCount } = sums;
  const keys = new Map<number, string>();
  const keyOf = (slot: number): string => {
    let key = keys.get(slot);
    if (key === undefined) keys.set(slot, (key = tieKey(slot)));
    return key;
  };
  // Only pages scoring at least the limit-th best score can make the list: that score is
  // found among plain numbers, and only those pages are compared in full.
  const threshold = kthLargestAt(fused, touched, touchedCount, limit);
  const contenders: number[] = [];
  for (let i = 0; i < touchedCount; i++) if (fused[touched[i]!]! >= threshold) contenders.push(touched[i]!);
  const best = contenders.sort((a, b) => fused[b]! - fused[a]! || laneCount[b]! - laneCount[a]! || compare(keyOf(a), keyOf(b))).slice(0, limit);
  return { best, fused, scales };
}

/**
 * The fused scores by slot as lanes are added, how many lanes scored each slot, and the
 * slots scored, in the order first scored. Each kind of lane is summed by a small method
 * of its own (listed slots, or every slot): the feedback round's fusion runs them first,
 * and in a fresh process V8 has optimised them by the final fusion.
 */
class FusedSums {
  readonly fused: Float64Array;
  readonly laneCount: Uint8Array;
  readonly touched: Int32Array;
  touchedCount = 0;

  constructor(slotCount: number) {
    this.fused = new Float64Array(slotCount);
    this.laneCount = new Uint8Array(slotCount);
    this.touched = new Int32Array(slotCount);
  }

  /** A lane's positive scores of the listed slots, times `scale`. */
  addListed(slots: ArrayLike<number>, scores: ArrayLike<number>, scale: number): void {
    const { fused, laneCount, touched } = this;
    let touchedCount = this.touchedCount;
    for (let i = 0; i < scores.length; i++) {
      const score = scores[i]!;
      if (!(score > 0)) continue;
      const slot = slots[i]!;
      if (laneCount[slot] === 0) touched[touchedCount++] = slot;
      laneCount[slot]!++;
      fused[slot] = fused[slot]! + scale * score;
    }
    this.touchedCount = touchedCount;
  }

  /** A lane's positive scores by slot, times `scale`; a slot no lane scored before joins only at `floor` or above. */
  addDense(scores: ArrayLike<number>, scale: number, floor: number): void {
    const { fused, laneCount, touched } = this;
    let touchedCount = this.touchedCount;
    for (let slot = 0; slot < scores.length; slot++) {
      const score = scores[slot]!;
      if (!(score > 0)) continue;
      if (laneCount[slot] === 0) {
        if (score < floor) continue;
        touched[touchedCount++] = slot;
      }
      laneCount[slot]!++;
      fused[slot] = fused[slot]! + scale * score;
    }
    this.touchedCount = touchedCount;
  }
}

/** The largest of `values`, or 0 when none is above 0. */
function largestOf(values: ArrayLike<number>): number {
  let max = 0;
  for (let i = 0; i < values.length; i++) if (values[i]! > max) max = values[i]!;
  return max;
}

/** The best slots as hits: fused score, and each lane's rank and contribution where it scored the page. */
function describeHits(lanes: readonly LaneScores[], slotCount: number, best: readonly number[], fused: Float64Array, scales: readonly number[]): FusedSlot[] {
  const hits = best.map((slot): FusedSlot => ({ slot, score: fused[slot]!, lanes: {}, contributions: {} }));
  // 1 + the hit's position, by slot (0: not a hit).
  const position = new Int32Array(slotCount);
  best.forEach((slot, i) => (position[slot] = i + 1));
  lanes.forEach(({ lane, weight, slots, scores }, l) => {
    const own = new Float64Array(best.length);
    if (slots) {
      for (let i = 0; i < slots.length; i++) {
        const at = position[slots[i]!] ?? 0;
        if (at > 0) own[at - 1] = scores[i]!;
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
 * Each positive value of `own`'s rank among `scores`: 1 + how many scores are higher (one
 * pass, a binary search each); 0 for a value not above 0 (a lane that did not score the page).
 */
function ranksOf(own: Float64Array, scores: ArrayLike<number>): number[] {
  const ascending = own.filter((value) => value > 0).sort();
  // A score not above the lowest of them exceeds none (most of a lane's scores).
  const lowest = ascending.length > 0 ? ascending[0]! : Infinity;
  // above[j]: how many scores exceed ascending[j − 1] but not ascending[j].
  const above = new Float64Array(ascending.length + 1);
  for (let i = 0; i < scores.length; i++) {
    const score = scores[i]!;
    if (!(score > lowest)) continue;
    above[countBelow(ascending, score)]!++;
  }
  // higherThan[j]: how many scores exceed ascending[j].
  const higherThan = new Float64Array(ascending.length);
  let running = 0;
  for (let j = ascending.length - 1; j >= 0; j--) {
    running += above[j + 1]!;
    higherThan[j] = running;
  }
  return Array.from(own, (value) => (value > 0 ? higherThan[countBelow(ascending, value)]! + 1 : 0));
}

/** How many of the sorted `ascending` are below `value`. */
function countBelow(ascending: Float64Array, value: number): number {
  let lo = 0;
  let hi = ascending.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ascending[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
