import { describe, expect, it } from 'vitest';
import { multiply, multiplyTransposed, orthonormalise, seededRandom, type SparseRows } from '../../src/search/linalg.js';

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

function randomBlock(seed: number, size: number): Float64Array {
  const random = seededRandom(seed);
  return Float64Array.from({ length: size }, () => random() - 0.5);
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

function sameBits(expected: Float64Array, actual: Float64Array): boolean {
  return expected.length === actual.length && expected.every((value, i) => Object.is(value, actual[i]));
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
