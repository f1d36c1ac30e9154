import { CorruptIndexError, asFloat32, bytesOf, decodeJson, decodeTerms, encodeJson, encodeTerms } from './binary.js';
import {
  addScaled,
  gaussianBlock,
  multiply,
  multiplyTransposed,
  orthonormalise,
  seededRandom,
  symmetricEigen,
  type SparseRows,
} from './linalg.js';

/**
 * Latent semantic analysis, the built-in embedder: pages become tf-idf vectors over the
 * wiki's own (stemmed) vocabulary, and a truncated SVD of that matrix gives a small
 * basis in which words that occur in similar pages point the same way, so "car" can find
 * a page that only says "automobile". Trained on the corpus itself: no downloaded weights.
 *
 * Training uses a randomized SVD (range finder with power iterations) so it stays linear
 * in the corpus size. Pages written after training are folded in (projected onto the
 * basis); the owner retrains when the corpus has drifted.
 */
export interface LsaOptions {
  dimensions: number;
  /** Train on at most this many pages (an even sample); the rest are folded in. */
  maxTrainingPages: number;
  /** Keep at most this many terms (the most widespread). */
  maxVocabulary: number;
  powerIterations: number;
  seed: number;
}

export const DEFAULT_LSA_OPTIONS: Omit<LsaOptions, 'dimensions'> = {
  maxTrainingPages: 2500,
  maxVocabulary: 30_000,
  powerIterations: 2,
  seed: 20_251_121,
};

/** Fewer pages than this and a latent space says nothing useful. */
export const LSA_MIN_PAGES = 3;
const OVERSAMPLE = 8;
const MIN_PAGES_PER_DIMENSION = 4;

interface ModelMeta {
  dimensions: number;
  trainedPages: number;
}

export class LsaModel {
  private termIndex: Map<string, number> | undefined;
  /** Scratch for `embed`: term frequency by vocabulary row (zero between calls). */
  private counts: Uint32Array | undefined;

  private constructor(
    /** Sorted (the vocabulary is chosen in alphabetical order). */
    readonly terms: readonly string[],
    readonly idf: Float32Array,
    /** `terms × dimensions`, row-major: each term's direction in the latent space. */
    readonly basis: Float32Array,
    readonly dimensions: number,
    readonly trainedPages: number,
  ) {}

  /** Train on pages given as analysed terms; undefined when the corpus is too small. */
  static train(pages: readonly (readonly string[])[], options: LsaOptions): LsaModel | undefined {
    const sample = evenSample(pages, options.maxTrainingPages);
    if (sample.length < LSA_MIN_PAGES) return undefined;
    const { terms, df } = chooseVocabulary(sample, options.maxVocabulary);
    const n = sample.length;
    const idf = new Float32Array(terms.length);
    for (let t = 0; t < terms.length; t++) idf[t] = Math.log(1 + n / (df[t] ?? 1));
    const index = new Map(terms.map((term, i) => [term, i]));
    const matrix = weightedRows(sample, index, idf);
    // A latent space only generalises when it is much smaller than the corpus: with as many
    // dimensions as pages it just memorises each page and learns no word associations.
    const dimensions = Math.min(options.dimensions, Math.max(2, Math.floor(n / MIN_PAGES_PER_DIMENSION)), terms.length - 1);
    if (dimensions < 1) return undefined;
    const basis = rightSingularBasis(matrix, dimensions, options);
    const model = new LsaModel(terms, idf, basis, dimensions, sample.length);
    model.termIndex = index;
    return model;
  }

  /**
   * A term's vocabulary row. Embedding many pages builds a map once; a query on a loaded
   * model binary-searches the sorted vocabulary instead of building a map for one lookup.
   */
  private lookup(term: string): number | undefined {
    if (this.termIndex) return this.termIndex.get(term);
    const terms = this.terms;
    let lo = 0;
    let hi = terms.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const probe = terms[mid] ?? '';
      if (probe === term) return mid;
      if (probe < term) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }

