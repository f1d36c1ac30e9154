import type { Options } from 'minisearch';
import { PersistableMiniSearch, type LexicalEntry } from './minisearch-store.js';
import type { Bm25Params, ScoredId } from './minisearch-scoring.js';
import type { Vocabulary } from '../../text/vocabulary.js';

/**
 * The lexical lane: BM25 over a page's fields with per-field boosts (MiniSearch).
 * Fields arrive already analysed (stemmed, stopwords removed) as space-separated terms,
 * so a page is analysed once for every lane and MiniSearch only splits on spaces.
 */
export const LEXICAL_FIELDS = ['key', 'title', 'summary', 'tags', 'body'] as const;
export type LexicalField = (typeof LEXICAL_FIELDS)[number];
export type AnalysedFields = Record<LexicalField, readonly string[]>;

export interface LexicalParams {
  k1: number;
  b: number;
  /** BM25+ lower bound on a matching term's frequency component (MiniSearch's `d`). */
  d: number;
  boosts: Record<LexicalField, number>;
  /**
   * MiniSearch multiplies a document's score by how many query terms it matched.
   * Kept or dropped as the Cranfield evaluation says (see scripts/eval.ts).
   */
  matchedTermMultiplier: boolean;
  /** BM25F over the fields (see Bm25Params.fieldsCombined) instead of MiniSearch's per-field sum. */
  fieldsCombined: boolean;
}

const splitOnSpace = (text: string): string[] => text.split(' ');
const keepTerm = (term: string): string | null => term || null;

const OPTIONS: Options<LexicalEntry> = {
  fields: [...LEXICAL_FIELDS],
  idField: 'id',
  tokenize: splitOnSpace,
  processTerm: keepTerm,
  autoVacuum: false,
  searchOptions: { tokenize: splitOnSpace, processTerm: keepTerm },
};

export class LexicalLane {
  /** A page's slot + 1 by the index's short id for it (0: not looked up); see `scoreSlots`. */
  private slotByDoc = new Int32Array(0);

  private constructor(private index: PersistableMiniSearch) {}

  static empty(): LexicalLane {
    return new LexicalLane(new PersistableMiniSearch(OPTIONS));
  }

  static decode(sections: Record<string, Uint8Array | undefined>): LexicalLane {
    return new LexicalLane(PersistableMiniSearch.decode(sections, OPTIONS));
  }

  encode(): Record<string, Uint8Array> {
    return this.index.encode();
  }

  get size(): number {
    return this.index.documentCount;
  }

  has(path: string): boolean {
    return this.index.has(path);
  }

  add(path: string, fields: AnalysedFields): void {
    if (this.index.has(path)) this.index.discard(path);
    const entry: LexicalEntry = { id: path };
    for (const field of LEXICAL_FIELDS) entry[field] = fields[field].join(' ');
    this.index.add(entry);
  }

  /**
   * Add many pages, their fields' term ids in `vocabulary` one after another (LEXICAL_FIELDS
   * order, each ending at `fieldEnds`): into an empty lane in one bulk build (the result
   * MiniSearch would reach adding them one by one), otherwise one by one.
   */
  addAll(pages: ReadonlyArray<{ path: string; terms: ArrayLike<number>; fieldEnds: readonly number[] }>, vocabulary: Vocabulary): void {
    const distinct = new Set(pages.map((page) => page.path)).size === pages.length;
    if (this.index.documentCount > 0 || this.index.termCount > 0 || !distinct) {
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
    this.index = PersistableMiniSearch.build(
      pages.map((page) => ({ id: page.path, terms: page.terms, fieldEnds: page.fieldEnds })),
      vocabulary,
      OPTIONS,
    );
  }

  remove(path: string): void {
    if (this.index.has(path)) this.index.discard(path);
  }

  /** Paths of the best `pool` pages for the analysed query terms, best first (ties by path). */
  search(terms: readonly string[], pool: number, params: LexicalParams): string[] {
    return this.searchScored(terms, pool, params).map((hit) => hit.id);
  }

  /** `search` with each page's BM25 score. */
  searchScored(terms: readonly string[], pool: number, params: LexicalParams): ScoredId[] {
    if (terms.length === 0 || pool <= 0) return [];
    const adjust = params.matchedTermMultiplier ? multiplyByMatched : keepSummed;
    return this.index.searchExact(queryTermsOf(terms), params.boosts, bm25Of(params), pool, adjust);
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
    this.index.scoreEachExact(queryTermsOf(terms), params.boosts, bm25Of(params), adjust, (doc, path, score) => {
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

/** The terms as MiniSearch would tokenise them joined by spaces. */
const queryTermsOf = (terms: readonly string[]): string[] => terms.flatMap((term) => term.split(' ')).filter((term) => term !== '');
const bm25Of = (params: LexicalParams): Bm25Params => ({ k: params.k1, b: params.b, d: params.d, fieldsCombined: params.fieldsCombined });

/** MiniSearch's score: the summed term scores times the number of query terms matched. */
const multiplyByMatched = (score: number, matched: number): number => score * matched;
/** That multiplier taken back out (as MiniSearch's score divided by the matched count). */
const keepSummed = (score: number, matched: number): number => (score * matched) / Math.max(1, matched);
