import { describe, expect, it } from 'vitest';
import { gatherProductInJs, seededRandom } from '../../src/search/linalg.js';
import { gatherProductInWasm } from '../../src/search/linalg-simd.js';

interface Product {
  lines: number;
  start: Uint32Array;
  sources: Uint32Array;
  values: Float64Array;
  x: Float64Array;
  width: number;
}

/** Lines of random entries (each source at most once, ascending) over a random dense block. */
function randomProduct(seed: number, lines: number, sourceRows: number, width: number, density: number, scale: number): Product {
  const random = seededRandom(seed);
  const start = new Uint32Array(lines + 1);
  const sources: number[] = [];
  const values: number[] = [];
  for (let i = 0; i < lines; i++) {
    // Every third line empty, so products meet empty lines between full ones.
    if (i % 3 !== 1) {
      for (let c = 0; c < sourceRows; c++) {
        if (random() >= density) continue;
        sources.push(c);
        values.push((random() - 0.5) * scale);
      }
    }
    start[i + 1] = sources.length;
  }
  const x = Float64Array.from({ length: sourceRows * width }, () => (random() - 0.5) * scale);
  return { lines, start, sources: Uint32Array.from(sources), values: Float64Array.from(values), x, width };
}

function firstDifference(expected: Float64Array, actual: Float64Array | undefined): string | undefined {
  if (!actual) return 'no result';
  if (actual.length !== expected.length) return `length ${actual.length}, not ${expected.length}`;
  for (let i = 0; i < expected.length; i++) {
    if (!Object.is(actual[i], expected[i])) return `element ${i}: ${actual[i]}, not ${expected[i]}`;
  }
  return undefined;
}

function inWasm(p: Product): Float64Array | undefined {
  return gatherProductInWasm(p.lines, p.start, p.sources, p.values, p.x, p.width);
}

function inJs(p: Product): Float64Array {
  return gatherProductInJs(p.lines, p.start, p.sources, p.values, p.x, p.width);
}

describe('gatherProductInWasm', () => {
  it.each([
    // lines, source rows, width, density, scale of values
    [1, 1, 1, 1, 1],
    [6, 9, 1, 0.5, 1],
    [10, 13, 2, 0.4, 1],
    [25, 40, 3, 0.3, 1],
    [30, 30, 5, 0.3, 10],
    [40, 20, 8, 0.5, 1],
    [40, 20, 9, 0.5, 1],
    [17, 50, 17, 0.2, 1e3],
    [60, 300, 31, 0.05, 1],
    [120, 200, 136, 0.05, 1],
    [200, 90, 128, 0.1, 1],
    [9, 30, 12, 0.6, 1e150], // products near the top of the range, some overflowing to ±Infinity
    [9, 30, 11, 0.6, 1e-160], // products that underflow to subnormals and zero
  ])('gives %i lines × %i source rows, width %i, the JavaScript loop’s results to the bit', (lines, sourceRows, width, density, scale) => {
    const product = randomProduct(lines * 31 + width, lines, sourceRows, width, density, scale);
    expect(firstDifference(inJs(product), inWasm(product))).toBeUndefined();
  });

  it('gives zeros for lines without entries and for a matrix without any', () => {
    const product = randomProduct(5, 12, 10, 6, 0, 1);
    const result = inWasm(product);
    expect(result && Array.from(result)).toEqual(new Array<number>(12 * 6).fill(0));
  });

  it('leaves nothing of one product in the next, larger or smaller', () => {
    const shapes: Array<[number, number, number]> = [
      [300, 200, 40],
      [20, 10, 7],
      [500, 400, 24],
      [8, 5, 3],
    ];
    shapes.forEach(([lines, sourceRows, width], k) => {
      const product = randomProduct(100 + k, lines, sourceRows, width, 0.2, 1);
      expect(firstDifference(inJs(product), inWasm(product))).toBeUndefined();
    });
  });

  it('reads only the entries the lines name, however long the arrays holding them', () => {
    const product = randomProduct(7, 20, 15, 10, 0.4, 1);
    const padded = {
      ...product,
      sources: Uint32Array.from([...product.sources, 3, 4]),
      values: Float64Array.from([...product.values, Number.NaN, 1]),
    };
    expect(firstDifference(inJs(product), inWasm(padded))).toBeUndefined();
  });

  it('returns an array of its own, which later products leave alone', () => {
    const first = randomProduct(21, 30, 20, 6, 0.3, 1);
    const kept = inWasm(first)!;
    const copy = Float64Array.from(kept);
    inWasm(randomProduct(22, 40, 25, 6, 0.3, 1));
    expect(firstDifference(copy, kept)).toBeUndefined();
  });

  it('declines a width of zero', () => {
    expect(inWasm({ ...randomProduct(3, 4, 4, 1, 0.5, 1), width: 0 })).toBeUndefined();
  });
});
