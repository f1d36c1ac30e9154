import { Bm25Index, type Bm25Params, type ScoredId } from './bm25-index.js';
import type { Vocabulary } from '../../text/vocabulary.js';

/**
 * The lexical lane: BM25 over a page's fields with per-field boosts (see Bm25Index).
 * Fields arrive already analysed (stemmed, stopwords removed), so a page is analysed once
 * for every lane.
 */
export const LEXICAL_FIELDS = ['key', 'title', 'summary', 'tags', 'body'] as const;
export type LexicalField = (typeof LEXICAL_FIELDS)[number];
export type AnalysedFields = Record<LexicalField, readonly string[]>;

export interface LexicalParams {
  k1: number;
  b: number;
  /** BM25+ lower bound on a matching term's frequency component. */
  d: number;
  boosts: Record<LexicalField, number>;
  /**
   * Multiply a page's score by how many distinct query terms it matched (as MiniSearch,
   * this lane's first engine, did). Kept or dropped as the evaluation says (scripts/eval.ts).
   */
  matchedTermMultiplier: boolean;
  /** BM25F over the fields (see Bm25Params.fieldsCombined) instead of a per-field sum. */
  fieldsCombined: boolean;
  /** Each term's idf raised to this power (see Bm25Params.idfExponent; 1: plain BM25). */
  idfExponent: number;
}

export class LexicalLane implements LexicalScorer {
  /** A page's slot + 1 by the index's short id for it (0: not looked up); see `scoreSlots`. */
  private slotByDoc = new Int32Array(0);

  private constructor(private index: Bm25Index) {}

  static empty(): LexicalLane {
    return new LexicalLane(Bm25Index.empty(LEXICAL_FIELDS));
  }

  /** `pagePaths`: the page table's paths by slot, which the lane's saved form may share (see `encode`). */
  static decode(sections: Record<string, Uint8Array | undefined>, pagePaths?: readonly string[]): LexicalLane {
    return new LexicalLane(Bm25Index.decode(sections, LEXICAL_FIELDS, pagePaths));
  }

  /** `pagePaths`: the page table's paths by slot; when the lane's pages are those, in that order, their paths are not saved twice. */
  encode(pagePaths?: readonly string[]): Record<string, Uint8Array> {
    return this.index.encode(pagePaths);
  }

  get size(): number {
    return this.index.size;
  }

  has(path: string): boolean {
    return this.index.has(path);
  }

  add(path: string, fields: AnalysedFields): void {
    this.index.remove(path);
    this.index.add(path, LEXICAL_FIELDS.map((field) => fields[field]));
  }

  /**
   * Add many pages, their fields' term ids in `vocabulary` one after another (LEXICAL_FIELDS
   * order, each ending at `fieldEnds`): into an empty lane in one bulk build (the index
   * adding them one by one gives), otherwise one by one.
   */
  addAll(pages: ReadonlyArray<{ path: string; terms: ArrayLike<number>; fieldEnds: readonly number[] }>, vocabulary: Vocabulary): void {
    const distinct = new Set(pages.map((page) => page.path)).size === pages.length;
    if (this.index.size > 0 || !distinct) {
      for (const page of pages) {
        const fields = {} as Record<LexicalField, string[]>;
        LEXICAL_FIELDS.forEach((field, f) => {
          const from = f === 0 ? 0 : (page.fieldEnds[f - 1] ?? 0);
          fields[field] = Array.from({ length: (page.fieldEnds[f] ?? from) - from }, (_, i) => vocabulary.terms[page.terms[from + i] ?? -1] ?? '');
        });
        this.add(page.path, fields);
      }
      return;
    }
    this.index = Bm25Index.build(
      pages.map((page) => ({ id: page.path, terms: page.terms, fieldEnds: page.fieldEnds })),
      vocabulary,
      LEXICAL_FIELDS,
    );
  }

  remove(path: string): void {
    this.index.remove(path);
  }

  /** How many pages hold the analysed term in any field. */
  documentFrequency(term: string): number {
    return this.index.documentFrequency(term);
  }

