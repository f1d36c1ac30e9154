import { CorruptIndexError, asFloat64, asUint32, bytesOf, decodeJson, encodeJson, encodeTerms } from '../../kernels/binary.js';
import { TermList } from '../../kernels/term-list.js';
import type { Vocabulary } from '../../text/vocabulary.js';
import { bulkPostings, type BulkEntry } from './lexical-bulk.js';
import { Bm25Scorer, type Bm25Params, type ScoredId, type ScoringView } from './bm25-scoring.js';
import { PostingStore, flattenPostings, readSpan, type FlatPostings, type TermPostings } from './term-postings.js';

export type { Bm25Params, ScoredId } from './bm25-scoring.js';

/** A page for the bulk build, by its id (page path). */
export interface AnalysedEntry extends BulkEntry {
  id: string;
}

/** The persisted form's layout; a file written under another one is refused (and the index rebuilt). */
const LAYOUT = 'bm25-fields-1';

interface Meta {
  layout: string;
  fields: string[];
}

/**
 * An inverted index for BM25 over named fields: term → per field the documents holding it
 * with their term frequencies, each document's field lengths (distinct terms; an empty
 * field counts one), the live document count and each field's average length.
 *
 * Documents are numbered in the order they were added. Removing one only marks it dead:
 * its postings stay until the next save (which writes the live documents renumbered from
 * 0), and scoring skips them and counts only live ones. The average lengths are kept as
 * running means, updated as each document comes and goes, and saved as they are, so an
 * index built in one go, page by page, or loaded scores alike to the last bit.
 */
export class Bm25Index implements ScoringView {
  private readonly scorer = new Bm25Scorer();
  // The ScoringView the scorer reads; changed only by this class.
  readonly fieldCount: number;
  documentCount = 0;
  /** Documents numbered so far, live or dead. */
  capacity = 0;
  averageLength: Float64Array;
  lengths: Uint32Array;
  alive: Uint8Array | undefined;
  /** Ids by document, spelled out from `idList` when first needed ('' for a dead one). */
  private ids: string[] | undefined;
  private idList: TermList | readonly string[] | undefined;
  private documentOf: Map<string, number> | undefined;

  private constructor(
    readonly fields: readonly string[],
    private store: PostingStore,
    ids: TermList | readonly string[],
    lengths: Uint32Array,
    averageLength: Float64Array,
  ) {
    this.fieldCount = fields.length;
    this.idList = ids;
    this.capacity = ids.length;
    this.documentCount = ids.length;
    this.lengths = lengths;
    this.averageLength = averageLength;
  }

  static empty(fields: readonly string[]): Bm25Index {
    return new Bm25Index(fields, PostingStore.empty(), TermList.of([]), new Uint32Array(0), new Float64Array(fields.length));
  }

  /**
   * The index adding `entries` one by one to an empty index gives (same numbering, lengths,
   * running averages and postings), built without per-term objects. Terms are ids in
   * `vocabulary`, each entry's fields one after another.
   */
  static build(entries: readonly AnalysedEntry[], vocabulary: Vocabulary, fields: readonly string[]): Bm25Index {
    const ids = entries.map((entry) => entry.id);
    if (new Set(ids).size !== ids.length) throw new Error('a bulk build needs distinct ids');
    const { lengths, averageLength, postings } = bulkPostings(entries, vocabulary, fields.length);
    return new Bm25Index(fields, new PostingStore(postings), TermList.of(ids), lengths, Float64Array.from(averageLength));
  }

