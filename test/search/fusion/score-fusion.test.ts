import { describe, expect, it } from 'vitest';
import { bestFusedSlots, fuseLaneScores, type FusedSlot, type LaneScores } from '../../../src/search/fusion/score-fusion.js';
import { seededRandom } from '../../../src/search/kernels/linalg.js';

const byName = (slot: number): string => 'abcdefgh'[slot] ?? String(slot);

describe('fuseLaneScores (weighted fusion of each lane’s scores over every page it scored)', () => {
  it('divides each lane by its best score and sums the weighted shares', () => {
    const lanes: LaneScores[] = [
      { lane: 'lexical', weight: 1, slots: [0, 1, 2], scores: [10, 6, 2] },
      { lane: 'semantic', weight: 2, slots: [2, 1], scores: [0.9, 0.45] },
    ];
    const fused = fuseLaneScores(lanes, 3, 10, byName);
    const bySlot = new Map(fused.map((hit) => [hit.slot, hit]));
    expect(bySlot.get(0)?.score).toBeCloseTo(1, 12);
    expect(bySlot.get(1)?.score).toBeCloseTo(0.6 + 1, 12);
    expect(bySlot.get(2)?.score).toBeCloseTo(0.2 + 2, 12);
    expect(fused.map((hit) => hit.slot)).toEqual([2, 1, 0]);
    expect(bySlot.get(2)?.lanes).toEqual({ lexical: 3, semantic: 1 });
    for (const hit of fused) expect(Object.values(hit.contributions).reduce((s, x) => s + x, 0)).toBeCloseTo(hit.score, 12);
  });

  it('keeps a page far ahead in one lane and close behind in the other first, where rank fusion ties it', () => {
    const fused = fuseLaneScores(
      [
        { lane: 'lexical', weight: 1, slots: [0, 1, 2], scores: [20, 2, 1.9] },
        { lane: 'semantic', weight: 1, slots: [1, 0, 2], scores: [0.31, 0.3, 0.1] },
      ],
      3,
      3,
      byName,
    );
    expect(fused[0]?.slot).toBe(0);
  });

  it('breaks equal scores by how many lanes scored the page, then by key', () => {
    const fused = fuseLaneScores(
      [
        { lane: 'token', weight: 1, slots: [3, 1, 0], scores: [2, 2, 1] },
        { lane: 'lexical', weight: 1, slots: [0], scores: [1] },
      ],
      4,
      10,
      byName,
    );
    expect(fused.map((hit) => [byName(hit.slot), hit.score])).toEqual([
      ['a', 1.5],
      ['b', 1],
      ['d', 1],
    ]);
  });

  it('takes a lane on a fixed scale (cosines) as it is: its small differences stay small', () => {
    const lanes: LaneScores[] = [
      { lane: 'lexical', weight: 1, slots: [0, 1], scores: [10, 8] },
      { lane: 'semantic', weight: 1.5, slots: [0, 1], scores: [0.9, 0.95], absolute: true },
    ];
    const fused = fuseLaneScores(lanes, 2, 2, byName);
    expect(fused.map((hit) => hit.slot)).toEqual([0, 1]);
    expect(fused[0]?.contributions.semantic).toBeCloseTo(1.5 * 0.9, 12);
  });

  it('gives every page the same score and the best pages the same order whatever the limit', () => {
    // Random lanes over 500 pages, many scores tied: the top must not move with the limit.
    let seed = 7;
    const random = (): number => ((seed = (seed * 48271) % 2147483647) / 2147483647);
    const slots = Array.from({ length: 500 }, (_, i) => i);
    const lanes = (
      [
        { lane: 'lexical', weight: 1, slots: slots.filter(() => random() < 0.6), scores: [] },
        { lane: 'token', weight: 0.2, slots: slots.filter(() => random() < 0.6), scores: [] },
      ] satisfies LaneScores[]
    ).map((lane): LaneScores => ({ ...lane, scores: lane.slots.map(() => Math.round(random() * 20) / 20) }));
    // A lane scoring every page gives its scores by slot.
    lanes.push({ lane: 'semantic', weight: 1.5, scores: slots.map(() => Math.round(random() * 20) / 20), absolute: true });
    const key = (slot: number): string => `page-${slot % 50}`;
    const top = (limit: number) => fuseLaneScores(lanes, 500, limit, key).slice(0, 5);
    const reference = top(5);
    for (const limit of [10, 50, 200, 500]) expect(top(limit)).toEqual(reference);
    const all = new Map(fuseLaneScores(lanes, 500, 500, key).map((hit) => [hit.slot, hit.score]));
    for (const hit of fuseLaneScores(lanes, 500, 20, key)) expect(hit.score).toBe(all.get(hit.slot));
  });

  it('equals the straightforward definition on random lanes: every page scored, all sorted, ranks counted (and bestFusedSlots its slots)', () => {
    const random = seededRandom(14);
    for (let round = 0; round < 60; round++) {
      const pages = 1 + Math.floor(random() * 400);
      // Coarse scores so that many tie, within a lane and after fusion.
      const score = (): number => (random() < 0.15 ? 0 : Math.round(random() * 12) / 4);
      const lanes: LaneScores[] = [];
      for (const lane of ['lexical', 'token', 'semantic'] as const) {
        if (random() < 0.2) continue;
        const weight = [0.2, 1, 1.5][Math.floor(random() * 3)]!;
        if (lane === 'semantic' || random() < 0.15) {
          const scores = Array.from({ length: pages }, () => (random() < 0.3 ? -score() : score() / 3));
          lanes.push({ lane, weight, scores, absolute: random() < 0.7 });
        } else {
          const slots = Array.from({ length: pages }, (_, i) => i).filter(() => random() < 0.5);
          lanes.push({ lane, weight, slots, scores: slots.map(score) });
        }
      }
      // Keys are unique (as the engine's key and path are), in an order unlike the slots'.
      const key = (slot: number): string => `page-${String((slot * 7) % 1009).padStart(4, '0')}`;
      for (const limit of [1, 3, 10, 50, pages + 5]) {
        const expected = byDefinition(lanes, pages, limit, key);
        expect(fuseLaneScores(lanes, pages, limit, key), `round ${round}, limit ${limit}`).toEqual(expected);
        // The feedback round's selection alone: the same slots in the same order.
        expect(bestFusedSlots(lanes, pages, limit, key), `round ${round}, limit ${limit}`).toEqual(expected.map((hit) => hit.slot));
      }
    }
  });
});