  /**
   * How much each analysed term says about a page that holds it: its inverse document
   * frequency over the `total` live pages, ln(1 + (N − n + ½) / (n + ½)) as in BM25, so a word
   * every page holds ("go" in a Go wiki) weighs little and a word no page holds weighs most.
   */
  termWeights(terms: readonly string[], total: number): Map<string, number> {
    const weights = new Map<string, number>();
    for (const term of terms) {
      if (weights.has(term)) continue;
      const holders = Math.min(total, this.documentFrequency(term));
      weights.set(term, Math.log(1 + (total - holders + 0.5) / (holders + 0.5)));
    }
    return weights;
  }

  /** Paths of the best `pool` pages for the analysed query terms, best first (ties by path). */
  search(terms: readonly string[], pool: number, params: LexicalParams): string[] {
    return this.searchScored(terms, pool, params).map((hit) => hit.id);
  }

  /** `search` with each page's BM25 score. */
  searchScored(terms: readonly string[], pool: number, params: LexicalParams): ScoredId[] {
    if (terms.length === 0 || pool <= 0) return [];
    const adjust = params.matchedTermMultiplier ? multiplyByMatched : keepSummed;
    return this.index.search(queryTermsOf(terms), params.boosts, bm25Of(params), pool, adjust);
  }

  /**
   * Every page matching the analysed query terms, as its slot in `pages` (-1 where it has
   * none) beside its BM25 score, in no order. A page's slot is remembered by the index's
   * own id for it and used only while `pages` still has the page at that slot, so it is
   * never stale; a path lookup per match was a tenth of a query.
   */
  scoreSlots(terms: readonly string[], params: LexicalParams, pages: SlotDirectory): { slots: Int32Array; scores: Float64Array } {
    if (terms.length === 0) return { slots: new Int32Array(0), scores: new Float64Array(0) };
    const adjust = params.matchedTermMultiplier ? multiplyByMatched : keepSummed;
    const slots: number[] = [];
    const scores: number[] = [];
    this.index.scoreEach(queryTermsOf(terms), params.boosts, bm25Of(params), adjust, (doc, path, score) => {
      const known = (this.slotByDoc[doc] ?? 0) - 1;
      const slot = known >= 0 && pages.pathAt(known) === path ? known : (pages.slotOf(path) ?? -1);
      if (slot !== known) this.rememberSlot(doc, slot);
      slots.push(slot);
      scores.push(score);
    });
    return { slots: Int32Array.from(slots), scores: Float64Array.from(scores) };
  }

  private rememberSlot(doc: number, slot: number): void {
    if (doc >= this.slotByDoc.length) {
      let capacity = Math.max(64, this.slotByDoc.length);
      while (capacity <= doc) capacity *= 2;
      const grown = new Int32Array(capacity);
      grown.set(this.slotByDoc);
      this.slotByDoc = grown;
    }
    this.slotByDoc[doc] = slot + 1;
  }
}

/** Where pages sit by slot (the page table). */
export interface SlotDirectory {
  slotOf(path: string): number | undefined;
  pathAt(slot: number): string | undefined;
}

/** The query's terms, each split at spaces (a term given as several words). */
export const queryTermsOf = (terms: readonly string[]): string[] => terms.flatMap((term) => term.split(' ')).filter((term) => term !== '');
export const bm25Of = (params: LexicalParams): Bm25Params => ({
  k: params.k1,
  b: params.b,
  d: params.d,
  fieldsCombined: params.fieldsCombined,
  idfExponent: params.idfExponent,
});

/** How a page's summed score is adjusted for the query terms it matched, as `params` say. */
export const matchAdjustment = (params: LexicalParams): ((score: number, matched: number) => number) => (params.matchedTermMultiplier ? multiplyByMatched : keepSummed);

/**
 * What scores the lexical lane's pages for a search: this process's index (`LexicalLane`),
 * or another that computes the same BM25 from elsewhere (the database's full-text index,
 * store/postgres/pg-lexical.ts).
 */
export interface LexicalScorer {
  scoreSlots(terms: readonly string[], params: LexicalParams, pages: SlotDirectory): { slots: Int32Array; scores: Float64Array } | Promise<{ slots: Int32Array; scores: Float64Array }>;
}

/** The summed term scores times the number of query terms matched. */
const multiplyByMatched = (score: number, matched: number): number => score * matched;
/** That multiplier taken back out (the product divided by the matched count, as the scores were first computed). */
const keepSummed = (score: number, matched: number): number => (score * matched) / Math.max(1, matched);
