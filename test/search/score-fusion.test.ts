import { describe, expect, it } from 'vitest';
import { fuseScores, type ScoredLaneRanking } from '../../src/search/score-fusion.js';

describe('fuseScores (weighted fusion of each lane’s scaled scores)', () => {
  it('scales each lane to [0, 1] over its hits and sums the weighted shares', () => {
    const rankings: ScoredLaneRanking[] = [
      { lane: 'lexical', weight: 1, ids: ['a', 'b', 'c'], scores: [10, 6, 2] },
      { lane: 'semantic', weight: 2, ids: ['c', 'b'], scores: [0.9, 0.5] },
    ];
    const fused = fuseScores(rankings);
    const byId = new Map(fused.map((hit) => [hit.id, hit]));
    expect(byId.get('a')?.score).toBeCloseTo(1, 12);
    expect(byId.get('b')?.score).toBeCloseTo(0.5 + 0, 12);
    expect(byId.get('c')?.score).toBeCloseTo(0 + 2, 12);
    expect(fused.map((hit) => hit.id)).toEqual(['c', 'a', 'b']);
    expect(byId.get('c')?.lanes).toEqual({ lexical: 3, semantic: 1 });
    for (const hit of fused) expect(Object.values(hit.contributions).reduce((s, x) => s + x, 0)).toBeCloseTo(hit.score, 12);
  });

  it('keeps a page far ahead in one lane and close behind in the other first, where rank fusion ties it', () => {
    const fused = fuseScores([
      { lane: 'lexical', weight: 1, ids: ['rare', 'x', 'y'], scores: [20, 2, 1.9] },
      { lane: 'semantic', weight: 1, ids: ['x', 'rare', 'y'], scores: [0.31, 0.3, 0.1] },
    ]);
    expect(fused[0]?.id).toBe('rare');
  });

  it('gives every hit of a lane whose scores are all equal the full weight, and breaks ties by key', () => {
    const fused = fuseScores([{ lane: 'token', weight: 0.5, ids: ['b', 'a'], scores: [3, 3] }], (id) => id);
    expect(fused.map((hit) => [hit.id, hit.score])).toEqual([
      ['a', 0.5],
      ['b', 0.5],
    ]);
  });

  it('takes a lane on a fixed scale (cosines) as it is: its small differences stay small', () => {
    const rankings: ScoredLaneRanking[] = [
      { lane: 'lexical', weight: 1, ids: ['a', 'b'], scores: [10, 8] },
      { lane: 'semantic', weight: 1.5, ids: ['b', 'a'], scores: [0.95, 0.9], absolute: true },
    ];
    const fused = fuseScores(rankings);
    expect(fused.map((hit) => hit.id)).toEqual(['a', 'b']);
    expect(fused[0]?.contributions.semantic).toBeCloseTo(1.5 * 0.9, 12);
    // Scaled over its hits instead, the same lane would put b first.
    expect(fuseScores(rankings.map((r) => ({ ...r, absolute: false })))[0]?.id).toBe('b');
  });
});
