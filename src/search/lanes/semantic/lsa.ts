import { CorruptIndexError, asFloat32, bytesOf, decodeJson, encodeJson } from '../../kernels/binary.js';
import { chooseVocabulary, evenSample, rightSingularBasis, weightedRows, type LsaOptions } from './lsa-train.js';
import { TermList } from '../../kernels/term-list.js';
import { Vocabulary } from '../../text/vocabulary.js';

/**
 * Latent semantic analysis, the built-in embedder: pages become tf-idf vectors over the
 * wiki's own (stemmed) vocabulary, and a truncated SVD of that matrix gives a small
 * basis in which words that occur in similar pages point the same way, so "car" can find
 * a page that only says "automobile". Trained on the corpus itself: no downloaded weights.
 * Each training row is divided by the square root of its length (a page of a title alone
 * weighs less than an abstract) and a page's vector is its row of U Σ^0.75, which flattens
 * the few strongest directions (docs/search-eval.md has the figures).
 *
 * Training uses a randomized SVD (range finder with power iterations) so it stays linear
 * in the corpus size. Pages written after training are folded in (projected onto the
 * basis); the owner retrains when the corpus has drifted.
 */
export const DEFAULT_LSA_OPTIONS: Omit<LsaOptions, 'dimensions'> = {
  maxTrainingPages: 2500,
  maxVocabulary: 30_000,
  powerIterations: 2,
  seed: 20_251_121,
  // Chosen on Cranfield and CACM (docs/search-eval.md): rows divided by the square root of
  // their length and pages as U Σ^0.75 raised the fused ranking on both, and the semantic
  // lane alone on CACM from 0.25 to 0.32 (mean of four training seeds).
  rowNormPower: 0.5,
  sigmaPower: 0.75,
};

/** Fewer pages than this and a latent space says nothing useful. */
export const LSA_MIN_PAGES = 3;
const MIN_PAGES_PER_DIMENSION = 4;
interface ModelMeta {
  dimensions: number;
  trainedPages: number;
}

/** Pages as term ids of one vocabulary (a bulk build's form). */
export interface TermIdPages {
  vocabulary: Vocabulary;
  pages: ReadonlyArray<ArrayLike<number>>;
}

/** Pages given as terms, interned into a vocabulary of their own. */
export function termIdPages(pages: readonly (readonly string[])[]): TermIdPages {
  const vocabulary = new Vocabulary();
  return { vocabulary, pages: pages.map((page) => page.map((term) => vocabulary.id(term))) };
}

/** A trained model as plain data (it crosses threads when a build worker trains it). */
export interface LsaParts {
  /** The model's vocabulary, sorted. */
  terms: string[];
  idf: Float32Array;
  /** `terms × dimensions`, row-major. */
  basis: Float32Array;
  dimensions: number;
  trainedPages: number;
  /** The model row of each id of the vocabulary trained on (-1: not in the model); stays on its thread. */
  rows?: Int32Array;
}

/**
 * The pages training reads (an even sample), as a corpus of its own: a small vocabulary of
 * only their terms. Training on it gives the model training on `corpus` gives, as the
 * vocabulary is chosen and ordered by the terms themselves, never by their ids.
 */
export function trainingSample(corpus: TermIdPages, options: LsaOptions): TermIdPages {
  const sample = evenSample(corpus.pages, options.maxTrainingPages);
  const local = new Int32Array(corpus.vocabulary.size).fill(-1);
  const vocabulary = new Vocabulary();
  const pages = sample.map((page) => {
    const ids = new Int32Array(page.length);
    for (let i = 0; i < page.length; i++) {
      const id = page[i]!;
      let mapped = local[id]!;
      if (mapped < 0) mapped = local[id] = vocabulary.id(corpus.vocabulary.terms[id] ?? '');
      ids[i] = mapped;
    }
    return ids;
  });
  return { vocabulary, pages };
}

/** Trains a model for a corpus, perhaps elsewhere (a build worker); undefined when too small. */
export type LsaTrainer = (corpus: TermIdPages, options: LsaOptions) => Promise<LsaParts | undefined>;

/** Train on pages given as term ids; undefined when the corpus is too small. */
export function trainLsa(corpus: TermIdPages, options: LsaOptions): LsaParts | undefined {
  const sample = evenSample(corpus.pages, options.maxTrainingPages);
  if (sample.length < LSA_MIN_PAGES) return undefined;
  const { vocabulary } = corpus;
  const { ids, df } = chooseVocabulary(sample, vocabulary, options.maxVocabulary);
  const n = sample.length;
  const idf = new Float32Array(ids.length);
  for (let t = 0; t < ids.length; t++) idf[t] = Math.log((n + 1) / (df[t] ?? 1));
  const rows = new Int32Array(vocabulary.size).fill(-1);
  ids.forEach((id, row) => (rows[id] = row));
  const matrix = weightedRows(sample, rows, idf, options.rowNormPower);
  // A latent space only generalises when it is much smaller than the corpus: with as many
  // dimensions as pages it just memorises each page and learns no word associations.
  const dimensions = Math.min(options.dimensions, Math.max(2, Math.floor(n / MIN_PAGES_PER_DIMENSION)), ids.length - 1);
  if (dimensions < 1) return undefined;
  const basis = rightSingularBasis(matrix, dimensions, options);
  return { terms: ids.map((id) => vocabulary.terms[id] ?? ''), idf, basis, dimensions, trainedPages: n, rows };
}

