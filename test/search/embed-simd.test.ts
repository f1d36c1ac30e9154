import { afterEach, describe, expect, it, vi } from 'vitest';
import { embedPagesInWasm } from '../../src/search/embed-simd.js';
import { seededRandom } from '../../src/search/linalg.js';
import { LsaModel, termIdPages, type LsaParts } from '../../src/search/lsa.js';

type Vectors = ReadonlyArray<Float32Array | undefined>;

/** Model terms sort as their numbers do; words outside the model start with "x". */
const termName = (row: number): string => `t${String(row).padStart(6, '0')}`;

function randomParts(seed: number, rows: number, dimensions: number, scale = 1): LsaParts {
  const random = seededRandom(seed);
  return {
    terms: Array.from({ length: rows }, (_, row) => termName(row)),
    // Every seventh row weighs nothing.
    idf: Float32Array.from({ length: rows }, (_, row) => (row % 7 === 3 ? 0 : 0.2 + 3 * random())),
    basis: Float32Array.from({ length: rows * dimensions }, () => (random() - 0.5) * scale),
    dimensions,
    trainedPages: rows,
  };
}

/** Pages of up to `longest` terms, common rows far more often than rare ones, some words unknown. */
function randomPages(seed: number, rows: number, count: number, longest: number): string[][] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () =>
    Array.from({ length: Math.floor(random() * (longest + 1)) }, () =>
      random() < 0.1 ? `x${Math.floor(random() * 50)}` : termName(Math.floor(rows * random() ** 3)),
    ),
  );
}

/** The pages through the module, with the model rows of their vocabulary's ids. */
function inWasm(model: LsaModel, pages: string[][]): Vectors | undefined {
  const { vocabulary, pages: ids } = termIdPages(pages);
  const rows = Int32Array.from(vocabulary.terms, (term) => (term.startsWith('t') ? Number(term.slice(1)) : -1));
  return embedPagesInWasm(model, rows, ids);
}

/** The JavaScript loop, one page at a time. */
function inJs(model: LsaModel, pages: string[][]): Vectors {
  return pages.map((page) => model.embed(page));
}

function firstDifference(expected: Vectors, actual: Vectors | undefined): string | undefined {
  if (!actual) return 'no result';
  if (actual.length !== expected.length) return `${actual.length} vectors, not ${expected.length}`;
  for (let p = 0; p < expected.length; p++) {
    const [want, got] = [expected[p], actual[p]];
    if (!want || !got) {
      if (want !== got) return `page ${p}: ${got ? 'a vector' : 'none'}, not ${want ? 'a vector' : 'none'}`;
      continue;
    }
    if (got.length !== want.length) return `page ${p}: ${got.length} dimensions, not ${want.length}`;
    for (let j = 0; j < want.length; j++) {
      if (!Object.is(got[j], want[j])) return `page ${p}, dimension ${j}: ${got[j]}, not ${want[j]}`;
    }
  }
  return undefined;
}