/**
 * The specification, computed the plain way: every page's weighted share of each lane
 * (summed over the lanes that list their slots, then those scoring every page, each in the
 * order given), every page any lane scored sorted by score, then lanes that scored it, then
 * key; a page's rank in a lane is 1 + how many of the lane's scores are higher.
 */
function byDefinition(lanes: readonly LaneScores[], slotCount: number, limit: number, key: (slot: number) => string): FusedSlot[] {
  const listed = (lane: LaneScores): Array<[number, number]> =>
    Array.from(lane.scores, (score, i): [number, number] => [lane.slots ? lane.slots[i]! : i, score]).filter(([, score]) => score > 0);
  const ordered = [...lanes.filter((lane) => lane.slots), ...lanes.filter((lane) => !lane.slots)];
  const pages = new Map<number, FusedSlot>();
  const counts = new Map<number, number>();
  for (const lane of ordered) {
    const entries = listed(lane);
    const best = Math.max(0, ...entries.map(([, score]) => score));
    const scale = lane.absolute ? 1 : best > 0 ? 1 / best : 0;
    for (const [slot, score] of entries) {
      const page = pages.get(slot) ?? { slot, score: 0, lanes: {}, contributions: {} };
      pages.set(slot, page);
      page.score = page.score + lane.weight * scale * score;
      page.lanes[lane.lane] = 1 + entries.filter(([, other]) => other > score).length;
      page.contributions[lane.lane] = lane.weight * scale * score;
      counts.set(slot, (counts.get(slot) ?? 0) + 1);
    }
  }
  expect(Math.max(-1, ...pages.keys())).toBeLessThan(slotCount);
  const sortKey = (slot: number): string => key(slot);
  return [...pages.values()]
    .sort((a, b) => b.score - a.score || counts.get(b.slot)! - counts.get(a.slot)! || (sortKey(a.slot) < sortKey(b.slot) ? -1 : 1))
    .slice(0, limit);
}
