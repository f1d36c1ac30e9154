import { describe, expect, it } from 'vitest';
import { multiply, multiplyTransposed, seededRandom, type SparseRows } from '../../../src/search/kernels/linalg.js';
import { randomBlock, sameBits } from '../helpers.js';

/** A random sparse matrix, every fourth row empty, with values of mixed magnitudes. */
function randomMatrix(seed: number, rows: number, cols: number, density: number): SparseRows {
  const random = seededRandom(seed);
  const rowStart = new Uint32Array(rows + 1);
  const indices: number[] = [];
  const values: number[] = [];
  for (let r = 0; r < rows; r++) {
    if (r % 4 !== 3) {
      // Columns in a shuffled order, as a page's terms come in order of first appearance.
      const columns = Array.from({ length: cols }, (_, c) => c).filter(() => random() < density);
      for (let i = columns.length - 1; i > 0; i--) {
        const k = Math.floor(random() * (i + 1));
        [columns[i], columns[k]] = [columns[k]!, columns[i]!];
      }
      for (const c of columns) {
        indices.push(c);
        values.push((random() - 0.5) * 10 ** Math.floor(random() * 6 - 3));
      }
    }
    rowStart[r + 1] = indices.length;
  }
  return { rows, cols, rowStart, indices: Uint32Array.from(indices), values: Float64Array.from(values) };
}

/**
 * The specification: each output element a sum from zero of value × x over the entries
 * that feed it, in the order given (a row's entries as stored; a column's by row ascending).
 */
function plainProduct(lines: Array<Array<[number, number]>>, x: Float64Array, width: number): Float64Array {
  const out = new Float64Array(lines.length * width);
  lines.forEach((entries, i) => {
    for (let j = 0; j < width; j++) {
      let sum = 0;
      for (const [source, value] of entries) sum += value * x[source * width + j]!;
      out[i * width + j] = sum;
    }
  });
  return out;
}

function rowsOf(a: SparseRows): Array<Array<[number, number]>> {
  return Array.from({ length: a.rows }, (_, r) => {
    const entries: Array<[number, number]> = [];
    for (let p = a.rowStart[r]!; p < a.rowStart[r + 1]!; p++) entries.push([a.indices[p]!, a.values[p]!]);
    return entries;
  });
}

function columnsOf(a: SparseRows): Array<Array<[number, number]>> {
  const columns = Array.from({ length: a.cols }, () => [] as Array<[number, number]>);
  rowsOf(a).forEach((entries, r) => entries.forEach(([c, value]) => columns[c]!.push([r, value])));
  return columns;
}

describe('sparse products', () => {
  // The small shapes stay in JavaScript; the large ones go to WebAssembly where it is available.
  it.each([
    [7, 5, 3, 0.5],
    [20, 30, 10, 0.3],
    [50, 40, 1, 0.5],
    [300, 500, 24, 0.05],
    [400, 700, 37, 0.05],
    [250, 600, 136, 0.04],
  ])('A × X and Aᵀ × Y for %i × %i, width %i, are the plain sums to the bit', (rows, cols, width, density) => {
    const a = randomMatrix(rows + cols + width, rows, cols, density);
    const x = randomBlock(width, cols * width);
    const y = randomBlock(width + 1, rows * width);
    expect(sameBits(plainProduct(rowsOf(a), x, width), multiply(a, x, width))).toBe(true);
    expect(sameBits(plainProduct(columnsOf(a), y, width), multiplyTransposed(a, y, width))).toBe(true);
  });
});
