import { CorruptIndexError, Uint32Builder, asUint32, bytesOf, encodeTerms } from '../../kernels/binary.js';
import { kthLargest } from '../../kernels/kth-largest.js';
import { GroupingBuffer } from '../../kernels/grouping.js';
import { TermList } from '../../kernels/term-list.js';
import { VarintReader, VarintWriter } from '../../kernels/varint.js';
import type { Vocabulary } from '../../text/vocabulary.js';

/**
 * The token lane: whole-term overlap. A page scores the summed rarity (idf) of the
 * distinct query terms it contains, so a short or odd query still finds candidates, and
 * the segmenter's words (language/segment.ts) make unspaced scripts findable. Pages are numbered by slot; postings of
 * removed slots are skipped at query time and dropped at the next compaction.
 *
 * Persisted postings stay in their flat byte array (each term's slots as varint gaps)
 * and a term's list is read when a query asks for it; slots added since (new and changed
 * pages) sit in `added`, so indexing a page never copies a long list.
 */
interface Base {
  /** Sorted terms, binary-searched. */
  terms: TermList;
  /** Term t's slots are the varint gaps `slots[offsets[t] … offsets[t + 1])`. */
  offsets: Uint32Array;
  slots: Uint8Array;
}

export interface TokenHit {
  slot: number;
  score: number;
}

export class TokenLane {
  private added = new Map<string, number[]>();
  private base: Base | undefined;
  private scratch: { scores: Float64Array; seen: Uint8Array } | undefined;

  private constructor(base?: Base) {
    this.base = base;
  }

  static empty(): TokenLane {
    return new TokenLane();
  }

  static decode(sections: Record<string, Uint8Array | undefined>): TokenLane {
    const { terms: t, offsets: o, slots: s } = sections;
    if (!t || !o || !s) throw new CorruptIndexError('token lane sections are missing');
    const base: Base = { terms: TermList.decode(t), offsets: asUint32(o), slots: s };
    if (base.offsets.length !== base.terms.length + 1 || (base.offsets[base.terms.length] ?? 0) !== base.slots.length) {
      throw new CorruptIndexError('token lane sections disagree in size');
    }
    // Slots are not range-checked here (that would touch every posting): a slot with no
    // page behind it is simply not live at query time.
    return new TokenLane(base);
  }

  /** Index a page's distinct terms under `slot`. */
  add(slot: number, terms: Iterable<string>): void {
    for (const term of terms instanceof Set ? terms : new Set(terms)) {
      const list = this.added.get(term);
      if (list) list.push(slot);
      else this.added.set(term, [slot]);
    }
  }

  /**
   * Index many pages, their whole terms as ids in `vocabulary` (repeats allowed). An empty
   * lane is built directly in its persisted form: each term's slots in one flat array.
   */
  addAll(pages: ReadonlyArray<{ slot: number; terms: ArrayLike<number> }>, vocabulary: Vocabulary): void {
    if (this.base || this.added.size > 0) {
      for (const page of pages) this.add(page.slot, Array.from(page.terms, (id) => vocabulary.terms[id] ?? ''));
      return;
    }
    const lastSlot = new Int32Array(vocabulary.size).fill(-1);
    const slotsOf = new GroupingBuffer(
      pages.reduce((sum, page) => sum + page.terms.length, 0),
      vocabulary.size,
      false,
    );
    for (const { slot, terms } of pages) {
      for (let i = 0; i < terms.length; i++) {
        const id = terms[i]!;
        if (lastSlot[id] === slot) continue;
        lastSlot[id] = slot;
        slotsOf.push(id, slot);
      }
    }
    const ids: number[] = [];
    for (let id = 0; id < vocabulary.size; id++) if (slotsOf.has(id)) ids.push(id);
    const sorted = vocabulary.sortedIds(ids);
    const { starts, first: slotColumn } = slotsOf.group();
    const offsets = new Uint32Array(sorted.length + 1);
    const writer = new VarintWriter(slotsOf.length * 2);
    sorted.forEach((id, t) => {
      offsets[t] = writer.length;
      writeSlots(slotColumn.subarray(starts[id], starts[id + 1]), writer);
    });
    offsets[sorted.length] = writer.length;
    const slots = writer.finish();
    this.base = { terms: TermList.of(sorted.map((id) => vocabulary.terms[id] ?? '')), offsets, slots };
  }

  /**
   * The best `pool` live slots for the query's distinct terms. `liveCount` is the number
   * of live pages (for idf); ties go to `tieKey` order, then to the order the slots were
   * first met in (persisted postings before added ones, each in slot order).
   */
  search(
    terms: readonly string[],
    pool: number,
    isLive: (slot: number) => boolean,
    liveCount: number,
    tieKey: (slot: number) => string,
  ): TokenHit[] {
    const hits = this.scoreAll(terms, isLive, liveCount);
    // Only pages scoring at least the pool-th best score can make the pool; sort just those.
    const threshold = hits.length <= pool ? -Infinity : kthLargest(Float64Array.from(hits, (hit) => hit.score), hits.length, pool);
    const contenders = threshold === -Infinity ? hits : hits.filter((hit) => hit.score >= threshold);
    const keys = new Map<number, string>();
    const keyOf = (slot: number): string => {
      let key = keys.get(slot);
      if (key === undefined) {
        key = tieKey(slot);
        keys.set(slot, key);
      }
      return key;
    };
    contenders.sort((a, b) => b.score - a.score || compare(keyOf(a.slot), keyOf(b.slot)));
    return contenders.slice(0, Math.max(0, pool));
  }

