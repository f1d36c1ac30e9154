import { CorruptIndexError, decodeJson, encodeJson } from '../kernels/binary.js';
import { DocColumns, type ColumnRow } from './doc-columns.js';
import type { PageDocument } from '../text/document.js';
import type { DocRecord, PageStamp, PageStat } from './doc-record.js';

/**
 * The pages the index knows, by slot (a small integer every lane uses) and by path, with
 * what a result shows (title, summary, links) and what change detection needs (mtime,
 * size, content hash). A changed page gets a fresh slot; old slots stay as holes until
 * `compact` renumbers, so lanes never have to find and delete old postings.
 *
 * A loaded table keeps its pages in their persisted columns and makes a record object
 * only for a page that is asked for: a search reads a few dozen of 10k pages, and change
 * detection needs only paths and stats.
 */
export class DocTable {
  /** A record, null for a hole, undefined for a persisted page not read yet. */
  private slots: Array<DocRecord | null | undefined> = [];
  private byPath = new Map<string, number>();
  private stored: DocColumns | undefined;
  /** target key → paths of the pages linking to it; built on first use (a one-shot search rarely needs all of it). */
  private linkedFrom: Map<string, Set<string>> | undefined;
  private backlinkPasses = 0;
  /** Language → how many live pages are analysed in it (persisted, so a loaded table need not read every page). */
  private languageCounts = new Map<string, number>();

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
    const slot = this.byPath.get(path);
    return slot === undefined ? undefined : this.at(slot);
  }

  at(slot: number): DocRecord | undefined {
    if (slot < 0 || slot >= this.slots.length) return undefined;
    const record = this.slots[slot];
    if (record !== undefined) return record ?? undefined;
    const read = this.stored?.record(slot);
    this.slots[slot] = read;
    return read;
  }

  /** The page's slot, without making its record. */
  slotOf(path: string): number | undefined {
    return this.byPath.get(path);
  }

  /** The page's path, without making its record. */
  pathAt(slot: number): string | undefined {
    if (slot < 0 || slot >= this.slots.length) return undefined;
    const record = this.slots[slot];
    if (record === null) return undefined;
    return record ? record.path : this.stored?.paths[slot];
  }

  /** The page's stat and when it was last read, without making its record. */
  stampOf(path: string): PageStamp | undefined {
    const stamp: PageStamp = { mtimeMs: 0, size: 0, seenAt: 0 };
    return this.stampInto(path, stamp) ? stamp : undefined;
  }

  /** `stampOf` written into `into` (one object reused over a scan of 10k pages); false when the page is not indexed. */
  stampInto(path: string, into: PageStamp): boolean {
    const slot = this.byPath.get(path);
    if (slot === undefined) return false;
    const record = this.slots[slot];
    if (record) {
      into.mtimeMs = record.mtimeMs;
      into.size = record.size;
      into.seenAt = record.seenAt;
      return true;
    }
    return this.stored?.stampInto(slot, into) ?? false;
  }

  isLive = (slot: number): boolean => slot >= 0 && slot < this.slots.length && this.slots[slot] !== null;

  keyOf = (slot: number): string => this.at(slot)?.key ?? '';

  paths(): IterableIterator<string> {
    return this.byPath.keys();
  }

  /** Every slot's path in slot order, when no slot is a hole (a loaded or compacted table); otherwise undefined. */
  pathsBySlot(): readonly string[] | undefined {
    if (this.holes > 0) return undefined;
    // Slots are only ever appended or emptied: with no hole and none appended, they are the stored ones.
    if (this.stored && this.stored.count === this.slots.length) return this.stored.paths;
    return Array.from({ length: this.slots.length }, (_, slot) => this.pathAt(slot) ?? '');
  }

  /** The languages the live pages are analysed in, sorted. */
  languages(): string[] {
    return [...this.languageCounts.keys()].sort();
  }

  private countLanguage(language: string, change: number): void {
    const count = (this.languageCounts.get(language) ?? 0) + change;
    if (count > 0) this.languageCounts.set(language, count);
    else this.languageCounts.delete(language);
  }

  *records(): IterableIterator<DocRecord> {
    for (const slot of this.byPath.values()) {
      const record = this.at(slot);
      if (record) yield record;
    }
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
      surfaced: doc.surfaced,
      lang: doc.lang,
      mtimeMs: stat.mtimeMs,
      size: stat.size,
      seenAt,
    };
    this.slots.push(record);
    this.byPath.set(record.path, record.slot);
    this.countLanguage(record.lang, 1);
    if (this.linkedFrom) this.link(record.path, record.links);
    return record.slot;
  }

  /** Forget the page at `path`; returns the slot it had. */
  remove(path: string): number | undefined {
    const slot = this.byPath.get(path);
    if (slot === undefined) return undefined;
    const links = this.linkedFrom ? this.linksAt(slot) : [];
    const language = this.at(slot)?.lang;
    if (language !== undefined) this.countLanguage(language, -1);
    this.byPath.delete(path);
    this.slots[slot] = null;
    for (const target of links) this.linkedFrom?.get(target)?.delete(path);
    return slot;
  }

  /** Record a new stat for a page whose content was read again and had not changed. */
  touch(path: string, stat: PageStat, seenAt: number): void {
    const record = this.get(path);
    if (record) Object.assign(record, { mtimeMs: stat.mtimeMs, size: stat.size, seenAt });
  }

  /** Keys of the pages linking to `key`, sorted. */
  backlinks(key: string): string[] {
    return this.backlinksOf([key]).get(key) ?? [];
  }

  /**
   * Keys of the pages linking to each of `keys`, sorted. The first call answers with one
   * pass over the pages (a one-shot search needs a handful of keys); later calls build
   * and keep an index of every link, which a long-lived index then reuses.
   */
  backlinksOf(keys: readonly string[]): Map<string, string[]> {
    const sources = new Map<string, Set<string>>(keys.map((key) => [key, new Set<string>()]));
    if (this.linkedFrom || this.backlinkPasses++ > 0) {
      if (!this.linkedFrom) {
        this.linkedFrom = new Map();
        for (const [path, slot] of this.byPath) this.link(path, this.linksAt(slot));
      }
      for (const [key, found] of sources) for (const path of this.linkedFrom.get(key) ?? []) found.add(path);
    } else {
      // Persisted pages: found in the links column; pages added since: their records.
      const stored = this.stored;
      for (const [key, found] of sources) {
        for (const slot of stored?.slotsLinkingTo(key) ?? []) {
          const path = this.pathAt(slot);
          if (path !== undefined) found.add(path);
        }
      }
      for (let slot = stored?.count ?? 0; slot < this.slots.length; slot++) {
        const record = this.slots[slot];
        if (record) for (const target of record.links) sources.get(target)?.add(record.path);
      }
    }
    const out = new Map<string, string[]>();
    for (const [key, paths] of sources) {
      const linking = new Set<string>();
      for (const path of paths) {
        const source = this.get(path);
        if (source && source.key !== key) linking.add(source.key);
      }
      out.set(key, [...linking].sort());
    }
    return out;
  }

  private linksAt(slot: number): string[] {
    const record = this.slots[slot];
    if (record) return record.links;
    if (record === null) return [];
    return this.stored?.linksOf(slot) ?? [];
  }

  private link(path: string, links: readonly string[]): void {
    const index = this.linkedFrom;
    if (!index) return;
    for (const target of links) {
      let sources = index.get(target);
      if (!sources) {
        sources = new Set();
        index.set(target, sources);
      }
      sources.add(path);
    }
  }

  /** Old slot → new slot (−1 for holes) that closes every hole, in slot order. */
  compactionMap(): Int32Array {
    const remap = new Int32Array(this.slots.length).fill(-1);
    let next = 0;
    for (let slot = 0; slot < this.slots.length; slot++) if (this.slots[slot] !== null) remap[slot] = next++;
    return remap;
  }

  /**
   * Close the holes, renumbering by `remap` (as `compactionMap` made it: live pages keep
   * their order). Done through the persisted form, so pages never read stay unread.
   */
  compact(remap: Int32Array): void {
    const live = remap.reduce((count, next) => (next >= 0 ? count + 1 : count), 0);
    if (live !== this.byPath.size) throw new Error('compaction map does not match the page table');
    const compacted = DocTable.decode(this.encode());
    this.slots = compacted.slots;
    this.stored = compacted.stored;
    this.byPath = compacted.byPath;
    this.languageCounts = compacted.languageCounts;
    this.linkedFrom = undefined;
  }

  /** The live pages in slot order (i.e. already compacted numbering), as sections. */
  encode(): Record<string, Uint8Array> {
    const rows: ColumnRow[] = [];
    for (let slot = 0; slot < this.slots.length; slot++) {
      const record = this.slots[slot];
      if (record) rows.push({ record });
      else if (record === undefined && this.stored) rows.push({ from: this.stored, slot });
    }
    return { ...DocColumns.encode(rows), languages: encodeJson(Object.fromEntries(this.languageCounts)) };
  }

  static decode(sections: Record<string, Uint8Array | undefined>): DocTable {
    const stored = DocColumns.decode(sections);
    const table = new DocTable();
    table.stored = stored;
    table.slots = new Array<DocRecord | null | undefined>(stored.count);
    stored.paths.forEach((path, slot) => table.byPath.set(path, slot));
    if (table.byPath.size !== stored.count) throw new CorruptIndexError('page table has a path twice');
    table.languageCounts = decodeLanguageCounts(sections['languages'], stored.count);
    return table;
  }
}

function decodeLanguageCounts(section: Uint8Array | undefined, pages: number): Map<string, number> {
  if (!section) throw new CorruptIndexError('page table languages are missing');
  const counts = decodeJson(section);
  if (typeof counts !== 'object' || counts === null || Array.isArray(counts)) throw new CorruptIndexError('page table languages are malformed');
  const entries = Object.entries(counts);
  if (entries.some(([, count]) => !Number.isInteger(count) || (count as number) <= 0)) throw new CorruptIndexError('page table languages are malformed');
  if (entries.reduce((sum, [, count]) => sum + (count as number), 0) !== pages) throw new CorruptIndexError('page table languages do not add up to its pages');
  return new Map(entries as Array<[string, number]>);
}
