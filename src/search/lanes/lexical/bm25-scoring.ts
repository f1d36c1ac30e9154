import { BestScores, type ScoredId } from './best-scores.js';
import type { PostingSpan, TermFields, TermPostings } from './term-postings.js';
import { VarintReader } from '../../kernels/varint.js';

export type { ScoredId } from './best-scores.js';

export interface Bm25Params {
  k: number;
  b: number;
  /** BM25+'s lower bound on a matching term's frequency component (0: plain BM25). */
  d: number;
  /**
   * BM25F (Robertson, Zaragoza & Taylor 2004) instead of a sum of one BM25 per field: each
   * field's term frequency, length-normalised and boosted, is summed first and saturated
   * once, with one idf from the pages holding the term in any field. A word repeated in
   * title, summary and body then counts as a page mentioning it more, not as three
   * separate matches each near its saturation.
   */
  fieldsCombined?: boolean;
  /**
   * Each term's idf raised to this power (1 or absent: plain BM25). Above 1 a rare query
   * term counts for more against a common one, so the words of a long, wordy query that
   * most pages hold ("articles", "interested", "methods") weigh less than its topic words.
   */
  idfExponent?: number;
}

/** What the scorer reads of the index. Documents are numbered 0 … `capacity` − 1. */
export interface ScoringView {
  readonly fieldCount: number;
  /** Live documents (the N of the idf). */
  readonly documentCount: number;
  readonly capacity: number;
  /** Each field's average length over the live documents. */
  readonly averageLength: ArrayLike<number>;
  /** Field lengths by document × field (distinct terms; an empty field counts one). */
  readonly lengths: Uint32Array;
  /** 1 for a live document; undefined when every document below `capacity` is live. */
  readonly alive: Uint8Array | undefined;
  postings(term: string): TermPostings | undefined;
}

