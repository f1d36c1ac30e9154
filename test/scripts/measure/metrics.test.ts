import { describe, expect, it } from 'vitest';
import { meanScores, ndcgAt, recallAt } from '../../../scripts/measure/metrics.js';

describe('evaluation metrics', () => {
  const judged = new Map([
    ['d1', 3],
    ['d2', 2],
    ['d3', 1],
  ]);

  it('nDCG@k: linear gains, log2 discount, ideal from the judged gains', () => {
    expect(ndcgAt(['d1', 'd2', 'd3'], judged, 10)).toBeCloseTo(1, 12);
    const dcg = 1 / Math.log2(2) + 3 / Math.log2(3);
    const ideal = 3 + 2 / Math.log2(3) + 1 / Math.log2(4);
    expect(ndcgAt(['x', 'd1'], judged, 10)).toBeCloseTo((0 + 3 / Math.log2(3)) / ideal, 12);
    expect(ndcgAt(['d3', 'd1'], judged, 10)).toBeCloseTo(dcg / ideal, 12);
    expect(ndcgAt(['x', 'y'], judged, 10)).toBe(0);
    expect(ndcgAt(['x', 'd1'], judged, 1)).toBe(0);
  });

  it('Recall@k: share of the judged relevant documents in the top k', () => {
    expect(recallAt(['d1', 'x', 'd3'], judged, 10)).toBeCloseTo(2 / 3, 12);
    expect(recallAt(['d1', 'x', 'd3'], judged, 2)).toBeCloseTo(1 / 3, 12);
    expect(recallAt([], judged, 10)).toBe(0);
  });

  it('averages over the judged queries, counting a missing run as empty', () => {
    const qrels = new Map([
      ['q1', judged],
      ['q2', new Map([['d9', 1]])],
    ]);
    const scores = meanScores(new Map([['q1', ['d1', 'd2', 'd3']]]), qrels);
    expect(scores.ndcg10).toBeCloseTo(0.5, 12);
    expect(scores.recall10).toBeCloseTo(0.5, 12);
    expect(scores.recall100).toBeCloseTo(0.5, 12);
  });
});