  /** Unit vectors for many pages (see `embed`). */
  embedPages(pages: readonly (readonly string[])[]): Array<Float32Array | undefined> {
    this.termIndex ??= new Map(this.terms.map((t, i) => [t, i]));
    return pages.map((terms) => this.embed(terms));
  }

  /** Unit vector for a page or query, or undefined when none of its terms is known. */
  embed(terms: readonly string[]): Float32Array | undefined {
    // Frequencies by vocabulary row, rows in order of first appearance.
    const counts = (this.counts ??= new Uint32Array(this.terms.length));
    const rows: number[] = [];
    for (const term of terms) {
      const t = this.lookup(term);
      if (t === undefined) continue;
      const seen = counts[t] ?? 0;
      if (seen === 0) rows.push(t);
      counts[t] = seen + 1;
    }
    const k = this.dimensions;
    const basis = this.basis;
    const idf = this.idf;
    const out = new Float64Array(k);
    for (const t of rows) {
      const tf = counts[t] ?? 1;
      counts[t] = 0;
      const w = (1 + Math.log(tf)) * (idf[t] ?? 0);
      if (w === 0) continue;
      // Unrolled like addScaled (kept apart: one element type per loop keeps V8's code fast).
      const row = t * k;
      let j = 0;
      for (; j + 3 < k; j += 4) {
        out[j]! += w * basis[row + j]!;
        out[j + 1]! += w * basis[row + j + 1]!;
        out[j + 2]! += w * basis[row + j + 2]!;
        out[j + 3]! += w * basis[row + j + 3]!;
      }
      for (; j < k; j++) out[j]! += w * basis[row + j]!;
    }
    if (rows.length === 0) return undefined;
    let norm = 0;
    for (let j = 0; j < k; j++) norm += out[j]! ** 2;
    if (norm === 0) return undefined;
    const scale = 1 / Math.sqrt(norm);
    const vector = new Float32Array(k);
    for (let j = 0; j < k; j++) vector[j] = out[j]! * scale;
    return vector;
  }

  encode(): Record<string, Uint8Array> {
    const meta: ModelMeta = { dimensions: this.dimensions, trainedPages: this.trainedPages };
    return { meta: encodeJson(meta), terms: encodeTerms(this.terms), idf: bytesOf(this.idf), basis: bytesOf(this.basis) };
  }

  static decode(sections: Record<string, Uint8Array | undefined>): LsaModel {
    const { meta: m, terms: t, idf: i, basis: b } = sections;
    if (!m || !t || !i || !b) throw new CorruptIndexError('semantic model sections are missing');
    const meta = decodeJson(m) as ModelMeta;
    const terms = decodeTerms(t);
    const idf = asFloat32(i);
    const basis = asFloat32(b);
    if (!Number.isInteger(meta?.dimensions) || idf.length !== terms.length || basis.length !== terms.length * meta.dimensions) {
      throw new CorruptIndexError('semantic model sections disagree in size');
    }
    for (let t = 1; t < terms.length; t++) {
      if ((terms[t - 1] ?? '') >= (terms[t] ?? '')) throw new CorruptIndexError('semantic model terms are not sorted');
    }
    return new LsaModel(terms, idf, basis, meta.dimensions, meta.trainedPages);
  }
}

function evenSample<T>(items: readonly T[], limit: number): T[] {
  if (items.length <= limit) return [...items];
  const step = items.length / limit;
  return Array.from({ length: limit }, (_, i) => items[Math.floor(i * step)] as T);
}

/**
 * Terms in at least two pages (one for tiny corpora), most widespread first when capped,
 * then alphabetical so the same corpus always yields the same vocabulary.
 */
