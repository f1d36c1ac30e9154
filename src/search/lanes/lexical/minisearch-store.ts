import MiniSearch, { type Options } from 'minisearch';
import { CorruptIndexError, Uint32Builder, asUint32, bytesOf, decodeJson, encodeJson, encodeTerms } from '../../kernels/binary.js';
import { bulkPostings, type BulkEntry } from './lexical-bulk.js';
import { ExactScorer, type Bm25Params, type ScoredId, type ScoringState } from './minisearch-scoring.js';
import { TermList } from '../../kernels/term-list.js';
import type { Vocabulary } from '../../text/vocabulary.js';
import { FlatTermIndex, LazyTermData, type FlatPostings, type PostingSpan, type TermData } from '../token/term-index.js';
import { VarintReader, VarintWriter } from '../../kernels/varint.js';

export type { Bm25Params, ScoredId } from './minisearch-scoring.js';

/**
 * MiniSearch with a compact persisted form and a fast bulk build. MiniSearch's own JSON
 * takes seconds to load at 10k pages (one JS object per posting), and adding 10k pages
 * one by one spends most of a full build growing its maps; here postings live in flat
 * Uint32 arrays (see FlatTermIndex) and become MiniSearch's maps only for the terms a
 * query or a later change touches. The subclass reaches MiniSearch's protected state,
 * which its type declarations expose for extension but no release promises to keep:
 * package.json pins minisearch to the exact version this was written and tested against
 * (7.2.0), so an upgrade is a deliberate change that reruns test/search/minisearch-*.test.ts.
 */
export interface LexicalEntry {
  id: string;
  [field: string]: string;
}

/** A page for the bulk build, by its id (page path). */
export interface AnalysedEntry extends BulkEntry {
  id: string;
}

interface Meta {
  documentCount: number;
  nextId: number;
  fieldIds: Record<string, number>;
  averageFieldLength: number[];
  /** External ids (page paths) in the order of `docs`. */
  ids: string[];
}

/** Everything a PersistableMiniSearch is made of, flat. */
interface IndexParts {
  meta: Meta;
  /** Per document in `meta.ids` order: short id, then each field's length. */
  docs: Uint32Array;
  postings: FlatPostings;
}

export class PersistableMiniSearch extends MiniSearch<LexicalEntry> {
  private readonly scorer = new ExactScorer();

  /** See ExactScorer.search: MiniSearch's own BM25 numbers for exact terms, without its per-match objects. */
  searchExact(
    terms: readonly string[],
    boost: Readonly<Record<string, number>>,
    bm25: Bm25Params,
    limit: number,
    adjust: (score: number, matchedTerms: number) => number,
  ): ScoredId[] {
    return this.scorer.search(this.scoringState(), terms, boost, bm25, limit, adjust);
  }

  /** `searchExact`'s score of every matching document, with its short id and id (page path), in no order. */
  scoreEachExact(
    terms: readonly string[],
    boost: Readonly<Record<string, number>>,
    bm25: Bm25Params,
    adjust: (score: number, matchedTerms: number) => number,
    offer: (doc: number, id: string, score: number) => void,
  ): void {
    const state = this.scoringState();
    this.scorer.scoreEach(state, terms, boost, bm25, adjust, (doc, score) => offer(doc, String(state.documentIds.get(doc)), score));
  }

  private scoringState(): ScoringState {
    return {
      fields: this._options.fields,
      fieldIds: this._fieldIds,
      documentCount: this._documentCount,
      nextId: this._nextId,
      dirtCount: this._dirtCount,
      avgFieldLength: this._avgFieldLength,
      documentIds: this._documentIds,
      fieldLength: this._fieldLength,
      termData: (term) => this._index.get(term) as TermData | undefined,
      removeTerm: (fieldId, documentId, term) => (this as unknown as RemoveTerm).removeTerm(fieldId, documentId, term),
    };
  }