  /**
   * `sameIds`: the ids the index was saved with when it left them out (see `encode`), the
   * page table's paths in slot order.
   */
  static decode(sections: Record<string, Uint8Array | undefined>, fields: readonly string[], sameIds?: readonly string[]): Bm25Index {
    const need = (name: string): Uint8Array => {
      const bytes = sections[name];
      if (!bytes) throw new CorruptIndexError(`lexical section ${name} is missing`);
      return bytes;
    };
    const meta = decodeJson(need('meta')) as Partial<Meta> | null;
    if (meta?.layout !== LAYOUT || !Array.isArray(meta.fields) || meta.fields.join('\n') !== fields.join('\n')) {
      throw new CorruptIndexError('lexical index has another layout or other fields');
    }
    const idSection = sections.ids;
    if (!idSection && !sameIds) throw new CorruptIndexError('lexical section ids is missing');
    const ids = idSection ? TermList.decode(idSection) : sameIds!;
    const lengths = asUint32(need('lengths'));
    const averageLength = Float64Array.from(asFloat64(need('averages')));
    const postings: FlatPostings = { terms: TermList.decode(need('terms')), offsets: asUint32(need('offsets')), postings: need('postings') };
    const { terms, offsets } = postings;
    if (lengths.length !== ids.length * fields.length || averageLength.length !== fields.length || offsets.length !== terms.length + 1) {
      throw new CorruptIndexError('lexical sections disagree in size');
    }
    if ((offsets[terms.length] ?? 0) !== postings.postings.length) throw new CorruptIndexError('lexical postings are truncated');
    for (let t = 0; t < terms.length; t++) {
      if ((offsets[t + 1] ?? 0) < (offsets[t] ?? 0)) throw new CorruptIndexError('lexical term offsets are not ordered');
    }
    return new Bm25Index(fields, new PostingStore(postings), ids, lengths, averageLength);
  }

  /**
   * The live documents renumbered from 0 in their order, without the postings of dead ones.
   * When their ids are `sameIds` (the page table's paths, which a load has already read)
   * they are left out, and `decode` takes them back from there.
   */
  encode(sameIds?: readonly string[]): Record<string, Uint8Array> {
    const ids = this.idArray();
    const F = this.fieldCount;
    let renumber: Int32Array | undefined;
    let lengths = this.lengths.subarray(0, this.capacity * F);
    let live = ids;
    if (this.alive) {
      renumber = new Int32Array(this.capacity).fill(-1);
      live = [];
      lengths = new Uint32Array(this.documentCount * F);
      for (let doc = 0; doc < this.capacity; doc++) {
        if (this.alive[doc] !== 1) continue;
        renumber[doc] = live.length;
        lengths.set(this.lengths.subarray(doc * F, doc * F + F), live.length * F);
        live.push(ids[doc]!);
      }
    }
    const meta: Meta = { layout: LAYOUT, fields: [...this.fields] };
    const untouched = renumber ? undefined : this.store.untouched();
    const flat = untouched
      ? { terms: untouched.terms.encode(), offsets: untouched.offsets, postings: untouched.postings }
      : (({ terms, offsets, postings }) => ({ terms: encodeTerms(terms), offsets, postings }))(flattenPostings(this.store, renumber));
    const idsKnown = sameIds !== undefined && sameIds.length === live.length && live.every((id, doc) => id === sameIds[doc]);
    return {
      meta: encodeJson(meta),
      ...(idsKnown ? {} : { ids: encodeTerms(live) }),
      lengths: bytesOf(lengths.slice()),
      averages: bytesOf(this.averageLength.slice()),
      terms: flat.terms,
      offsets: bytesOf(flat.offsets),
      postings: flat.postings,
    };
  }

  get size(): number {
    return this.documentCount;
  }

  has(id: string): boolean {
    return this.documents().has(id);
  }

  /** Add a document: per field (in field order) its terms, as many times as they occur. */
  add(id: string, fieldTerms: ReadonlyArray<readonly string[]>): void {
    const documents = this.documents();
    if (documents.has(id)) throw new Error(`document ${id} is already in the index`);
    const doc = this.capacity;
    this.grow(doc + 1);
    this.idArray()[doc] = id;
    documents.set(id, doc);
    this.alive?.fill(1, doc, doc + 1);
    const count = this.documentCount++;
    this.capacity++;
    for (let fieldId = 0; fieldId < this.fieldCount; fieldId++) {
      const terms = fieldTerms[fieldId] ?? [];
      const frequencies = new Map<string, number>();
      for (const term of terms) frequencies.set(term, (frequencies.get(term) ?? 0) + 1);
      const length = frequencies.size || 1;
      this.lengths[doc * this.fieldCount + fieldId] = length;
      this.averageLength[fieldId] = (this.averageLength[fieldId]! * count + length) / (count + 1);
      for (const [term, tf] of frequencies) this.store.add(term, fieldId, doc, tf);
    }
  }