describe('embedPagesInWasm', () => {
  it.each([1, 2, 3, 7, 8, 9, 13, 16, 31, 128])('gives %i-dimensional vectors of random pages the JavaScript loop’s to the bit', (dimensions) => {
    const model = LsaModel.fromParts(randomParts(dimensions, 400, dimensions));
    const pages = randomPages(dimensions + 1, 400, 150, 300);
    expect(firstDifference(inJs(model, pages), inWasm(model, pages))).toBeUndefined();
  });

  it.each([
    ['no terms', []],
    ['only words outside the model', ['x1', 'x2', 'x1']],
    ['only rows of weight zero', [termName(3), termName(10), termName(3)]],
    ['rows of weight zero among others', [termName(3), termName(4), termName(10), termName(5)]],
    ['one term many times', new Array<string>(5000).fill(termName(8))],
    ['repeats and unknown words interleaved', [termName(1), 'x1', termName(2), termName(1), 'x1', termName(2), termName(1)]],
    ['every row once, last to first', Array.from({ length: 60 }, (_, row) => termName(59 - row))],
  ])('agrees with the JavaScript loop on a page of %s', (_, page) => {
    const model = LsaModel.fromParts(randomParts(5, 60, 13));
    const pages = [page, [termName(2)], page];
    expect(firstDifference(inJs(model, pages), inWasm(model, pages))).toBeUndefined();
  });

  it('gives no vector where the JavaScript loop gives none', () => {
    const model = LsaModel.fromParts(randomParts(5, 60, 13));
    expect(inWasm(model, [[], ['x1'], [termName(3)]])).toEqual([undefined, undefined, undefined]);
  });

  it('agrees across calls: more pages than one call takes, and a page longer than a call’s usual room', () => {
    const model = LsaModel.fromParts(randomParts(9, 500, 12));
    const pages = randomPages(10, 500, 300, 50);
    pages.splice(130, 0, randomPages(11, 500, 1, 200_000)[0]!.concat(new Array<string>(70_000).fill(termName(1))));
    expect(pages[130]!.length).toBeGreaterThan(1 << 16);
    expect(firstDifference(inJs(model, pages), inWasm(model, pages))).toBeUndefined();
  });

  it.each([
    ['tiny values (products far below a 32-bit float’s range)', 1e-40],
    ['huge values (sums past a 32-bit float’s range)', 3e38],
  ])('agrees on %s', (_, scale) => {
    const model = LsaModel.fromParts(randomParts(12, 80, 9, scale));
    const pages = randomPages(13, 80, 40, 100);
    expect(firstDifference(inJs(model, pages), inWasm(model, pages))).toBeUndefined();
  });

  it('agrees where the basis holds infinities (also in rows of weight zero, which add nothing), negative zeros and NaN', () => {
    const parts = randomParts(14, 40, 5);
    [0, 7, 15, 33].forEach((at) => (parts.basis[at] = Number.POSITIVE_INFINITY));
    [1, 8, 60].forEach((at) => (parts.basis[at] = -0));
    parts.basis[99] = Number.NaN;
    const model = LsaModel.fromParts(parts);
    const pages = randomPages(15, 40, 30, 20);
    expect(firstDifference(inJs(model, pages), inWasm(model, pages))).toBeUndefined();
  });

  it('treats ids past the row map as words outside the model', () => {
    const model = LsaModel.fromParts(randomParts(16, 30, 6));
    const pages = randomPages(17, 30, 20, 40);
    const { vocabulary, pages: ids } = termIdPages(pages);
    const known = Math.floor(vocabulary.size / 2);
    const rows = Int32Array.from(vocabulary.terms.slice(0, known), (term) => (term.startsWith('t') ? Number(term.slice(1)) : -1));
    const expected = inJs(
      model,
      pages.map((page) => page.filter((term) => vocabulary.id(term) < known)),
    );
    expect(firstDifference(expected, embedPagesInWasm(model, rows, ids))).toBeUndefined();
  });

  it('returns vectors of their own, which later calls leave alone', () => {
    const model = LsaModel.fromParts(randomParts(18, 50, 8));
    const first = inWasm(model, randomPages(19, 50, 5, 30))!;
    const copies = first.map((vector) => vector && Float32Array.from(vector));
    inWasm(model, randomPages(20, 50, 70, 30));
    expect(firstDifference(copies, first)).toBeUndefined();
  });

  it('declines a model whose basis does not match its rows and dimensions', () => {
    const parts = randomParts(21, 10, 4);
    expect(embedPagesInWasm({ ...parts, basis: parts.basis.subarray(1) }, new Int32Array(0), [[]])).toBeUndefined();
    expect(embedPagesInWasm({ ...parts, dimensions: 0, basis: new Float32Array(0) }, new Int32Array(0), [[]])).toBeUndefined();
  });
});

describe('LsaModel.embedIds', () => {
  it('embeds a large batch (in WebAssembly) exactly as the JavaScript loop embeds page by page', () => {
    const model = LsaModel.fromParts(randomParts(22, 300, 128));
    const pages = randomPages(23, 300, 400, 300);
    expect(firstDifference(inJs(model, pages), model.embedIds(termIdPages(pages)))).toBeUndefined();
  });

  describe('without WebAssembly', () => {
    afterEach(() => {
      vi.unstubAllGlobals();
      vi.resetModules();
    });

    it('embeds in the JavaScript loop, with the same vectors', async () => {
      const parts = randomParts(24, 200, 13);
      const pages = randomPages(25, 200, 300, 200);
      const expected = LsaModel.fromParts(parts).embedIds(termIdPages(pages));
      vi.stubGlobal('WebAssembly', undefined);
      vi.resetModules();
      const simd = await import('../../src/search/embed-simd.js');
      const lsa = await import('../../src/search/lsa.js');
      const model = lsa.LsaModel.fromParts(parts);
      expect(simd.embedPagesInWasm(model, new Int32Array(0), [[]])).toBeUndefined();
      expect(firstDifference(expected, model.embedIds(lsa.termIdPages(pages)))).toBeUndefined();
    });
  });
});
