import { TermList } from '../../kernels/term-list.js';
import { VarintReader, VarintWriter } from '../../kernels/varint.js';

/**
 * The lexical index's postings: term → per field, the documents holding it and how often.
 * Loaded or bulk built they stay flat — sorted terms, each with a span of varints in one
 * byte array — because a query touches a handful of 30k terms and a one-object-per-posting
 * form takes seconds to build at 10k pages. A term moves into arrays only when a page
 * added later brings it, and only that term.
 */

/**
 * Sorted terms; term t's postings are the bytes `postings[offsets[t] … offsets[t + 1])`:
 * varints `[fieldId, count, (doc gap, tf) × count]*`, each field's documents ascending,
 * as zigzag gaps from the one before (the first from 0).
 */
export interface FlatPostings {
  terms: TermList;
  offsets: Uint32Array;
  postings: Uint8Array;
}

export interface PostingSpan {
  data: Uint8Array;
  start: number;
  end: number;
}

/** One field's postings: documents ascending, each with its term frequency. */
export interface FieldPostings {
  docs: number[];
  tfs: number[];
}

/** One term's postings in arrays, by field id (a field without the term has none). */
export type TermFields = Array<FieldPostings | undefined>;

/** A term's postings: still flat, or moved into arrays. */
export type TermPostings = { span: PostingSpan } | { fields: TermFields };

export class PostingStore {
  /** 1 once a flat term has moved into `changed`. */
  private readonly moved: Uint8Array;
  private readonly changed = new Map<string, TermFields>();

  constructor(private readonly flat: FlatPostings) {
    this.moved = new Uint8Array(flat.terms.length);
  }

  static empty(): PostingStore {
    return new PostingStore({ terms: TermList.of([]), offsets: new Uint32Array(1), postings: new Uint8Array(0) });
  }

  get(term: string): TermPostings | undefined {
    const fields = this.changed.get(term);
    if (fields) return { fields };
    const position = this.flat.terms.indexOf(term);
    return position >= 0 && this.moved[position] !== 1 ? { span: this.spanAt(position) } : undefined;
  }

  /** Add a posting; `doc` must be above every document the term already has in the field. */
  add(term: string, fieldId: number, doc: number, tf: number): void {
    let fields = this.changed.get(term);
    if (!fields) {
      const position = this.flat.terms.indexOf(term);
      fields = [];
      if (position >= 0 && this.moved[position] !== 1) {
        this.moved[position] = 1;
        readSpan(this.spanAt(position), (id, docs, tfs) => {
          fields![id] = { docs, tfs };
        });
      }
      this.changed.set(term, fields);
    }
    const postings = (fields[fieldId] ??= { docs: [], tfs: [] });
    if (postings.docs.length > 0 && postings.docs[postings.docs.length - 1]! >= doc) throw new Error('postings must be added in document order');
    postings.docs.push(doc);
    postings.tfs.push(tf);
  }

  /** The flat postings as given, while no term has moved. */
  untouched(): FlatPostings | undefined {
    return this.changed.size === 0 ? this.flat : undefined;
  }

  /** Every term with its postings, in term order. */
  *entries(): Generator<[string, TermPostings]> {
    const flatTerms = this.flat.terms.all();
    const changedTerms = [...this.changed.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    let c = 0;
    for (let t = 0; t <= flatTerms.length; t++) {
      const term = flatTerms[t];
      for (; c < changedTerms.length && (term === undefined || changedTerms[c]! < term); c++) {
        yield [changedTerms[c]!, { fields: this.changed.get(changedTerms[c]!)! }];
      }
      if (term !== undefined && this.moved[t] !== 1) yield [term, { span: this.spanAt(t) }];
    }
  }

  private spanAt(position: number): PostingSpan {
    const { postings, offsets } = this.flat;
    return { data: postings, start: offsets[position] ?? 0, end: offsets[position + 1] ?? 0 };
  }
}

/** Call `each(fieldId, docs, tfs)` for every field group of an encoded span. */
export function readSpan(span: PostingSpan, each: (fieldId: number, docs: number[], tfs: number[]) => void): void {
  const reader = new VarintReader(span.data, span.start);
  while (reader.position < span.end) {
    const fieldId = reader.next();
    const count = reader.next();
    const docs: number[] = [];
    const tfs: number[] = [];
    for (let n = 0, doc = 0; n < count && reader.position < span.end; n++) {
      doc += reader.nextGap();
      docs.push(doc);
      tfs.push(reader.next());
    }
    each(fieldId, docs, tfs);
  }
}

/**
 * The store's postings as flat postings, each document renumbered by `renumber` (-1: left
 * out). Without `renumber` every document is kept as it is, and untouched spans are
 * copied as they are.
 */
export function flattenPostings(store: PostingStore, renumber: Int32Array | undefined): { terms: string[]; offsets: Uint32Array; postings: Uint8Array } {
  const terms: string[] = [];
  const offsets: number[] = [];
  const out = new VarintWriter(1 << 20);
  for (const [term, postings] of store.entries()) {
    const start = out.length;
    if ('span' in postings && !renumber) out.pushBytes(postings.span.data, postings.span.start, postings.span.end);
    else if ('span' in postings) readSpan(postings.span, (fieldId, docs, tfs) => writeGroup(out, fieldId, docs, tfs, renumber));
    else postings.fields.forEach((field, fieldId) => field && writeGroup(out, fieldId, field.docs, field.tfs, renumber));
    if (out.length === start) continue;
    terms.push(term);
    offsets.push(start);
  }
  offsets.push(out.length);
  return { terms, offsets: Uint32Array.from(offsets), postings: out.finish() };
}

function writeGroup(out: VarintWriter, fieldId: number, docs: readonly number[], tfs: readonly number[], renumber: Int32Array | undefined): void {
  let kept = 0;
  for (const doc of docs) if (!renumber || (renumber[doc] ?? -1) >= 0) kept++;
  if (kept === 0) return;
  out.push(fieldId);
  out.push(kept);
  for (let n = 0, previous = 0; n < docs.length; n++) {
    const doc = renumber ? (renumber[docs[n]!] ?? -1) : docs[n]!;
    if (doc < 0) continue;
    out.pushGap(doc - previous);
    out.push(tfs[n]!);
    previous = doc;
  }
}