  remove(id: string): boolean {
    const documents = this.documents();
    const doc = documents.get(id);
    if (doc === undefined) return false;
    documents.delete(id);
    this.idArray()[doc] = '';
    if (!this.alive) this.alive = new Uint8Array(this.lengths.length / Math.max(1, this.fieldCount)).fill(1, 0, this.capacity);
    this.alive[doc] = 0;
    const count = this.documentCount--;
    for (let fieldId = 0; fieldId < this.fieldCount; fieldId++) {
      const length = this.lengths[doc * this.fieldCount + fieldId]!;
      this.averageLength[fieldId] = count === 1 ? 0 : (this.averageLength[fieldId]! * count - length) / (count - 1);
    }
    return true;
  }

  postings(term: string): TermPostings | undefined {
    return this.store.get(term);
  }

  /** How many live documents hold `term` in any field. */
  documentFrequency(term: string): number {
    const postings = this.store.get(term);
    if (!postings) return 0;
    // A mark per document: a common term's postings in a large wiki are many, a Set of them dear.
    const seen = new Uint8Array(this.capacity);
    let holders = 0;
    const addLive = (docs: readonly number[]): void => {
      for (const doc of docs) {
        if (seen[doc] === 1 || (this.alive && this.alive[doc] !== 1)) continue;
        seen[doc] = 1;
        holders++;
      }
    };
    if ('span' in postings) readSpan(postings.span, (_field, docs) => addLive(docs));
    else for (const field of postings.fields) if (field) addLive(field.docs);
    return holders;
  }

  idAt(doc: number): string {
    return this.idArray()[doc] ?? '';
  }

  /** See Bm25Scorer.search. */
  search(terms: readonly string[], boost: Readonly<Record<string, number>>, bm25: Bm25Params, limit: number, adjust: (score: number, matched: number) => number): ScoredId[] {
    return this.scorer.search(this, (doc) => this.idAt(doc), terms, boost, this.fields, bm25, limit, adjust);
  }

  /** `search`'s score of every matching document, with its number and id, in no order. */
  scoreEach(
    terms: readonly string[],
    boost: Readonly<Record<string, number>>,
    bm25: Bm25Params,
    adjust: (score: number, matched: number) => number,
    offer: (doc: number, id: string, score: number) => void,
  ): void {
    const ids = this.idArray();
    this.scorer.scoreEach(this, terms, boost, this.fields, bm25, adjust, (doc, score) => offer(doc, ids[doc] ?? '', score));
  }

  private idArray(): string[] {
    if (!this.ids) {
      const list = this.idList;
      this.ids = list instanceof TermList ? [...list.all()] : [...(list ?? [])];
      this.idList = undefined;
    }
    return this.ids;
  }

  private documents(): Map<string, number> {
    if (!this.documentOf) {
      this.documentOf = new Map();
      this.idArray().forEach((id, doc) => {
        if (this.alive?.[doc] !== 0) this.documentOf!.set(id, doc);
      });
    }
    return this.documentOf;
  }

  /** Room for `documents` documents in the per-document arrays. */
  private grow(documents: number): void {
    const F = this.fieldCount;
    if (this.lengths.length >= documents * F) return;
    const capacity = Math.max(64, documents, 2 * (this.lengths.length / Math.max(1, F)));
    const lengths = new Uint32Array(capacity * F);
    lengths.set(this.lengths);
    this.lengths = lengths;
    if (this.alive) {
      const alive = new Uint8Array(capacity);
      alive.set(this.alive);
      this.alive = alive;
    }
  }
}
