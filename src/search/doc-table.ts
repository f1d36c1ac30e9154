import { CorruptIndexError, decodeJson, encodeJson } from './binary.js';
import type { PageDocument } from './document.js';

/**
 * The pages the index knows, by slot (a small integer every lane uses) and by path, with
 * what a result shows (title, summary, links) and what change detection needs (mtime,
 * size, content hash). A changed page gets a fresh slot; old slots stay as holes until
 * `compact` renumbers, so lanes never have to find and delete old postings.
 */
export interface DocRecord {
  slot: number;
  path: string;
  key: string;
  title: string;
  summary: string;
  tags: string[];
  links: string[];
  hash: string;
  mtimeMs: number;
  size: number;
  /** When the content was last read and hashed (ms since epoch). */
  seenAt: number;
}

export type PageStat = Pick<DocRecord, 'mtimeMs' | 'size'>;

type StoredRecord = Omit<DocRecord, 'slot'>;

export class DocTable {
  private slots: Array<DocRecord | undefined> = [];
  private byPath = new Map<string, DocRecord>();
  /** target key → paths of the pages linking to it; built on first use (a one-shot search rarely needs all of it). */
  private linkedFrom: Map<string, Set<string>> | undefined;

  get liveCount(): number {
    return this.byPath.size;
  }

  get slotCount(): number {
    return this.slots.length;
  }

  get holes(): number {
    return this.slots.length - this.byPath.size;
  }

  get(path: string): DocRecord | undefined {
    return this.byPath.get(path);
  }

  at(slot: number): DocRecord | undefined {
    return this.slots[slot];
  }

  isLive = (slot: number): boolean => this.slots[slot] !== undefined;

  keyOf = (slot: number): string => this.slots[slot]?.key ?? '';

  records(): IterableIterator<DocRecord> {
    return this.byPath.values();
  }

  /** Add or replace the page at `doc.path`; returns its new slot. */
  insert(doc: PageDocument, stat: PageStat, seenAt: number): number {
    this.remove(doc.path);
    const record: DocRecord = {
      slot: this.slots.length,
      path: doc.path,
      key: doc.key,
      title: doc.title,
      summary: doc.summary,
      tags: doc.tags,
      links: doc.links,
      hash: doc.hash,
      mtimeMs: stat.mtimeMs,
      size: stat.size,
      seenAt,
    };
    this.slots.push(record);
    this.place(record);
    return record.slot;
  }

  /** Forget the page at `path`; returns the slot it had. */
  remove(path: string): number | undefined {
    const record = this.byPath.get(path);
    if (!record) return undefined;
    this.byPath.delete(path);
    this.slots[record.slot] = undefined;
    if (this.linkedFrom) for (const target of record.links) this.linkedFrom.get(target)?.delete(path);
    return record.slot;
  }

  /** Record a new stat for a page whose content was read again and had not changed. */
  touch(path: string, stat: PageStat, seenAt: number): void {
    const record = this.byPath.get(path);
    if (record) Object.assign(record, { mtimeMs: stat.mtimeMs, size: stat.size, seenAt });
  }

  /** Keys of the pages linking to `key`, sorted. */
  backlinks(key: string): string[] {
    if (!this.linkedFrom) {
      this.linkedFrom = new Map();
      for (const record of this.byPath.values()) this.link(record);
    }
    const paths = this.linkedFrom.get(key);
    if (!paths || paths.size === 0) return [];
    const keys = new Set<string>();
    for (const path of paths) {
      const source = this.byPath.get(path);
      if (source && source.key !== key) keys.add(source.key);
    }
    return [...keys].sort();
  }

  private place(record: DocRecord): void {
    this.byPath.set(record.path, record);
    if (this.linkedFrom) this.link(record);
  }

  private link(record: DocRecord): void {
    const index = this.linkedFrom;
    if (!index) return;
    for (const target of record.links) {
      let sources = index.get(target);
      if (!sources) {
        sources = new Set();
        index.set(target, sources);
      }
      sources.add(record.path);
    }
  }

  /** Old slot → new slot (−1 for holes) that closes every hole, in slot order. */
  compactionMap(): Int32Array {
    const remap = new Int32Array(this.slots.length).fill(-1);
    let next = 0;
    this.slots.forEach((record, slot) => {
      if (record) remap[slot] = next++;
    });
    return remap;
  }

  compact(remap: Int32Array): void {
    const slots: Array<DocRecord | undefined> = [];
    this.slots.forEach((record, slot) => {
      const next = remap[slot] ?? -1;
      if (record && next >= 0) {
        record.slot = next;
        slots[next] = record;
      }
    });
    this.slots = slots;
  }

  /** The live records in slot order (i.e. already compacted numbering). */
  encode(): Uint8Array {
    const stored: StoredRecord[] = [];
    for (const record of this.slots) {
      if (!record) continue;
      const { slot: _slot, ...rest } = record;
      stored.push(rest);
    }
    return encodeJson(stored);
  }

  static decode(bytes: Uint8Array | undefined): DocTable {
    if (!bytes) throw new CorruptIndexError('page table is missing');
    const stored = decodeJson(bytes);
    if (!Array.isArray(stored)) throw new CorruptIndexError('page table is malformed');
    const table = new DocTable();
    for (const item of stored as DocRecord[]) {
      if (typeof item?.path !== 'string' || typeof item.key !== 'string' || !Array.isArray(item.links)) {
        throw new CorruptIndexError('page table entry is malformed');
      }
      item.slot = table.slots.length;
      table.slots.push(item);
      table.byPath.set(item.path, item);
    }
    return table;
  }
}
