import { CorruptIndexError, asFloat64, asUint32, bytesOf, decodeJson, encodeJson, encodeText, encodeTextInto, utf8Length } from '../kernels/binary.js';
import type { DocRecord, PageStamp } from './doc-record.js';

/**
 * The page table as persisted: one column per kind of value, pages in slot order, so a
 * load decodes only the paths and views the stats in place; a page's other fields and
 * links are read when that page is asked for. Backlinks are found by searching the links
 * column's bytes for the key, without reading every page's links.
 */

/** What one page keeps in the `fields` column, as a JSON array. */
type StoredFields = [key: string, title: string, summary: string, hash: string, tags: string[], surfaced: boolean, lang: string];

/** One page to encode: from a record, or copied from loaded columns without reading it. */
export type ColumnRow = { record: DocRecord } | { from: DocColumns; slot: number };

export class DocColumns {
  private constructor(
    readonly paths: readonly string[],
    /** mtimeMs, size, seenAt per page. */
    private readonly numbers: Float64Array,
    /** Page i's StoredFields as UTF-8 JSON at `fields[offsets[i] … offsets[i + 1])`. */
    private readonly fields: Uint8Array,
    private readonly offsets: Uint32Array,
    /** Page i's links as a UTF-8 JSON array at `links[linkOffsets[i] … linkOffsets[i + 1])`. */
    private readonly links: Uint8Array,
    private readonly linkOffsets: Uint32Array,
  ) {}

  static decode(sections: Record<string, Uint8Array | undefined>): DocColumns {
    const { paths: p, numbers: n, fields, offsets: o, links, linkOffsets: l } = sections;
    if (!p || !n || !fields || !o || !links || !l) throw new CorruptIndexError('page table sections are missing');
    const paths = decodeJson(p);
    if (!Array.isArray(paths) || paths.some((path) => typeof path !== 'string')) throw new CorruptIndexError('page table paths are malformed');
    const numbers = asFloat64(n);
    const offsets = asUint32(o);
    const linkOffsets = asUint32(l);
    if (numbers.length !== paths.length * 3 || !spans(offsets, paths.length, fields.length) || !spans(linkOffsets, paths.length, links.length)) {
      throw new CorruptIndexError('page table sections disagree in size');
    }
    return new DocColumns(paths as string[], numbers, fields, offsets, links, linkOffsets);
  }

  static encode(rows: Iterable<ColumnRow>): Record<string, Uint8Array> {
    const paths: string[] = [];
    const numbers: number[] = [];
    const fields = new ByteSpans();
    const links = new ByteSpans();
    for (const row of rows) {
      if ('from' in row) {
        const { from, slot } = row;
        const stamp = from.stamp(slot);
        paths.push(from.paths[slot] ?? '');
        numbers.push(stamp.mtimeMs, stamp.size, stamp.seenAt);
        fields.add(from.fields.subarray(from.offsets[slot] ?? 0, from.offsets[slot + 1] ?? 0));
        links.add(from.links.subarray(from.linkOffsets[slot] ?? 0, from.linkOffsets[slot + 1] ?? 0));
        continue;
      }
      const { record } = row;
      paths.push(record.path);
      numbers.push(record.mtimeMs, record.size, record.seenAt);
      const stored: StoredFields = [record.key, record.title, record.summary, record.hash, record.tags, record.surfaced, record.lang];
      fields.add(JSON.stringify(stored));
      links.add(JSON.stringify(record.links));
    }
    const [fieldBytes, offsets] = fields.finish();
    const [linkBytes, linkOffsets] = links.finish();
    return {
      paths: encodeJson(paths),
      numbers: bytesOf(Float64Array.from(numbers)),
      fields: fieldBytes,
      offsets: bytesOf(offsets),
      links: linkBytes,
      linkOffsets: bytesOf(linkOffsets),
    };
  }

  get count(): number {
    return this.paths.length;
  }

  stamp(slot: number): PageStamp {
    const at = slot * 3;
    return { mtimeMs: this.numbers[at] ?? 0, size: this.numbers[at + 1] ?? 0, seenAt: this.numbers[at + 2] ?? 0 };
  }