  /** Encode the index; postings of discarded documents are left out (a vacuum for free). */
  encode(): Record<string, Uint8Array> {
    const liveIds = this._documentIds;
    const fieldCount = Object.keys(this._fieldIds).length;
    const order = [...liveIds.keys()];
    const docs = new Uint32Array(order.length * (1 + fieldCount));
    order.forEach((shortId, i) => {
      docs[i * (1 + fieldCount)] = shortId;
      const lengths = this._fieldLength.get(shortId) ?? [];
      for (let f = 0; f < fieldCount; f++) docs[i * (1 + fieldCount) + 1 + f] = lengths[f] ?? 0;
    });
    // Every short id below nextId still live: spans can be copied whole.
    const allLive = liveIds.size === this._nextId;
    const meta: Meta = {
      documentCount: this._documentCount,
      nextId: this._nextId,
      fieldIds: this._fieldIds,
      averageFieldLength: this._avgFieldLength,
      ids: order.map((shortId) => String(liveIds.get(shortId))),
    };
    const index = this._index as unknown;
    // Postings as built or loaded, every document live: they are what would be written.
    const untouched = allLive && index instanceof FlatTermIndex ? index.untouched() : undefined;
    if (untouched) {
      return {
        meta: encodeJson(meta),
        docs: bytesOf(docs),
        terms: untouched.terms.encode(),
        offsets: bytesOf(untouched.offsets),
        postings: untouched.postings,
      };
    }
    const alive = new Uint8Array(this._nextId);
    for (const shortId of order) alive[shortId] = 1;
    const entries: Array<[string, TermData | PostingSpan]> = [];
    if (index instanceof FlatTermIndex) for (const entry of index.rawEntries()) entries.push(entry);
    else for (const entry of this._index as Iterable<[string, TermData]>) entries.push(entry);
    // Sorted, so a load can binary-search the terms without building anything (entries
    // straight from flat postings usually are already).
    if (!entries.every((entry, i) => i === 0 || (entries[i - 1]?.[0] ?? '') < entry[0])) {
      entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    }
    const terms: string[] = [];
    const offsets = new Uint32Builder(entries.length + 1);
    const postings = new VarintWriter(1 << 20);
    for (const [term, data] of entries) {
      const start = postings.length;
      const span = data instanceof Map ? (data instanceof LazyTermData ? data.rawSpan() : undefined) : data;
      if (span && allLive) postings.pushBytes(span.data, span.start, span.end);
      else if (span) copyLiveSpan(span, alive, postings);
      else writeTermData(data as TermData, alive, postings);
      if (postings.length === start) continue;
      terms.push(term);
      offsets.push(start);
    }
    offsets.push(postings.length);
    return {
      meta: encodeJson(meta),
      docs: bytesOf(docs),
      terms: encodeTerms(terms),
      offsets: bytesOf(offsets.finish()),
      postings: postings.finish(),
    };
  }

  static decode(sections: Record<string, Uint8Array | undefined>, options: Options<LexicalEntry>): PersistableMiniSearch {
    const need = (name: string): Uint8Array => {
      const bytes = sections[name];
      if (!bytes) throw new CorruptIndexError(`lexical section ${name} is missing`);
      return bytes;
    };
    const meta = decodeJson(need('meta')) as Meta;
    if (!meta || !Array.isArray(meta.ids) || typeof meta.nextId !== 'number') throw new CorruptIndexError('lexical metadata is malformed');
    const fieldCount = Object.keys(meta.fieldIds ?? {}).length;
    const docs = asUint32(need('docs'));
    const terms = TermList.decode(need('terms'));
    const offsets = asUint32(need('offsets'));
    const postings = need('postings');
    if (docs.length !== meta.ids.length * (1 + fieldCount) || offsets.length !== terms.length + 1) {
      throw new CorruptIndexError('lexical sections disagree in size');
    }
    if ((offsets[terms.length] ?? 0) !== postings.length) throw new CorruptIndexError('lexical postings are truncated');
    for (let t = 0; t < terms.length; t++) {
      if ((offsets[t + 1] ?? 0) < (offsets[t] ?? 0)) throw new CorruptIndexError('lexical term offsets are not ordered');
    }
    for (let i = 0; i < meta.ids.length; i++) {
      if ((docs[i * (1 + fieldCount)] ?? 0) >= meta.nextId) throw new CorruptIndexError('lexical document id out of range');
    }
    return PersistableMiniSearch.fromParts({ meta, docs, postings: { terms, offsets, postings } }, options);
  }

