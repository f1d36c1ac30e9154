import SearchableMap from 'minisearch/SearchableMap';
import type { TermList } from '../../kernels/term-list.js';
import { VarintReader } from '../../kernels/varint.js';

/**
 * MiniSearch's term dictionary over flat postings. MiniSearch keeps, per term, a map of
 * field → (document → term frequency) in a radix tree; building that tree and those maps
 * for 30k terms is most of the cost of loading or bulk-building a 10k-page index, while a
 * query touches a handful of terms. Here the terms stay in a sorted list with their
 * postings in one byte array, and a term enters the tree (as a lazily read map) only
 * when MiniSearch first asks for it.
 */
export type TermData = Map<number, Map<number, number>>;

/**
 * Sorted terms; term t's postings are the bytes `postings[offsets[t] … offsets[t + 1])`:
 * varints `[fieldId, count, (shortId gap, tf) × count]*`, each field's short ids as gaps
 * from the one before (the first from 0).
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

/** Call `each(fieldId, shortIds, tfs)` for every field group of an encoded span. */
export function readSpan(span: PostingSpan, each: (fieldId: number, shortIds: number[], tfs: number[]) => void): void {
  const reader = new VarintReader(span.data, span.start);
  while (reader.position < span.end) {
    const fieldId = reader.next();
    const count = reader.next();
    const shortIds: number[] = [];
    const tfs: number[] = [];
    let shortId = 0;
    for (let n = 0; n < count && reader.position < span.end; n++) {
      shortId += reader.nextGap();
      shortIds.push(shortId);
      tfs.push(reader.next());
    }
    each(fieldId, shortIds, tfs);
  }
}

/** Postings of one term read into maps only when first used. */
export class LazyTermData extends Map<number, Map<number, number>> {
  /** Undefined once read into the map. Kept flat (no span object): one object per term. */
  private data: Uint8Array | undefined;

  constructor(
    data: Uint8Array,
    private readonly start: number,
    private readonly end: number,
  ) {
    super();
    this.data = data;
  }

  /** The raw span while still unread, so a save can copy it without building maps. */
  rawSpan(): PostingSpan | undefined {
    return this.data ? { data: this.data, start: this.start, end: this.end } : undefined;
  }

  private load(): void {
    const data = this.data;
    if (!data) return;
    this.data = undefined;
    readSpan({ data, start: this.start, end: this.end }, (fieldId, shortIds, tfs) => {
      const postings = new Map<number, number>();
      shortIds.forEach((shortId, n) => postings.set(shortId, tfs[n] ?? 0));
      Map.prototype.set.call(this, fieldId, postings);
    });
  }

  override get(key: number): Map<number, number> | undefined {
    this.load();
    return super.get(key);
  }
  override has(key: number): boolean {
    this.load();
    return super.has(key);
  }
  override set(key: number, value: Map<number, number>): this {
    this.load();
    return super.set(key, value);
  }
  override delete(key: number): boolean {
    this.load();
    return super.delete(key);
  }
  override clear(): void {
    this.data = undefined;
    super.clear();
  }
  override get size(): number {
    this.load();
    return super.size;
  }
  override forEach(callback: (value: Map<number, number>, key: number, map: Map<number, Map<number, number>>) => void, thisArg?: unknown): void {
    this.load();
    super.forEach(callback, thisArg);
  }
  override keys(): MapIterator<number> {
    this.load();
    return super.keys();
  }
  override values(): MapIterator<Map<number, number>> {
    this.load();
    return super.values();
  }
  override entries(): MapIterator<[number, Map<number, number>]> {
    this.load();
    return super.entries();
  }
  override [Symbol.iterator](): MapIterator<[number, Map<number, number>]> {
    return this.entries();
  }
}

/**
 * A SearchableMap whose entries start in flat postings and move into the tree on first
 * use. Every SearchableMap operation keeps its meaning: reads and writes of one term move
 * just that term; operations over many terms (prefix, fuzzy, iteration) move them all.
 */
export class FlatTermIndex extends SearchableMap<TermData> {
  /** 1 once a flat entry has moved into the tree or been deleted. */
  private readonly moved: Uint8Array;
  private remaining: number;

