import { describe, expect, it } from 'vitest';
import { fuseRankings, poolSize, type LaneRanking } from '../../../src/search/fusion/rrf.js';

describe('fuseRankings (weighted reciprocal rank fusion)', () => {
  it('adds weight / (K + rank) over the lanes that ranked a page', () => {
    const rankings: LaneRanking[] = [
      { lane: 'lexical', weight: 1.5, ids: ['a', 'b'] },
      { lane: 'semantic', weight: 2, ids: ['b', 'c'] },
      { lane: 'token', weight: 0.75, ids: ['c'] },
    ];
    const fused = fuseRankings(rankings, 60);
    const byId = Object.fromEntries(fused.map((hit) => [hit.id, hit]));
    expect(byId.a?.score).toBeCloseTo(1.5 / 61, 12);
    expect(byId.b?.score).toBeCloseTo(1.5 / 62 + 2 / 61, 12);
    expect(byId.c?.score).toBeCloseTo(2 / 62 + 0.75 / 61, 12);
    expect(byId.b?.lanes).toEqual({ lexical: 2, semantic: 1 });
    expect(byId.c?.contributions).toEqual({ semantic: 2 / 62, token: 0.75 / 61 });
    expect(fused.map((hit) => hit.id)).toEqual(['b', 'c', 'a']);
  });

  it('uses K: a smaller K favours top ranks more', () => {
    const rankings: LaneRanking[] = [
      { lane: 'lexical', weight: 1, ids: ['x', 'y'] },
      { lane: 'semantic', weight: 1, ids: ['z', 'q', 'y'] },
    ];
    // K = 0: x = z = 1, y = 1/2 + 1/3, q = 1/2. K = 60: y = 1/62 + 1/63 beats x = z = 1/61.
    expect(fuseRankings(rankings, 0).map((h) => h.id)).toEqual(['x', 'z', 'y', 'q']);
    expect(fuseRankings(rankings, 60).map((h) => h.id)).toEqual(['y', 'x', 'z', 'q']);
  });

  // Each row: rankings → expected order. Equal scores fall to lanes matched, then key, then id.
  const tieTable: Array<{ name: string; rankings: LaneRanking[]; keys?: Record<string, string>; order: string[] }> = [
    {
      name: 'equal score, more lanes first',
      // p: lexical #1 + token #1 with weights 1 and 1 → 2/61; q: semantic #1 with weight 2 → 2/61.
      rankings: [
        { lane: 'lexical', weight: 1, ids: ['p'] },
        { lane: 'semantic', weight: 2, ids: ['q'] },
        { lane: 'token', weight: 1, ids: ['p'] },
      ],
      order: ['p', 'q'],
    },
    {
      name: 'equal score and lanes, key order',
      rankings: [
        { lane: 'lexical', weight: 1, ids: ['path/2'] },
        { lane: 'token', weight: 1, ids: ['path/1'] },
      ],
      keys: { 'path/1': 'zeta', 'path/2': 'alpha' },
      order: ['path/2', 'path/1'],
    },
    {
      name: 'equal score, lanes and key: id order',
      rankings: [
        { lane: 'lexical', weight: 1, ids: ['b/x'] },
        { lane: 'token', weight: 1, ids: ['a/x'] },
      ],
      keys: { 'a/x': 'x', 'b/x': 'x' },
      order: ['a/x', 'b/x'],
    },
    {
      name: 'a higher score wins over more lanes',
      rankings: [
        { lane: 'lexical', weight: 0.1, ids: ['many'] },
        { lane: 'token', weight: 0.1, ids: ['many'] },
        { lane: 'semantic', weight: 1, ids: ['one'] },
      ],
      order: ['one', 'many'],
    },
  ];
  it.each(tieTable)('tie-break: $name', ({ rankings, keys, order }) => {
    const fused = fuseRankings(rankings, 60, (id) => keys?.[id] ?? id);
    expect(fused.map((hit) => hit.id)).toEqual(order);
  });

  it('counts a page once per lane (its best rank)', () => {
    const fused = fuseRankings([{ lane: 'lexical', weight: 1, ids: ['a', 'a'] }], 60);
    expect(fused).toHaveLength(1);
    expect(fused[0]?.lanes.lexical).toBe(1);
  });

  it('gives each lane a pool of max(pool, 3 × limit)', () => {
    expect(poolSize(25, 5)).toBe(25);
    expect(poolSize(25, 10)).toBe(30);
    expect(poolSize(25, 100)).toBe(300);
  });
});