function chooseVocabulary(pages: readonly (readonly string[])[], cap: number): { terms: string[]; df: number[] } {
  const counts = new Map<string, number>();
  for (const page of pages) for (const term of new Set(page)) counts.set(term, (counts.get(term) ?? 0) + 1);
  const minDf = pages.length >= 50 ? 2 : 1;
  let kept = [...counts].filter(([, df]) => df >= minDf);
  if (kept.length > cap) kept = kept.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, cap);
  kept.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return { terms: kept.map(([term]) => term), df: kept.map(([, df]) => df) };
}

/** Pages × terms, log tf × idf, each row scaled to unit length. */
function weightedRows(pages: readonly (readonly string[])[], index: Map<string, number>, idf: Float32Array): SparseRows {
  const rowStart = new Uint32Array(pages.length + 1);
  const indices: number[] = [];
  const values: number[] = [];
  pages.forEach((page, r) => {
    const counts = new Map<number, number>();
    for (const term of page) {
      const t = index.get(term);
      if (t !== undefined) counts.set(t, (counts.get(t) ?? 0) + 1);
    }
    const entries = [...counts].map(([t, tf]) => [t, (1 + Math.log(tf)) * (idf[t] ?? 0)] as const);
    const norm = Math.sqrt(entries.reduce((sum, [, w]) => sum + w * w, 0)) || 1;
    for (const [t, w] of entries) {
      indices.push(t);
      values.push(w / norm);
    }
    rowStart[r + 1] = indices.length;
  });
  return { rows: pages.length, cols: index.size, rowStart, indices: Uint32Array.from(indices), values: Float64Array.from(values) };
}

/**
 * The top-k right singular vectors of A (pages × terms) as a `terms × k` basis:
 * Y = A Ω, refined by power iterations, orthonormalised into Q (pages × l);
 * C = Aᵀ Q, so B = Qᵀ A = Cᵀ; the eigenvectors W of B Bᵀ = Qᵀ (A C) give V = C W Σ⁻¹,
 * computed as Aᵀ (Q W Σ⁻¹).
 */
function rightSingularBasis(a: SparseRows, k: number, options: LsaOptions): Float32Array {
  const width = Math.min(k + OVERSAMPLE, a.rows, a.cols);
  const random = seededRandom(options.seed);
  let y = multiply(a, gaussianBlock(a.cols * width, random), width);
  for (let i = 0; i < options.powerIterations; i++) {
    orthonormalise(y, a.rows, width);
    y = multiply(a, multiplyTransposed(a, y, width), width);
  }
  orthonormalise(y, a.rows, width);
  const c = multiplyTransposed(a, y, width);
  const ac = multiply(a, c, width);
  const small = new Float64Array(width * width);
  for (let r = 0; r < a.rows; r++) {
    for (let i = 0; i < width; i++) {
      const q = y[r * width + i]!;
      if (q === 0) continue;
      addScaled(small, i * width, ac, r * width, q, width);
    }
  }
  for (let i = 0; i < width; i++) {
    for (let j = i + 1; j < width; j++) {
      const mean = (small[i * width + j]! + small[j * width + i]!) / 2;
      small[i * width + j] = mean;
      small[j * width + i] = mean;
    }
  }
  const { values, vectors } = symmetricEigen(small, width);
  // V = C W Σ⁻¹ = Aᵀ (Q W Σ⁻¹): through the sparse A this costs nnz(A)·k instead of terms·width·k.
  const left = new Float64Array(a.rows * k);
  const scales = new Float64Array(k);
  for (let j = 0; j < k; j++) {
    const sigma = Math.sqrt(Math.max(values[j]!, 0));
    scales[j] = sigma > 1e-12 ? 1 / sigma : 0;
  }
  for (let r = 0; r < a.rows; r++) {
    for (let i = 0; i < width; i++) {
      const q = y[r * width + i]!;
      if (q === 0) continue;
      addScaled(left, r * k, vectors, i * width, q, k);
    }
    for (let j = 0; j < k; j++) left[r * k + j]! *= scales[j]!;
  }
  const basis = Float32Array.from(multiplyTransposed(a, left, k));
  return basis;
}