  /**
   * The index MiniSearch would hold after adding `entries` one by one to an empty index
   * (same short ids, field lengths, running average lengths and term frequencies), built
   * without its per-term maps. Terms are ids in `vocabulary`. Field lengths count distinct
   * terms, and an empty field counts one, as in MiniSearch 7.
   */
  static build(entries: readonly AnalysedEntry[], vocabulary: Vocabulary, options: Options<LexicalEntry>): PersistableMiniSearch {
    const ids = entries.map((entry) => entry.id);
    if (new Set(ids).size !== ids.length) throw new Error('a bulk build needs distinct ids');
    const fieldIds = new PersistableMiniSearch(options)._fieldIds;
    const fieldCount = Object.keys(fieldIds).length;
    const { docs, averageFieldLength, postings } = bulkPostings(entries, vocabulary, fieldCount);
    const meta: Meta = { documentCount: entries.length, nextId: entries.length, fieldIds, averageFieldLength, ids };
    return PersistableMiniSearch.fromParts({ meta, docs, postings }, options);
  }

  private static fromParts(parts: IndexParts, options: Options<LexicalEntry>): PersistableMiniSearch {
    const { meta, docs } = parts;
    const fieldCount = Object.keys(meta.fieldIds).length;
    const index = new PersistableMiniSearch(options);
    index._documentCount = meta.documentCount;
    index._nextId = meta.nextId;
    index._fieldIds = meta.fieldIds;
    index._avgFieldLength = meta.averageFieldLength;
    index._dirtCount = 0;
    const { _documentIds: documentIds, _idToShortId: idToShortId, _fieldLength: fieldLength } = index;
    for (let i = 0, base = 0; i < meta.ids.length; i++, base += 1 + fieldCount) {
      const id = meta.ids[i] ?? '';
      const shortId = docs[base]!;
      documentIds.set(shortId, id);
      idToShortId.set(id, shortId);
      const lengths = new Array<number>(fieldCount);
      for (let f = 0; f < fieldCount; f++) lengths[f] = docs[base + 1 + f]!;
      fieldLength.set(shortId, lengths);
    }
    // Two declarations of SearchableMap (package root and subpath) that TypeScript cannot
    // unify because of a private member; at run time MiniSearch only calls its methods.
    index._index = new FlatTermIndex(parts.postings) as unknown as typeof index._index;
    return index;
  }
}

/** Copy an encoded span without the postings of documents not `alive`, decoding as it goes. */
function copyLiveSpan(span: PostingSpan, alive: Uint8Array, out: VarintWriter): void {
  const reader = new VarintReader(span.data, span.start);
  while (reader.position < span.end) {
    const header = reader.position;
    const fieldId = reader.next();
    const count = reader.next();
    const group = reader.position;
    // Count the live postings first: the count is written before them.
    let kept = 0;
    for (let n = 0, shortId = 0; n < count; n++) {
      shortId += reader.nextGap();
      reader.next();
      if (alive[shortId] === 1) kept++;
    }
    if (kept === 0) continue;
    if (kept === count) {
      out.pushBytes(span.data, header, reader.position); // nothing to leave out: the bytes as they are
      continue;
    }
    const end = reader.position;
    out.push(fieldId);
    out.push(kept);
    reader.position = group;
    for (let n = 0, shortId = 0, previous = 0; n < count; n++) {
      shortId += reader.nextGap();
      const tf = reader.next();
      if (alive[shortId] !== 1) continue;
      out.pushGap(shortId - previous);
      out.push(tf);
      previous = shortId;
    }
    reader.position = end;
  }
}

function writeTermData(data: TermData, alive: Uint8Array, out: VarintWriter): void {
  for (const [fieldId, postings] of data) {
    let kept = 0;
    for (const shortId of postings.keys()) if (alive[shortId] === 1) kept++;
    if (kept === 0) continue;
    out.push(fieldId);
    out.push(kept);
    let previous = 0;
    for (const [shortId, tf] of postings) {
      if (alive[shortId] !== 1) continue;
      out.pushGap(shortId - previous);
      out.push(tf);
      previous = shortId;
    }
  }
}

/** MiniSearch's (private) cleanup of a discarded document's posting, which its scoring runs as it goes. */
interface RemoveTerm {
  removeTerm(fieldId: number, documentId: number, term: string): void;
}
