import { describe, expect, it } from 'vitest';
import { kthLargest, kthLargestAt } from '../../../src/search/kernels/kth-largest.js';
import { seededRandom } from '../../../src/search/kernels/linalg.js';

/** The definition: the positive values sorted, the k-th from the top; -Infinity when there are fewer than k (or k < 1). */
function byDefinition(values: readonly number[], k: number): number {
  const positive = values.filter((value) => value > 0).sort((a, b) => b - a);
  return k >= 1 && positive.length >= k ? positive[k - 1]! : -Infinity;
}

describe('kthLargest / kthLargestAt', () => {
  it('give the k-th largest positive value, ties, zeros, negatives and NaN among them', () => {
    const random = seededRandom(9);
    for (let round = 0; round < 200; round++) {
      const length = Math.floor(random() * 60);
      // Coarse values so that many tie; some not above 0, some not numbers.
      const values = Float64Array.from({ length }, () => {
        const roll = random();
        return roll < 0.1 ? Number.NaN : roll < 0.3 ? -Math.round(random() * 4) : Math.round(random() * 8) / 4;
      });
      // Every other slot, in another order: the values read through an index array.
      const at = Int32Array.from(Array.from({ length }, (_, i) => i).filter((i) => i % 2 === 0).reverse());
      for (const k of [0, 1, 2, 3, 5, 10, 30, length, length + 1]) {
        expect(kthLargest(values, length, k), `round ${round}, k ${k}`).toBe(byDefinition(Array.from(values), k));
        expect(kthLargestAt(values, at, at.length, k), `round ${round}, k ${k}, through an index`).toBe(byDefinition(Array.from(at, (i) => values[i]!), k));
      }
    }
  });

  it('read only the first `count` values', () => {
    expect(kthLargest([1, 2, 9], 2, 1)).toBe(2);
    expect(kthLargestAt([1, 2, 9], Int32Array.of(2, 0, 1), 2, 2)).toBe(1);
  });
});
