import { describe, expect, it } from 'vitest';
import { meanScores, meansByRelevantCount, ndcgAt, ndcgByQuery, recallAt } from '../../../scripts/measure/metrics.js';

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

describe('figures by the number of relevant documents', () => {
  const relevant = (n: number) => new Map(Array.from({ length: n }, (_, i) => [`d${i}`, 1]));
  const qrels = new Map([
    ['one', relevant(1)],
    ['two', new Map([['d0', 2], ['d1', 1], ['d2', 0]])],
    ['four', relevant(4)],
    ['twenty', relevant(20)],
  ]);

  it('nDCG@10 per judged query, a missing run counting as 0', () => {
    const perQuery = ndcgByQuery(new Map([['one', ['d0']]]), qrels);
    expect([...perQuery]).toEqual([['one', 1], ['two', 0], ['four', 0], ['twenty', 0]]);
  });

  it('buckets queries by their relevant documents (a gain of 0 is not relevant) and averages within each', () => {
    const perQuery = new Map([['one', 1], ['two', 0.5], ['four', 0.25], ['twenty', 0.1]]);
    expect(meansByRelevantCount(perQuery, qrels)).toEqual([
      { label: '1–2', queries: 2, mean: 0.75 },
      { label: '3–5', queries: 1, mean: 0.25 },
      { label: '6–15', queries: 0, mean: 0 },
      { label: '16+', queries: 1, mean: 0.1 },
    ]);
  });
});
