import MiniSearch, { type Options } from 'minisearch';
import { CorruptIndexError, Uint32Builder, asUint32, bytesOf, decodeJson, decodeTerms, encodeJson, encodeTerms } from './binary.js';

/**
 * MiniSearch with a compact persisted form. MiniSearch's own JSON takes seconds to load
 * at 10k pages (one JS object per posting); here postings are stored as flat Uint32
 * arrays and each term's postings are turned into MiniSearch's maps only when a query
 * first touches that term. The subclass reaches MiniSearch's protected state, which its
 * type declarations expose for extension.
 */
export interface LexicalEntry {
  id: string;
  [field: string]: string;
}

type TermData = Map<number, Map<number, number>>;

interface Meta {
  documentCount: number;
  nextId: number;
  fieldIds: Record<string, number>;
  averageFieldLength: number[];
  /** External ids (page paths) in the order of `docs`. */
  ids: string[];
}

/** Postings of one term: a span of the shared array, `[fieldId, count, (shortId, tf) × count]*`. */
class LazyTermData extends Map<number, Map<number, number>> {
  /** Undefined once read into the map. Kept flat (no span object): one object per term. */
  private data: Uint32Array | undefined;

  constructor(
    data: Uint32Array,
    private readonly start: number,
    private readonly end: number,
  ) {
    super();
    this.data = data;
  }

  /** The raw span while still unread, so a save can copy it without building maps. */
  rawSpan(): { data: Uint32Array; start: number; end: number } | undefined {
    return this.data ? { data: this.data, start: this.start, end: this.end } : undefined;
  }

  private load(): void {
    const data = this.data;
    if (!data) return;
    this.data = undefined;
    const { start, end } = this;
    let i = start;
    while (i < end) {
      const fieldId = data[i++] ?? 0;
      const count = data[i++] ?? 0;
      const postings = new Map<number, number>();
      for (let n = 0; n < count && i + 1 < end; n++, i += 2) postings.set(data[i] ?? 0, data[i + 1] ?? 0);
      Map.prototype.set.call(this, fieldId, postings);
    }
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

export class PersistableMiniSearch extends MiniSearch<LexicalEntry> {
  /** Encode the index; postings of discarded documents are left out (a vacuum for free). */
  encode(): Record<string, Uint8Array> {
    const liveIds = this._documentIds;
    const order = [...liveIds.keys()];
    const docs = new Uint32Array(order.length * (1 + Object.keys(this._fieldIds).length));
    const fieldCount = Object.keys(this._fieldIds).length;
    order.forEach((shortId, i) => {
      docs[i * (1 + fieldCount)] = shortId;
      const lengths = this._fieldLength.get(shortId) ?? [];
      for (let f = 0; f < fieldCount; f++) docs[i * (1 + fieldCount) + 1 + f] = lengths[f] ?? 0;
    });
    const terms: string[] = [];
    const offsets = new Uint32Builder(1 << 14);
    const postings = new Uint32Builder(1 << 20);
    for (const [term, data] of this._index as Iterable<[string, TermData]>) {
      const start = postings.length;
      const raw = data instanceof LazyTermData ? data.rawSpan() : undefined;
      if (raw) copyLiveSpan(raw, liveIds, postings);
      else writeTermData(data, liveIds, postings);
      if (postings.length === start) continue;
      terms.push(term);
      offsets.push(start);
    }
    offsets.push(postings.length);
    const meta: Meta = {
      documentCount: this._documentCount,
      nextId: this._nextId,
      fieldIds: this._fieldIds,
      averageFieldLength: this._avgFieldLength,
      ids: order.map((shortId) => String(liveIds.get(shortId))),
    };
    return {
      meta: encodeJson(meta),
      docs: bytesOf(docs),
      terms: encodeTerms(terms),
      offsets: bytesOf(offsets.finish()),
      postings: bytesOf(postings.finish()),
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
    const terms = decodeTerms(need('terms'));
    const offsets = asUint32(need('offsets'));
    const postings = asUint32(need('postings'));
    if (docs.length !== meta.ids.length * (1 + fieldCount) || offsets.length !== terms.length + 1) {
      throw new CorruptIndexError('lexical sections disagree in size');
    }
    if ((offsets[terms.length] ?? 0) !== postings.length) throw new CorruptIndexError('lexical postings are truncated');
    const index = new PersistableMiniSearch(options);
    index._documentCount = meta.documentCount;
    index._nextId = meta.nextId;
    index._fieldIds = meta.fieldIds;
    index._avgFieldLength = meta.averageFieldLength;
    index._dirtCount = 0;
    meta.ids.forEach((id, i) => {
      const base = i * (1 + fieldCount);
      const shortId = docs[base] ?? 0;
      if (shortId >= meta.nextId) throw new CorruptIndexError('lexical document id out of range');
      index._documentIds.set(shortId, id);
      index._idToShortId.set(id, shortId);
      index._fieldLength.set(shortId, Array.from(docs.subarray(base + 1, base + 1 + fieldCount)));
    });
    for (let t = 0; t < terms.length; t++) {
      const start = offsets[t] ?? 0;
      const end = offsets[t + 1] ?? 0;
      if (end < start) throw new CorruptIndexError('lexical term offsets are not ordered');
      index._index.set(terms[t] ?? '', new LazyTermData(postings, start, end));
    }
    return index;
  }
}

function copyLiveSpan(span: { data: Uint32Array; start: number; end: number }, live: Map<number, unknown>, out: Uint32Builder): void {
  const { data, end } = span;
  let i = span.start;
  while (i < end) {
    const fieldId = data[i++] ?? 0;
    const count = data[i++] ?? 0;
    const head = out.length;
    out.push(fieldId);
    out.push(0);
    let kept = 0;
    for (let n = 0; n < count; n++, i += 2) {
      const shortId = data[i] ?? 0;
      if (!live.has(shortId)) continue;
      out.push(shortId);
      out.push(data[i + 1] ?? 0);
      kept++;
    }
    if (kept === 0) out.length = head;
    else out.setAt(head + 1, kept);
  }
}

function writeTermData(data: TermData, live: Map<number, unknown>, out: Uint32Builder): void {
  for (const [fieldId, postings] of data) {
    const head = out.length;
    out.push(fieldId);
    out.push(0);
    let kept = 0;
    for (const [shortId, tf] of postings) {
      if (!live.has(shortId)) continue;
      out.push(shortId);
      out.push(tf);
      kept++;
    }
    if (kept === 0) out.length = head;
    else out.setAt(head + 1, kept);
  }
}