  constructor(private readonly flat: FlatPostings) {
    super();
    this.moved = new Uint8Array(flat.terms.length);
    this.remaining = flat.terms.length;
  }

  /** Position of `term` among the flat entries still there, or -1. */
  private flatPosition(term: string): number {
    if (this.remaining === 0) return -1;
    const position = this.flat.terms.indexOf(term);
    return position >= 0 && this.moved[position] !== 1 ? position : -1;
  }

  private spanData(position: number): LazyTermData {
    const { postings, offsets } = this.flat;
    return new LazyTermData(postings, offsets[position] ?? 0, offsets[position + 1] ?? 0);
  }

  /** Move a flat entry into the tree; `keep` false drops it instead. */
  private move(term: string, keep = true): void {
    const position = this.flatPosition(term);
    if (position < 0) return;
    this.moved[position] = 1;
    this.remaining--;
    if (keep) super.set(term, this.spanData(position));
  }

  private moveAll(): void {
    if (this.remaining === 0) return;
    const terms = this.flat.terms.all();
    for (let t = 0; t < terms.length; t++) {
      if (this.moved[t] === 1) continue;
      this.moved[t] = 1;
      super.set(terms[t] ?? '', this.spanData(t));
    }
    this.remaining = 0;
  }

  /** The flat postings as given, while no entry has moved, been deleted or been added. */
  untouched(): FlatPostings | undefined {
    return this.remaining === this.flat.terms.length && super.entries().next().done ? this.flat : undefined;
  }

  /** Every entry without moving any: flat ones as raw spans (for encoding). */
  *rawEntries(): Generator<[string, TermData | PostingSpan]> {
    const { offsets, postings } = this.flat;
    const terms = this.flat.terms.all();
    for (let t = 0; t < terms.length; t++) {
      if (this.moved[t] !== 1) yield [terms[t] ?? '', { data: postings, start: offsets[t] ?? 0, end: offsets[t + 1] ?? 0 }];
    }
    yield* super.entries();
  }

  override get(key: string): TermData | undefined {
    const own = super.get(key);
    if (own !== undefined || this.remaining === 0) return own;
    this.move(key);
    return super.get(key);
  }
  override has(key: string): boolean {
    return super.has(key) || this.flatPosition(key) >= 0;
  }
  override set(key: string, value: TermData): this {
    this.move(key, false);
    super.set(key, value);
    return this;
  }
  override update(key: string, fn: (value: TermData | undefined) => TermData): this {
    this.move(key);
    super.update(key, fn);
    return this;
  }
  override fetch(key: string, initial: () => TermData): TermData {
    this.move(key);
    return super.fetch(key, initial);
  }
  override delete(key: string): void {
    this.move(key, false);
    super.delete(key);
  }
  override clear(): void {
    this.moved.fill(1);
    this.remaining = 0;
    super.clear();
  }
  override get size(): number {
    // Not super.size: it counts through this.entries(), which would move every entry.
    let size = this.remaining;
    const tree = super.entries();
    while (!tree.next().done) size++;
    return size;
  }
  override atPrefix(prefix: string): SearchableMap<TermData> {
    this.moveAll();
    return super.atPrefix(prefix);
  }
  override fuzzyGet(key: string, maxEditDistance: number): ReturnType<SearchableMap<TermData>['fuzzyGet']> {
    this.moveAll();
    return super.fuzzyGet(key, maxEditDistance);
  }
  override entries(): ReturnType<SearchableMap<TermData>['entries']> {
    this.moveAll();
    return super.entries();
  }
  override keys(): ReturnType<SearchableMap<TermData>['keys']> {
    this.moveAll();
    return super.keys();
  }
  override values(): ReturnType<SearchableMap<TermData>['values']> {
    this.moveAll();
    return super.values();
  }
  override forEach(fn: (key: string, value: TermData, map: SearchableMap) => void): void {
    this.moveAll();
    super.forEach(fn);
  }
  override [Symbol.iterator](): ReturnType<SearchableMap<TermData>['entries']> {
    return this.entries();
  }
}
