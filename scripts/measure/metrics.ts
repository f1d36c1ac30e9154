/**
 * Retrieval metrics as the project reports them: nDCG@k with linear gains and a log2
 * rank discount (ideal DCG from the query's judged gains), and Recall@k over all judged
 * relevant documents.
 */
export type Judgements = ReadonlyMap<string, number>;

export function ndcgAt(ranked: readonly string[], judged: Judgements, k: number): number {
  let dcg = 0;
  ranked.slice(0, k).forEach((id, i) => {
    dcg += (judged.get(id) ?? 0) / Math.log2(i + 2);
  });
  const ideal = [...judged.values()]
    .filter((gain) => gain > 0)
    .sort((a, b) => b - a)
    .slice(0, k)
    .reduce((sum, gain, i) => sum + gain / Math.log2(i + 2), 0);
  return ideal === 0 ? 0 : dcg / ideal;
}

export function recallAt(ranked: readonly string[], judged: Judgements, k: number): number {
  const relevant = [...judged].filter(([, gain]) => gain > 0).map(([id]) => id);
  if (relevant.length === 0) return 0;
  const top = new Set(ranked.slice(0, k));
  return relevant.filter((id) => top.has(id)).length / relevant.length;
}

export interface Scores {
  ndcg10: number;
  recall10: number;
  recall100: number;
}

/** Mean metrics over queries; `runs` maps query id → ranked document ids. */
export function meanScores(runs: ReadonlyMap<string, readonly string[]>, qrels: ReadonlyMap<string, Judgements>): Scores {
  let ndcg10 = 0;
  let recall10 = 0;
  let recall100 = 0;
  let n = 0;
  for (const [queryId, judged] of qrels) {
    const ranked = runs.get(queryId) ?? [];
    ndcg10 += ndcgAt(ranked, judged, 10);
    recall10 += recallAt(ranked, judged, 10);
    recall100 += recallAt(ranked, judged, 100);
    n++;
  }
  return n === 0 ? { ndcg10: 0, recall10: 0, recall100: 0 } : { ndcg10: ndcg10 / n, recall10: recall10 / n, recall100: recall100 / n };
}

/** nDCG@10 of each judged query (a missing run counts as empty). */
export function ndcgByQuery(runs: ReadonlyMap<string, readonly string[]>, qrels: ReadonlyMap<string, Judgements>): Map<string, number> {
  return new Map([...qrels].map(([queryId, judged]) => [queryId, ndcgAt(runs.get(queryId) ?? [], judged, 10)]));
}

/** Queries grouped by how many documents are judged relevant to them: 1–2, 3–5, 6–15, 16 or more. */
export const RELEVANT_BUCKETS: ReadonlyArray<{ label: string; min: number; max: number }> = [
  { label: '1–2', min: 1, max: 2 },
  { label: '3–5', min: 3, max: 5 },
  { label: '6–15', min: 6, max: 15 },
  { label: '16+', min: 16, max: Infinity },
];

export interface BucketMean {
  label: string;
  queries: number;
  /** Mean of `perQuery` over the bucket's queries (0 when it has none). */
  mean: number;
}

/** The mean of a per-query figure within each bucket of `RELEVANT_BUCKETS`. */
export function meansByRelevantCount(perQuery: ReadonlyMap<string, number>, qrels: ReadonlyMap<string, Judgements>): BucketMean[] {
  return RELEVANT_BUCKETS.map(({ label, min, max }) => {
    let sum = 0;
    let queries = 0;
    for (const [queryId, judged] of qrels) {
      const relevant = [...judged.values()].filter((gain) => gain > 0).length;
      if (relevant < min || relevant > max) continue;
      sum += perQuery.get(queryId) ?? 0;
      queries++;
    }
    return { label, queries, mean: queries === 0 ? 0 : sum / queries };
  });
}