  /** Every live page holding a query term, with its summed idf, in no order. */
  scoreAll(terms: readonly string[], isLive: (slot: number) => boolean, liveCount: number): TokenHit[] {
    const touched: number[] = [];
    for (const term of new Set(terms)) {
      const t = this.base ? this.base.terms.indexOf(term) : -1;
      const added = this.added.get(term);
      const count = (t >= 0 ? this.baseCount(t) : 0) + (added?.length ?? 0);
      if (count === 0) continue;
      const df = Math.min(count, Math.max(1, liveCount));
      const idf = Math.log(1 + (liveCount - df + 0.5) / (df + 0.5));
      const visit = (slot: number): void => {
        if (!isLive(slot)) return;
        const scratch = this.scratchFor(slot);
        if (scratch.seen[slot] === 0) {
          scratch.seen[slot] = 1;
          touched.push(slot);
        }
        scratch.scores[slot] = scratch.scores[slot]! + idf;
      };
      if (t >= 0) this.forEachBaseSlot(t, visit);
      if (added) for (const slot of added) visit(slot);
    }
    const { scores, seen } = this.scratchFor(0);
    const hits = touched.map((slot) => ({ slot, score: scores[slot]! }));
    for (const slot of touched) {
      scores[slot] = 0;
      seen[slot] = 0;
    }
    return hits;
  }

  /** How many slots persisted term `t` lists: its varints, each ending in a byte below 0x80. */
  private baseCount(t: number): number {
    const { offsets, slots } = this.base!;
    let count = 0;
    for (let i = offsets[t] ?? 0, end = offsets[t + 1] ?? 0; i < end; i++) if (slots[i]! < 0x80) count++;
    return count;
  }

  private forEachBaseSlot(t: number, visit: (slot: number) => void): void {
    const { offsets, slots } = this.base!;
    const end = offsets[t + 1] ?? 0;
    const reader = new VarintReader(slots, offsets[t] ?? 0);
    for (let slot = 0; reader.position < end; ) {
      slot += reader.nextGap();
      visit(slot);
    }
  }

  /** Work arrays by slot with room for `slot`, kept between searches (cleared after each). */
  private scratchFor(slot: number): { scores: Float64Array; seen: Uint8Array } {
    let scratch = this.scratch;
    if (!scratch || slot >= scratch.seen.length) {
      let capacity = Math.max(64, scratch?.seen.length ?? 0);
      while (capacity <= slot) capacity *= 2;
      const next = { scores: new Float64Array(capacity), seen: new Uint8Array(capacity) };
      if (scratch) {
        next.scores.set(scratch.scores);
        next.seen.set(scratch.seen);
      }
      scratch = next;
      this.scratch = scratch;
    }
    return scratch;
  }

  /**
   * The postings renumbered by `remap` (old slot → new slot, or -1 when removed), as
   * sections. Used both to persist and to compact in memory.
   */
  encode(remap: Int32Array): Record<string, Uint8Array> {
    const base = this.base;
    if (base && this.added.size === 0 && isIdentity(remap)) {
      // Nothing added since the base was made and no slot moves: it is already the encoding.
      return { terms: base.terms.encode(), offsets: bytesOf(base.offsets), slots: base.slots };
    }
    // The persisted terms are sorted already; only terms first seen since need placing.
    const baseTerms = base?.terms.all() ?? [];
    const fresh = [...this.added.keys()].filter((term) => !base || base.terms.indexOf(term) < 0);
    const sorted = fresh.length === 0 ? baseTerms : [...baseTerms, ...fresh].sort();
    const terms: string[] = [];
    const offsets = new Uint32Builder(sorted.length + 1);
    const slots = new VarintWriter(1 << 16);
    sorted.forEach((term, i) => {
      const start = slots.length;
      // Renumbered as they are read (renumbering keeps the order, so gaps stay small).
      let previous = 0;
      const t = fresh.length === 0 ? i : (base?.terms.indexOf(term) ?? -1);
      if (base && t >= 0) {
        const end = base.offsets[t + 1] ?? 0;
        const reader = new VarintReader(base.slots, base.offsets[t] ?? 0);
        for (let slot = 0; reader.position < end; ) {
          slot += reader.nextGap();
          const next = remap[slot] ?? -1;
          if (next < 0) continue;
          slots.pushGap(next - previous);
          previous = next;
        }
      }
      for (const slot of this.added.get(term) ?? []) {
        const next = remap[slot] ?? -1;
        if (next < 0) continue;
        slots.pushGap(next - previous);
        previous = next;
      }
      if (slots.length === start) return;
      terms.push(term);
      offsets.push(start);
    });
    offsets.push(slots.length);
    return { terms: encodeTerms(terms), offsets: bytesOf(offsets.finish()), slots: slots.finish() };
  }

  /** Replace the state with its renumbered, hole-free form. */
  compact(remap: Int32Array): void {
    const compacted = TokenLane.decode(this.encode(remap));
    this.base = compacted.base;
    this.added = new Map();
  }
}

/** A list of slots as varint gaps, each from the slot before (the first from 0). */
function writeSlots(slots: ArrayLike<number>, out: VarintWriter): void {
  let previous = 0;
  for (let i = 0; i < slots.length; i++) {
    const slot = slots[i]!;
    out.pushGap(slot - previous);
    previous = slot;
  }
}

function isIdentity(remap: Int32Array): boolean {
  for (let i = 0; i < remap.length; i++) if (remap[i] !== i) return false;
  return true;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