  /** `stamp(slot)` written into `into`, without a new object. */
  stampInto(slot: number, into: PageStamp): true {
    const at = slot * 3;
    into.mtimeMs = this.numbers[at] ?? 0;
    into.size = this.numbers[at + 1] ?? 0;
    into.seenAt = this.numbers[at + 2] ?? 0;
    return true;
  }

  linksOf(slot: number): string[] {
    const links = decodeJson(this.links.subarray(this.linkOffsets[slot] ?? 0, this.linkOffsets[slot + 1] ?? 0));
    if (!Array.isArray(links)) throw new CorruptIndexError('page table links are malformed');
    return links as string[];
  }

  /**
   * The pages linking to `key`: the links column is searched for the key as JSON writes
   * it, and each page holding a match is read to confirm (an escaped quote could fake one).
   */
  slotsLinkingTo(key: string): number[] {
    const pattern = encodeText(JSON.stringify(key));
    const haystack = Buffer.from(this.links.buffer, this.links.byteOffset, this.links.byteLength);
    const slots: number[] = [];
    for (let at = haystack.indexOf(pattern); at >= 0; at = haystack.indexOf(pattern, at + 1)) {
      const slot = spanHolding(this.linkOffsets, at);
      if (slot !== slots[slots.length - 1] && this.linksOf(slot).includes(key)) slots.push(slot);
    }
    return slots;
  }

  /** The record of page `slot`. */
  record(slot: number): DocRecord | undefined {
    const path = this.paths[slot];
    if (path === undefined) return undefined;
    const fields = decodeJson(this.fields.subarray(this.offsets[slot] ?? 0, this.offsets[slot + 1] ?? 0)) as StoredFields;
    if (!Array.isArray(fields) || typeof fields[0] !== 'string' || !Array.isArray(fields[4]) || typeof fields[5] !== 'boolean' || typeof fields[6] !== 'string') {
      throw new CorruptIndexError('page table entry is malformed');
    }
    const [key, title, summary, hash, tags, surfaced, lang] = fields;
    return { slot, path, key, title, summary, tags, links: this.linksOf(slot), hash, surfaced, lang, ...this.stamp(slot) };
  }
}

/** Concatenated byte strings (given as bytes, or as text to write in UTF-8) and where each starts. */
class ByteSpans {
  private parts: Array<Uint8Array | string> = [];

  add(part: Uint8Array | string): void {
    this.parts.push(part);
  }

  finish(): [Uint8Array, Uint32Array] {
    const parts = this.parts;
    const offsets = new Uint32Array(parts.length + 1);
    let length = 0;
    parts.forEach((part, i) => {
      offsets[i] = length;
      length += typeof part === 'string' ? utf8Length(part) : part.length;
    });
    offsets[parts.length] = length;
    const bytes = new Uint8Array(length);
    // Each run of text parts is encoded in one go, straight into place: one small array
    // per page would cost more than the encoding.
    for (let i = 0; i < parts.length; ) {
      const part = parts[i]!;
      if (typeof part !== 'string') {
        bytes.set(part, offsets[i]!);
        i++;
        continue;
      }
      let end = i + 1;
      while (end < parts.length && typeof parts[end] === 'string') end++;
      encodeTextInto(parts.slice(i, end).join(''), bytes.subarray(offsets[i]!, offsets[end]!));
      i = end;
    }
    return [bytes, offsets];
  }
}

/** True when `offsets` cuts `length` bytes into `count` ordered spans. */
function spans(offsets: Uint32Array, count: number, length: number): boolean {
  if (offsets.length !== count + 1 || offsets[0] !== 0 || offsets[count] !== length) return false;
  for (let i = 0; i < count; i++) if ((offsets[i + 1] ?? 0) < (offsets[i] ?? 0)) return false;
  return true;
}

/** The span (index) of `offsets` that holds byte `at`. */
function spanHolding(offsets: Uint32Array, at: number): number {
  let lo = 0;
  let hi = offsets.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if ((offsets[mid] ?? 0) <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
