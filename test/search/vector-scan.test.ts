import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../src/search/linalg.js';
import { SimdScanner } from '../../src/search/vector-scan.js';

/** The specification: four running sums (elements 0, 4, 8 … in the first and so on), added in order. */
function dot(query: Float32Array, row: Float32Array): number {
  const sums = [0, 0, 0, 0];
  for (let j = 0; j < row.length; j++) sums[j % 4]! += query[j]! * row[j]!;
  return sums[0]! + sums[1]! + sums[2]! + sums[3]!;
}

function randomVector(random: () => number, dimensions: number): Float32Array {
  return Float32Array.from({ length: dimensions }, () => random() - 0.5);
}

describe('SimdScanner', () => {
  it.each([0, 6, 13])('is not offered for %i dimensions (not a positive multiple of four)', (dimensions) => {
    expect(SimdScanner.create(dimensions)).toBeUndefined();
  });

  it('gives every row the very dot product of four running sums, keeping rows as it grows', () => {
    const dimensions = 24;
    const random = seededRandom(11);
    const scanner = SimdScanner.create(dimensions)!;
    expect(scanner).toBeDefined();
    const rows: Float32Array[] = [];
    for (const capacity of [2, 5, 40, 3000]) {
      const view = scanner.resize(capacity);
      while (rows.length < capacity - 1) {
        const row = randomVector(random, dimensions);
        view.set(row, rows.length * dimensions);
        rows.push(row);
      }
      for (let q = 0; q < 3; q++) {
        const query = randomVector(random, dimensions);
        // The last slot was never written: zero, even where an earlier scan left its query or results.
        expect(Array.from(scanner.dots(query, capacity))).toEqual([...rows.map((row) => dot(query, row)), 0]);
      }
    }
  });
});
