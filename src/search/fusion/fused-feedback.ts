import { bestFusedSlots, type LaneScores } from './score-fusion.js';

/**
 * The second round of the semantic lane's pseudo-relevance feedback. The first round moves
 * the query towards the lexical lane's best pages; the lexical and first-round semantic
 * scores fused rank better than the lexical lane alone, so their best pages steer the query
 * once more (from the query as embedded). The token lane is left out of this fusion: with
 * it, both development sets came out lower (docs/search-eval.md). Returns those pages'
 * slots, or undefined when they are the first round's pages (the query would move the same
 * way) or the first round had none.
 *
 * Every score it reads depends only on the query and the page, so the pages it picks, and
 * with them every page's final score, do not depend on the limit.
 */
export function fusedFeedbackSlots(
  lanes: readonly LaneScores[],
  slotCount: number,
  count: number,
  firstRound: readonly number[],
  tieKey: (slot: number) => string,
): number[] | undefined {
  // Without a first round (no lexical pages) the fused best are the semantic lane's own:
  // feeding them back cost the semantic lane alone on CACM (0.257 → 0.206).
  if (count <= 0 || firstRound.length === 0) return undefined;
  const slots = bestFusedSlots(lanes, slotCount, count, tieKey);
  if (slots.length === 0) return undefined;
  const before = new Set(firstRound);
  const same = slots.length === before.size && slots.every((slot) => before.has(slot));
  return same ? undefined : slots;
}
