import { createHash } from 'node:crypto';
import { distance } from 'fastest-levenshtein';

/** The dedupe key of a fact: case, width, quotes, spacing and trailing punctuation folded away. */
export function normalizeFact(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[‘’]/g, "'")
    .replace(/[“”]/g, '"')
    .replace(/[–—]/g, '-')
    .replace(/\s+/g, ' ')
    .replace(/[\s.!?;:,]+$/u, '')
    .trim();
}

/** A fact's id: stable for the normalised text it was first seen with. */
export function factId(normalized: string): string {
  return `f-${createHash('sha256').update(normalized).digest('hex').slice(0, 12)}`;
}

/** 1 − edit distance / longer length: 1 for equal texts, near 0 for unrelated ones. */
export function editSimilarity(a: string, b: string): number {
  const longer = Math.max(a.length, b.length);
  if (longer === 0) return 1;
  return 1 - distance(a, b) / longer;
}

/** Lengths alone bound the distance from below: a cheap test that spares the quadratic one. */
export function couldBeSimilar(a: string, b: string, threshold: number): boolean {
  const longer = Math.max(a.length, b.length);
  return longer === 0 || 1 - Math.abs(a.length - b.length) / longer >= threshold;
}

/** The candidate whose normalized text is most similar to `norm`, at `threshold` or above (the last of equals). */
export function closestOf<Row extends { norm: string }>(norm: string, candidates: Iterable<Row>, threshold: number): Row | undefined {
  let best: Row | undefined;
  let bestScore = threshold;
  for (const row of candidates) {
    if (!couldBeSimilar(norm, row.norm, bestScore)) continue;
    const score = editSimilarity(norm, row.norm);
    if (score >= bestScore) {
      best = row;
      bestScore = score;
    }
  }
  return best;
}
