import {
  addScaled,
  gaussianBlock,
  multiply,
  multiplyTransposed,
  seededRandom,
  symmetricEigen,
  type SparseRows,
} from '../../kernels/linalg.js';
import { orthonormalise } from '../../kernels/orthonormalise.js';
import type { Vocabulary } from '../../text/vocabulary.js';

/**
 * The training half of the built-in embedder (see lsa.ts): choosing the vocabulary,
 * weighting the page × term matrix and its truncated SVD.
 */
const OVERSAMPLE = 8;

export interface LsaOptions {
  dimensions: number;
  /** Train on at most this many pages (an even sample); the rest are folded in. */
  maxTrainingPages: number;
  /** Keep at most this many terms (the most widespread). */
  maxVocabulary: number;
  powerIterations: number;
  seed: number;
  /**
   * Each training page's weighted term vector is divided by its length to this power:
   * 1 gives every page the same weight in the SVD, lower lets longer pages (more words
   * seen together) shape the basis more than a page of a title alone.
   */
  rowNormPower: number;
  /** Page vectors are U Σ^p: the basis's columns are scaled by σ^(p − 1) (1: plain LSA). */
  sigmaPower: number;
}

/** Which of `count` items an even sample of at most `limit` takes, ascending. */
export function evenSampleIndices(count: number, limit: number): number[] {
  if (count <= limit) return Array.from({ length: count }, (_, i) => i);
  const step = count / limit;
  return Array.from({ length: limit }, (_, i) => Math.floor(i * step));
}

export function evenSample<T>(items: readonly T[], limit: number): T[] {
  return evenSampleIndices(items.length, limit).map((i) => items[i] as T);
}

/**
 * Terms in at least two pages (one for tiny corpora), most widespread first when capped,
 * then alphabetical so the same corpus always yields the same vocabulary. Returns their
 * ids in that order with their document frequencies.
 */
export function chooseVocabulary(pages: ReadonlyArray<ArrayLike<number>>, vocabulary: Vocabulary, cap: number): { ids: number[]; df: number[] } {
  const counts = new Uint32Array(vocabulary.size);
  const lastPage = new Int32Array(vocabulary.size).fill(-1);
  pages.forEach((page, p) => {
    for (let i = 0; i < page.length; i++) {
      const id = page[i]!;
      if (lastPage[id] === p) continue;
      lastPage[id] = p;
      counts[id]!++;
    }
  });
  const minDf = pages.length >= 50 ? 2 : 1;
  let kept: number[] = [];
  for (let id = 0; id < counts.length; id++) if (counts[id]! >= minDf) kept.push(id);
  const terms = vocabulary.terms;
  if (kept.length > cap) kept = kept.sort((a, b) => counts[b]! - counts[a]! || (terms[a]! < terms[b]! ? -1 : 1)).slice(0, cap);
  const ids = vocabulary.sortedIds(kept);
  return { ids, df: ids.map((id) => counts[id]!) };
}

/**
 * Pages × terms, log tf × idf, each row divided by its length to the power `normPower`
 * (1: unit rows). `rowOf` maps ids to columns (-1: left out).
 */
export function weightedRows(pages: ReadonlyArray<ArrayLike<number>>, rowOf: Int32Array, idf: Float32Array, normPower: number): SparseRows {
  const rowStart = new Uint32Array(pages.length + 1);
  const indices: number[] = [];
  const values: number[] = [];
  const counts = new Uint32Array(idf.length);
  const order: number[] = [];
  pages.forEach((page, r) => {
    // Columns in order of first appearance, as the weights are summed in that order.
    for (let i = 0; i < page.length; i++) {
      const t = rowOf[page[i]!]!;
      if (t < 0) continue;
      if (counts[t]!++ === 0) order.push(t);
    }
    let sum = 0;
    const weights = order.map((t) => {
      const w = (1 + Math.log(counts[t]!)) * idf[t]!;
      counts[t] = 0;
      sum += w * w;
      return w;
    });
    const norm = Math.sqrt(sum) ** normPower || 1;
    order.forEach((t, i) => {
      indices.push(t);
      values.push(weights[i]! / norm);
    });
    order.length = 0;
    rowStart[r + 1] = indices.length;
  });
  return { rows: pages.length, cols: idf.length, rowStart, indices: Uint32Array.from(indices), values: Float64Array.from(values) };
}

/**
 * The top-k right singular vectors of A (pages × terms) as a `terms × k` basis, each
 * column scaled by σ^(sigmaPower − 1), so a page's row of A times the basis is its row of
 * U Σ^sigmaPower: Y = A Ω, refined by power iterations, orthonormalised into Q (pages × l);
 * C = Aᵀ Q, so B = Qᵀ A = Cᵀ; the eigenvectors W of B Bᵀ = Qᵀ (A C) give V = C W Σ⁻¹,
 * computed as Aᵀ (Q W Σ⁻¹).
 */
export function rightSingularBasis(a: SparseRows, k: number, options: LsaOptions): Float32Array {
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
    scales[j] = sigma > 1e-12 ? sigma ** (options.sigmaPower - 2) : 0;
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