export class LsaModel {
  private termIndex: Map<string, number> | undefined;
  /** Vocabulary row of each id of the last vocabulary embedded from (-1: not in the model). */
  private rowsOf: { vocabulary: Vocabulary; rows: Int32Array } | undefined;
  /** Scratch for embedding: term frequency by vocabulary row (zero between calls). */
  private counts: Uint32Array | undefined;

  private constructor(
    /** Sorted (the vocabulary is chosen in alphabetical order). */
    private readonly terms: TermList,
    readonly idf: Float32Array,
    /** `terms × dimensions`, row-major: each term's direction in the latent space. */
    readonly basis: Float32Array,
    readonly dimensions: number,
    readonly trainedPages: number,
  ) {}

  /** Train on pages given as analysed terms; undefined when the corpus is too small. */
  static train(pages: readonly (readonly string[])[], options: LsaOptions): LsaModel | undefined {
    return LsaModel.trainIds(termIdPages(pages), options);
  }

  /** Train on pages given as term ids; undefined when the corpus is too small. */
  static trainIds(corpus: TermIdPages, options: LsaOptions): LsaModel | undefined {
    const parts = trainLsa(corpus, options);
    if (!parts) return undefined;
    const model = LsaModel.fromParts(parts);
    if (parts.rows) model.rowsOf = { vocabulary: corpus.vocabulary, rows: parts.rows };
    return model;
  }

  /** The model `trainLsa` trained. */
  static fromParts(parts: LsaParts): LsaModel {
    return new LsaModel(TermList.of(parts.terms), parts.idf, parts.basis, parts.dimensions, parts.trainedPages);
  }

  /**
   * A term's vocabulary row. Embedding many pages builds a map once; a query on a loaded
   * model binary-searches the sorted vocabulary instead of building a map for one lookup.
   */
  private lookup(term: string): number | undefined {
    if (this.termIndex) return this.termIndex.get(term);
    const row = this.terms.indexOf(term);
    return row < 0 ? undefined : row;
  }

  private termRows(): Map<string, number> {
    this.termIndex ??= new Map(this.terms.all().map((t, i) => [t, i]));
    return this.termIndex;
  }

  /** Unit vectors for pages given as term ids (see `embed`). */
  embedIds(corpus: TermIdPages): Array<Float32Array | undefined> {
    const rows = this.rowsIn(corpus.vocabulary);
    return corpus.pages.map((ids) => this.embedRows(ids, rows));
  }

  private rowsIn(vocabulary: Vocabulary): Int32Array {
    const known = this.rowsOf;
    if (known && known.vocabulary === vocabulary && known.rows.length === vocabulary.size) return known.rows;
    const index = this.termRows();
    const rows = Int32Array.from(vocabulary.terms, (term) => index.get(term) ?? -1);
    this.rowsOf = { vocabulary, rows };
    return rows;
  }

  /** Unit vector for a page or query, or undefined when none of its terms is known. */
  embed(terms: readonly string[]): Float32Array | undefined {
    return this.embedRows(
      terms.map((term) => this.lookup(term) ?? -1),
      undefined,
    );
  }

  /**
   * `embed` for terms given as rows (or as ids mapped to rows by `rowOf`); -1 is unknown.
   */
  private embedRows(items: ArrayLike<number>, rowOf: Int32Array | undefined): Float32Array | undefined {
    // Frequencies by vocabulary row, rows in order of first appearance.
    const counts = (this.counts ??= new Uint32Array(this.terms.length));
    const rows: number[] = [];
    for (let i = 0; i < items.length; i++) {
      const item = items[i]!;
      const t = rowOf ? (rowOf[item] ?? -1) : item;
      if (t < 0) continue;
      const seen = counts[t]!;
      if (seen === 0) rows.push(t);
      counts[t] = seen + 1;
    }
    const k = this.dimensions;
    const basis = this.basis;
    const idf = this.idf;
    const out = new Float64Array(k);
    for (const t of rows) {
      const tf = counts[t]!;
      counts[t] = 0;
      const w = (1 + Math.log(tf)) * idf[t]!;
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
    return { meta: encodeJson(meta), terms: this.terms.encode(), idf: bytesOf(this.idf), basis: bytesOf(this.basis) };
  }

  static decode(sections: Record<string, Uint8Array | undefined>): LsaModel {
    const { meta: m, terms: t, idf: i, basis: b } = sections;
    if (!m || !t || !i || !b) throw new CorruptIndexError('semantic model sections are missing');
    const meta = decodeJson(m) as ModelMeta;
    const terms = TermList.decode(t);
    const idf = asFloat32(i);
    const basis = asFloat32(b);
    if (!Number.isInteger(meta?.dimensions) || idf.length !== terms.length || basis.length !== terms.length * meta.dimensions) {
      throw new CorruptIndexError('semantic model sections disagree in size');
    }
    return new LsaModel(terms, idf, basis, meta.dimensions, meta.trainedPages);
  }
}
