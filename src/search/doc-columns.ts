import { CorruptIndexError, asFloat64, asUint32, bytesOf, decodeJson, encodeJson, encodeText } from './binary.js';
import type { DocRecord, PageStamp } from './doc-table.js';

/**
 * The page table as persisted: one column per kind of value, pages in slot order, so a
 * load decodes only the paths and views the stats in place; a page's other fields are
 * read when that page is asked for, and the links (which backlinks need for every page)
 * on first use.
 */

/** What one page keeps in the `fields` column, as a JSON array. */
type StoredFields = [key: string, title: string, summary: string, hash: string, tags: string[]];

/** One page to encode: from a record, or copied from loaded columns without reading it. */
export type ColumnRow = { record: DocRecord } | { from: DocColumns; slot: number };

export class DocColumns {
  private parsedLinks: string[][] | undefined;

  private constructor(
    readonly paths: readonly string[],
    /** mtimeMs, size, seenAt per page. */
    private readonly numbers: Float64Array,
    /** Page i's StoredFields as UTF-8 JSON at `fields[offsets[i] … offsets[i + 1])`. */
    private readonly fields: Uint8Array,
    private readonly offsets: Uint32Array,
    /** Every page's links, one JSON array of arrays. */
    private readonly links: Uint8Array,
  ) {}

  static decode(sections: Record<string, Uint8Array | undefined>): DocColumns {
    const { paths: p, numbers: n, fields, offsets: o, links } = sections;
    if (!p || !n || !fields || !o || !links) throw new CorruptIndexError('page table sections are missing');
    const paths = decodeJson(p);
    if (!Array.isArray(paths) || paths.some((path) => typeof path !== 'string')) throw new CorruptIndexError('page table paths are malformed');
    const numbers = asFloat64(n);
    const offsets = asUint32(o);
    if (numbers.length !== paths.length * 3 || offsets.length !== paths.length + 1 || (offsets[paths.length] ?? 0) !== fields.length) {
      throw new CorruptIndexError('page table sections disagree in size');
    }
    for (let i = 0; i < paths.length; i++) {
      if ((offsets[i + 1] ?? 0) < (offsets[i] ?? 0)) throw new CorruptIndexError('page table offsets are not ordered');
    }
    return new DocColumns(paths as string[], numbers, fields, offsets, links);
  }

  static encode(rows: Iterable<ColumnRow>): Record<string, Uint8Array> {
    const paths: string[] = [];
    const numbers: number[] = [];
    const links: Array<readonly string[]> = [];
    const parts: Uint8Array[] = [];
    for (const row of rows) {
      if ('from' in row) {
        const { from, slot } = row;
        const stamp = from.stamp(slot);
        paths.push(from.paths[slot] ?? '');
        numbers.push(stamp.mtimeMs, stamp.size, stamp.seenAt);
        links.push(from.linksOf(slot));
        parts.push(from.fields.subarray(from.offsets[slot] ?? 0, from.offsets[slot + 1] ?? 0));
        continue;
      }
      const { record } = row;
      paths.push(record.path);
      numbers.push(record.mtimeMs, record.size, record.seenAt);
      links.push(record.links);
      const fields: StoredFields = [record.key, record.title, record.summary, record.hash, record.tags];
      parts.push(encodeText(JSON.stringify(fields)));
    }
    const offsets = new Uint32Array(parts.length + 1);
    let length = 0;
    parts.forEach((part, i) => {
      offsets[i] = length;
      length += part.length;
    });
    offsets[parts.length] = length;
    const fields = new Uint8Array(length);
    parts.forEach((part, i) => fields.set(part, offsets[i] ?? 0));
    return {
      paths: encodeJson(paths),
      numbers: bytesOf(Float64Array.from(numbers)),
      fields,
      offsets: bytesOf(offsets),
      links: encodeJson(links),
    };
  }

  get count(): number {
    return this.paths.length;
  }

  stamp(slot: number): PageStamp {
    const at = slot * 3;
    return { mtimeMs: this.numbers[at] ?? 0, size: this.numbers[at + 1] ?? 0, seenAt: this.numbers[at + 2] ?? 0 };
  }

  linksOf(slot: number): string[] {
    if (!this.parsedLinks) {
      const links = decodeJson(this.links);
      if (!Array.isArray(links) || links.length !== this.paths.length) throw new CorruptIndexError('page table links are malformed');
      this.parsedLinks = links as string[][];
    }
    return this.parsedLinks[slot] ?? [];
  }

  /** The record of page `slot`. */
  record(slot: number): DocRecord | undefined {
    const path = this.paths[slot];
    if (path === undefined) return undefined;
    const fields = decodeJson(this.fields.subarray(this.offsets[slot] ?? 0, this.offsets[slot + 1] ?? 0)) as StoredFields;
    if (!Array.isArray(fields) || typeof fields[0] !== 'string' || !Array.isArray(fields[4])) {
      throw new CorruptIndexError('page table entry is malformed');
    }
    const [key, title, summary, hash, tags] = fields;
    return { slot, path, key, title, summary, tags, links: this.linksOf(slot), hash, ...this.stamp(slot) };
  }
}