/** Per-search work arrays indexed by document, kept between searches (cleared as they are used). */
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
 * BM25 ranking of exact terms (combined with OR) over the fields, one scorer per index (it
 * keeps work arrays sized to the index between searches). A document's score is the sum
 * over the query terms — a repeated term adds again but counts as matched once — of either
 * Σ_field boost × BM25(tf, field length, field average, idf of the field's postings), or
 * under BM25F idf × saturation(Σ_field boost × normalised tf). Fields are summed in field
 * order and terms in query order, so a document's score does not depend on how its
 * postings are stored.
 */
export class Bm25Scorer {
  private scratch: Scratch | undefined;
  private stampCounter = 0;

  /** The `limit` best documents (each summed score and distinct matched terms through `adjust`), best first, ties by id. */
  search(
    view: ScoringView,
    idOf: (doc: number) => string,
    terms: readonly string[],
    boost: Readonly<Record<string, number>>,
    fields: readonly string[],
    bm25: Bm25Params,
    limit: number,
    adjust: (score: number, matchedTerms: number) => number,
  ): ScoredId[] {
    const best = new BestScores(limit, idOf);
    this.scoreEach(view, terms, boost, fields, bm25, adjust, (doc, score) => best.offer(doc, score));
    return best.sorted();
  }

  /** Every matching document with its score as `search` computes it, in no order. */
  scoreEach(
    view: ScoringView,
    terms: readonly string[],
    boost: Readonly<Record<string, number>>,
    fieldNames: readonly string[],
    bm25: Bm25Params,
    adjust: (score: number, matchedTerms: number) => number,
    offer: (doc: number, score: number) => void,
  ): void {
    const scratch = this.scratchFor(view.capacity);
    const { total, matched, seen } = scratch;
    const combined = bm25.fieldsCombined === true;
    const fields = fieldNames.map((field, id) => {
      const given = Object.hasOwn(boost, field) ? boost[field] : undefined;
      // BM25F takes a zero boost at its word (a field left out); the per-field sum counts a missing or zero boost as 1.
      return { id, boost: combined ? (given ?? 1) : given || 1 };
    });
    const touched: number[] = [];
    const seenTerms = new Set<string>();
    for (const term of terms) {
      const postings = view.postings(term);
      if (postings === undefined) continue;
      const termDocs: number[] = [];
      if (this.stampCounter === 0xffffffff) {
        scratch.stamp.fill(0);
        this.stampCounter = 0;
      }
      const stamp = ++this.stampCounter;
      if ('span' in postings) this.scoreSpan(view, postings.span, fields, bm25, stamp, termDocs);
      else this.scoreFields(view, postings.fields, fields, bm25, stamp, termDocs);
      const partial = scratch.partial;
      if (combined) saturate(partial, termDocs, view.documentCount, bm25);
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

  /** One term's field scores from its flat span, fields in field order. */
  private scoreSpan(view: ScoringView, span: PostingSpan, fields: readonly FieldBoost[], bm25: Bm25Params, stamp: number, termDocs: number[]): void {
    // A span's field groups are found first (the last one for a field counts), then read in field order.
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
    const { alive } = view;
    for (const field of fields) {
      const header = groups.get(field.id);
      if (header === undefined) continue;
      reader.position = header;
      reader.next();
      const count = reader.next();
      const start = reader.position;
      let matching = count;
      if (alive && !bm25.fieldsCombined) {
        matching = 0;
        for (let n = 0, doc = 0; n < count && reader.position < span.end; n++) {
          doc += reader.nextGap();
          reader.next();
          if (alive[doc] === 1) matching++;
        }
        reader.position = start;
      }
      const idf = termWeight(matching, view.documentCount, bm25);
      for (let n = 0, doc = 0; n < count && reader.position < span.end; n++) {
        doc += reader.nextGap();
        const termFreq = reader.next();
        if (alive && alive[doc] !== 1) continue;
        this.addFieldScore(view, doc, termFreq, field, idf, bm25, stamp, termDocs);
      }
    }
  }

  /** One term's field scores from its arrays, fields in field order. */
  private scoreFields(view: ScoringView, postings: TermFields, fields: readonly FieldBoost[], bm25: Bm25Params, stamp: number, termDocs: number[]): void {
    const { alive } = view;
    for (const field of fields) {
      const group = postings[field.id];
      if (group === undefined) continue;
      const { docs, tfs } = group;
      let matching = docs.length;
      if (alive && !bm25.fieldsCombined) {
        matching = 0;
        for (const doc of docs) if (alive[doc] === 1) matching++;
      }
      const idf = termWeight(matching, view.documentCount, bm25);
      for (let n = 0; n < docs.length; n++) {
        const doc = docs[n]!;
        if (alive && alive[doc] !== 1) continue;
        this.addFieldScore(view, doc, tfs[n]!, field, idf, bm25, stamp, termDocs);
      }
    }
  }

  private addFieldScore(view: ScoringView, doc: number, termFreq: number, field: FieldBoost, idf: number, bm25: Bm25Params, stamp: number, termDocs: number[]): void {
    const { partial, stamp: stamps } = this.scratch!;
    const fieldLength = view.lengths[doc * view.fieldCount + field.id]!;
    const averageLength = view.averageLength[field.id]!;
    if (stamps[doc] !== stamp) {
      stamps[doc] = stamp;
      termDocs.push(doc);
    }
    partial[doc] =
      partial[doc]! +
      field.boost * (bm25.fieldsCombined ? normalisedFrequency(termFreq, fieldLength, averageLength, bm25) : bm25Score(idf, termFreq, fieldLength, averageLength, bm25));
  }
}

/** BM25F: a field's term frequency over its length-normalisation factor (before boost and saturation). */
function normalisedFrequency(termFreq: number, fieldLength: number, averageLength: number, { b }: Bm25Params): number {
  return termFreq / (1 - b + (b * fieldLength) / (averageLength || 1));
}

/** BM25F's second step for one term: each page's summed weighted frequency saturated, times the idf. */
function saturate(partial: Float64Array, termDocs: readonly number[], documentCount: number, bm25: Bm25Params): void {
  const { k, d } = bm25;
  const idf = termWeight(termDocs.length, documentCount, bm25);
  for (const doc of termDocs) {
    const frequency = partial[doc]!;
    partial[doc] = frequency > 0 ? idf * (d + (frequency * (k + 1)) / (k + frequency)) : 0;
  }
}

/** BM25's idf, kept positive for terms in most documents: ln(1 + (N − n + ½) / (n + ½)). */
export function inverseDocumentFrequency(matchingCount: number, totalCount: number): number {
  return Math.log(1 + (totalCount - matchingCount + 0.5) / (matchingCount + 0.5));
}

/** A term's weight: its idf, raised to `idfExponent` when one is given. */
function termWeight(matchingCount: number, totalCount: number, { idfExponent }: Bm25Params): number {
  const idf = inverseDocumentFrequency(matchingCount, totalCount);
  return idfExponent === undefined || idfExponent === 1 ? idf : idf ** idfExponent;
}

/** BM25(+) of one term in one field, the idf computed once per term and field. */
function bm25Score(idf: number, termFreq: number, fieldLength: number, averageLength: number, { k, b, d }: Bm25Params): number {
  return idf * (d + (termFreq * (k + 1)) / (termFreq + k * (1 - b + (b * fieldLength) / averageLength)));
}
