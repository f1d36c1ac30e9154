import { describe, expect, it } from 'vitest';
import { orthonormalise } from '../../../src/search/kernels/orthonormalise.js';
import { randomBlock, sameBits } from '../helpers.js';

/**
 * The specification: modified Gram-Schmidt, twice, one column after another — for each
 * earlier column i, d = Σ_r cᵢ[r] × cⱼ[r] (from zero, r ascending) and, unless d is zero,
 * cⱼ[r] = cⱼ[r] − d × cᵢ[r]; then cⱼ scaled by 1 / √(Σ_r cⱼ[r]²), or zeroed when that
 * norm is at most 1e-12.
 */
function plainOrthonormalise(x: Float64Array, rows: number, width: number): void {
  const column = (j: number): Float64Array => Float64Array.from({ length: rows }, (_, r) => x[r * width + j]!);
  const columns = Array.from({ length: width }, (_, j) => column(j));
  for (let pass = 0; pass < 2; pass++) {
    columns.forEach((cj, j) => {
      for (const ci of columns.slice(0, j)) {
        let dot = 0;
        for (let r = 0; r < rows; r++) dot += ci[r]! * cj[r]!;
        if (dot !== 0) for (let r = 0; r < rows; r++) cj[r] = cj[r]! - dot * ci[r]!;
      }
      let norm = 0;
      for (let r = 0; r < rows; r++) norm += cj[r]! * cj[r]!;
      norm = Math.sqrt(norm);
      const scale = norm > 1e-12 ? 1 / norm : 0;
      for (let r = 0; r < rows; r++) cj[r] = cj[r]! * scale;
    });
  }
  columns.forEach((cj, j) => cj.forEach((value, r) => (x[r * width + j] = value)));
}

type Damage = 'none' | 'duplicate column' | 'zero columns' | 'huge and tiny';

function damaged(x: Float64Array, rows: number, width: number, damage: Damage): Float64Array {
  for (let r = 0; r < rows; r++) {
    const row = r * width;
    if (damage === 'duplicate column') x[row + 5] = x[row + 2]!;
    if (damage === 'zero columns') x[row + 1] = x[row + 6] = 0;
    if (damage === 'huge and tiny') x[row + 9] = r % 2 ? 1e150 : -1e-150;
  }
  return x;
}

describe('orthonormalise', () => {
  it.each<[number, number, Damage]>([
    [10, 1, 'none'],
    [10, 3, 'none'],
    [12, 4, 'none'],
    [20, 7, 'none'],
    [50, 8, 'none'],
    [5, 9, 'none'],
    [100, 13, 'none'],
    [300, 40, 'none'],
    [30, 10, 'duplicate column'],
    [30, 12, 'zero columns'],
    [40, 17, 'huge and tiny'],
  ])('gives %i rows × %i columns (%s) the results of one column after another, to the bit', (rows, width, damage) => {
    const x = damaged(randomBlock(rows * 7 + width, rows * width), rows, width, damage);
    const expected = Float64Array.from(x);
    plainOrthonormalise(expected, rows, width);
    orthonormalise(x, rows, width);
    expect(sameBits(expected, x)).toBe(true);
  });

  it('leaves orthonormal columns, and zero for a column that collapses', () => {
    const rows = 30;
    const width = 10;
    const x = damaged(randomBlock(9, rows * width), rows, width, 'duplicate column');
    orthonormalise(x, rows, width);
    const dot = (i: number, j: number): number => {
      let sum = 0;
      for (let r = 0; r < rows; r++) sum += x[r * width + i]! * x[r * width + j]!;
      return sum;
    };
    for (let i = 0; i < width; i++) {
      for (let j = 0; j < width; j++) {
        const expected = i === j && i !== 5 ? 1 : 0;
        expect(Math.abs(dot(i, j) - expected)).toBeLessThan(1e-9);
      }
    }
  });
});
