import { LazyTermData, type PostingSpan, type TermData } from '../token/term-index.js';
import { BestScores, type ScoredId } from './best-scores.js';
import { VarintReader } from '../../kernels/varint.js';

export type { ScoredId } from './best-scores.js';

/** BM25 parameters as MiniSearch names them. */
export interface Bm25Params {
  k: number;
  b: number;
  d: number;
  /**
   * BM25F (Robertson, Zaragoza & Taylor 2004) instead of MiniSearch's sum of one BM25 per
   * field: each field's term frequency, length-normalised and boosted, is summed first and
   * saturated once, with one idf from the pages holding the term in any field. A word
   * repeated in title, summary and body then counts as a page mentioning it more, not as
   * three separate matches each near its saturation.
   */
  fieldsCombined?: boolean;
}


/**
 * What the scorer reads of a MiniSearch index: its protected state, which only the index
 * (a subclass) can reach and so hands over. Names as MiniSearch's own, without the underscore.
 */
export interface ScoringState {
  /** The index's fields in order. */
  fields: readonly string[];
  fieldIds: Readonly<Record<string, number>>;
  documentCount: number;
  nextId: number;
  dirtCount: number;
  avgFieldLength: readonly number[];
  documentIds: ReadonlyMap<number, unknown>;
  fieldLength: ReadonlyMap<number, readonly number[]>;
  termData(term: string): TermData | undefined;
  /** MiniSearch's (private) cleanup of a discarded document's posting, which its scoring runs as it goes. */
  removeTerm(fieldId: number, documentId: number, term: string): void;
}

/** Per-search work arrays indexed by short id, kept between searches (cleared as they are used). */
interface Scratch {
  /** The score summed over the query terms so far. */
  total: Float64Array;
  /** The current term's score, summed over fields. */
  partial: Float64Array;
  /** Distinct query terms matched. */
  matched: Uint32Array;
  /** 1 once the document matched any term of this search. */
  seen: Uint8Array;
  /** Stamp of the last term that touched the document. */
  stamp: Uint32Array;
}

interface FieldBoost {
  id: number;
  boost: number;
}

/**
 * MiniSearch's BM25 ranking for exact terms, one per index (it keeps work arrays sized to
 * the index between searches).
 */
export class ExactScorer {
  private scratch: Scratch | undefined;
  private stampCounter = 0;
  private lengths: { removed: number; dirtCount: number; table: Float64Array } | undefined;

  /**
   * The `limit` best documents for the exact terms `terms` combined with OR, scored as
   * MiniSearch's `search` scores them with prefix and fuzzy matching off and no document
   * boost (same arithmetic in the same order, so the very same numbers), except that each
   * document's summed term scores and distinct matched terms go through `adjust` (MiniSearch
   * multiplies the two). Best first, ties by id. Unlike `search`, it makes no object per
   * match and reads unused postings straight from their flat form.
   */
  search(
    state: ScoringState,
    terms: readonly string[],
    boost: Readonly<Record<string, number>>,
    bm25: Bm25Params,
    limit: number,
    adjust: (score: number, matchedTerms: number) => number,
  ): ScoredId[] {
    const best = new BestScores(limit, (doc) => String(state.documentIds.get(doc)));
    this.scoreEach(state, terms, boost, bm25, adjust, (doc, score) => best.offer(doc, score));
    return best.sorted();
  }

  /** Every matching document (by short id) with its score as `search` computes it, in no order. */
  scoreEach(
    state: ScoringState,
    terms: readonly string[],
    boost: Readonly<Record<string, number>>,
    bm25: Bm25Params,
    adjust: (score: number, matchedTerms: number) => number,
    offer: (doc: number, score: number) => void,
  ): void {
    const scratch = this.scratchFor(state.nextId);
    const { total, matched, seen } = scratch;
    // As MiniSearch: the index's fields in order, a missing or zero boost counting as 1.
    const combined = bm25.fieldsCombined === true;
    const fields = state.fields.map((field) => {
      const given = Object.hasOwn(boost, field) ? boost[field] : undefined;
      // BM25F takes a zero boost at its word (a field left out); MiniSearch counts it as 1.
      return { id: state.fieldIds[field] ?? -1, boost: combined ? (given ?? 1) : given || 1 };
    });
    const touched: number[] = [];
    const seenTerms = new Set<string>();
    for (const term of terms) {
      const data = state.termData(term);
      if (data === undefined) continue;
      const termDocs: number[] = [];
      if (this.stampCounter === 0xffffffff) {
        scratch.stamp.fill(0);
        this.stampCounter = 0;
      }
      const stamp = ++this.stampCounter;
      const span = state.dirtCount === 0 && data instanceof LazyTermData ? data.rawSpan() : undefined;
      if (span) this.scoreSpan(state, span, fields, bm25, stamp, termDocs);
      else this.scoreMaps(state, term, data, fields, bm25, stamp, termDocs);
      const partial = scratch.partial;
      if (combined) saturate(partial, termDocs, state.documentCount, bm25);
      // A repeated query term adds its score again but counts as matched once.
      const first = !seenTerms.has(term);
      seenTerms.add(term);
      for (const doc of termDocs) {
        if (seen[doc] === 0) {
          seen[doc] = 1;
          touched.push(doc);
        }
        total[doc] = total[doc]! + partial[doc]!;
        partial[doc] = 0;
        if (first) matched[doc]!++;
      }
    }
    for (const doc of touched) {
      // Under BM25F a page that matched only in fields boosted 0 did not match.
      if (!combined || total[doc]! > 0) offer(doc, adjust(total[doc]!, matched[doc]!));
      total[doc] = 0;
      matched[doc] = 0;
      seen[doc] = 0;
    }
  }

  /**
   * Field lengths by short id × field, flat: a map lookup per posting was most of a
   * query's cost. It covers every document a flat span can hold (those loaded or bulk
   * built; one added later moves its terms into maps), and a document's lengths never
   * change, so it holds until a document is removed or discarded.
   */
  private fieldLengthTable(state: ScoringState): Float64Array {
    const removed = state.nextId - state.documentCount;
    const kept = this.lengths;
    if (kept && kept.removed === removed && kept.dirtCount === state.dirtCount) return kept.table;
    const fieldCount = state.fields.length;
    const table = new Float64Array(state.nextId * fieldCount);
    for (const [doc, lengths] of state.fieldLength) for (let f = 0; f < fieldCount; f++) table[doc * fieldCount + f] = lengths[f]!;
    this.lengths = { removed, dirtCount: state.dirtCount, table };
    return table;
  }

  private scratchFor(size: number): Scratch {
    if (this.scratch && this.scratch.total.length >= size) return this.scratch;
    const capacity = Math.max(size, 2 * (this.scratch?.total.length ?? 0));
    this.scratch = {
      total: new Float64Array(capacity),
      partial: new Float64Array(capacity),
      matched: new Uint32Array(capacity),
      seen: new Uint8Array(capacity),
      stamp: new Uint32Array(capacity),
    };
    this.stampCounter = 0;
    return this.scratch;
  }

  /** One term's field scores from a span no one has read into maps (every document in it is live). */
  private scoreSpan(state: ScoringState, span: PostingSpan, fields: readonly FieldBoost[], bm25: Bm25Params, stamp: number, termDocs: number[]): void {
    // MiniSearch reads the fields in the index's field order, which a span need not follow:
    // find each field's group first (the last one wins, as when reading into a map).
    const groups = new Map<number, number>();
    const reader = new VarintReader(span.data, span.start);
    while (reader.position < span.end) {
      const header = reader.position;
      groups.set(reader.next(), header);
      const count = reader.next();
      for (let n = 0; n < count && reader.position < span.end; n++) {
        reader.next();
        reader.next();
      }
    }
    const { partial, stamp: stamps } = this.scratch!;
    const lengths = this.fieldLengthTable(state);
    const fieldCount = state.fields.length;
    for (const field of fields) {
      const header = groups.get(field.id);
      if (header === undefined) continue;
      reader.position = header;
      reader.next();
      const count = reader.next();
      const avgFieldLength = state.avgFieldLength[field.id]!;
      const idf = inverseDocumentFrequency(count, state.documentCount);
      for (let n = 0, doc = 0; n < count && reader.position < span.end; n++) {
        doc += reader.nextGap();
        const termFreq = reader.next();
        const fieldLength = lengths[doc * fieldCount + field.id]!;
        if (stamps[doc] !== stamp) {
          stamps[doc] = stamp;
          termDocs.push(doc);
        }
        partial[doc] = partial[doc]! + field.boost * (bm25.fieldsCombined ? normalisedFrequency(termFreq, fieldLength, avgFieldLength, bm25) : bm25Score(idf, termFreq, fieldLength, avgFieldLength, bm25));
      }
    }
  }

  /**
   * One term's field scores from its maps, as MiniSearch's termResults does: postings of
   * discarded documents are removed as they are met, and each lowers the match count used
   * for the documents after it.
   */
  private scoreMaps(
    state: ScoringState,
    term: string,
    data: TermData,
    fields: readonly FieldBoost[],
    bm25: Bm25Params,
    stamp: number,
    termDocs: number[],
  ): void {
    const { partial, stamp: stamps } = this.scratch!;
    for (const field of fields) {
      const postings = data.get(field.id);
      if (postings === undefined) continue;
      let matching = postings.size;
      const avgFieldLength = state.avgFieldLength[field.id]!;
      let idf = inverseDocumentFrequency(matching, state.documentCount);
      for (const doc of postings.keys()) {
        if (!state.documentIds.has(doc)) {
          state.removeTerm(field.id, doc, term);
          idf = inverseDocumentFrequency(--matching, state.documentCount);
          continue;
        }
        const termFreq = postings.get(doc)!;
        const fieldLength = state.fieldLength.get(doc)![field.id]!;
        if (stamps[doc] !== stamp) {
          stamps[doc] = stamp;
          termDocs.push(doc);
        }
        partial[doc] = partial[doc]! + field.boost * (bm25.fieldsCombined ? normalisedFrequency(termFreq, fieldLength, avgFieldLength, bm25) : bm25Score(idf, termFreq, fieldLength, avgFieldLength, bm25));
      }
    }
  }
}

/** BM25F: a field's term frequency over its length-normalisation factor (before boost and saturation). */
function normalisedFrequency(termFreq: number, fieldLength: number, avgFieldLength: number, { b }: Bm25Params): number {
  return termFreq / (1 - b + (b * fieldLength) / (avgFieldLength || 1));
}

/** BM25F's second step for one term: each page's summed weighted frequency saturated, times the idf. */
function saturate(partial: Float64Array, termDocs: readonly number[], documentCount: number, { k, d }: Bm25Params): void {
  const idf = inverseDocumentFrequency(termDocs.length, documentCount);
  for (const doc of termDocs) {
    const frequency = partial[doc]!;
    partial[doc] = frequency > 0 ? idf * (d + (frequency * (k + 1)) / (k + frequency)) : 0;
  }
}

/** MiniSearch's BM25 idf, written as it writes it. */
function inverseDocumentFrequency(matchingCount: number, totalCount: number): number {
  return Math.log(1 + (totalCount - matchingCount + 0.5) / (matchingCount + 0.5));
}

/** MiniSearch's BM25(+) score with its idf computed once per term and field: the same expression, so the same number. */
function bm25Score(idf: number, termFreq: number, fieldLength: number, avgFieldLength: number, { k, b, d }: Bm25Params): number {
  return idf * (d + (termFreq * (k + 1)) / (termFreq + k * (1 - b + (b * fieldLength) / avgFieldLength)));
}
