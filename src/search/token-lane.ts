import { CorruptIndexError, Uint32Builder, asUint32, bytesOf, decodeTerms, encodeTerms } from './binary.js';

/**
 * The token lane: whole-term overlap. A page scores the summed rarity (idf) of the
 * distinct query terms it contains, so a short or odd query still finds candidates, and
 * CJK bigrams make non-Latin text findable. Pages are numbered by slot; postings of
 * removed slots are skipped at query time and dropped at the next compaction.
 *
 * Persisted postings are read lazily: a loaded index keeps the flat arrays and only
 * decodes the terms a query asks for; terms touched since load live in `overlay`.
 */
interface Base {
  /** Sorted terms, binary-searched. */
  terms: string[];
  offsets: Uint32Array;
  slots: Uint32Array;
}

export interface TokenHit {
  slot: number;
  score: number;
}

export class TokenLane {
  private overlay = new Map<string, number[]>();
  private base: Base | undefined;

  private constructor(base?: Base) {
    this.base = base;
  }

  static empty(): TokenLane {
    return new TokenLane();
  }

  static decode(sections: Record<string, Uint8Array | undefined>, slotCount: number): TokenLane {
    const { terms: t, offsets: o, slots: s } = sections;
    if (!t || !o || !s) throw new CorruptIndexError('token lane sections are missing');
    const base: Base = { terms: decodeTerms(t), offsets: asUint32(o), slots: asUint32(s) };
    if (base.offsets.length !== base.terms.length + 1 || (base.offsets[base.terms.length] ?? 0) !== base.slots.length) {
      throw new CorruptIndexError('token lane sections disagree in size');
    }
    for (const slot of base.slots) if (slot >= slotCount) throw new CorruptIndexError('token lane slot out of range');
    return new TokenLane(base);
  }

  private basePostings(term: string): Uint32Array | undefined {
    const base = this.base;
    if (!base) return undefined;
    let lo = 0;
    let hi = base.terms.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const probe = base.terms[mid] ?? '';
      if (probe === term) return base.slots.subarray(base.offsets[mid] ?? 0, base.offsets[mid + 1] ?? 0);
      if (probe < term) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }

  private postings(term: string): ArrayLike<number> | undefined {
    return this.overlay.get(term) ?? this.basePostings(term);
  }

  /** Index a page's distinct terms under `slot`. */
  add(slot: number, terms: Iterable<string>): void {
    for (const term of new Set(terms)) {
      let list = this.overlay.get(term);
      if (!list) {
        const fromBase = this.basePostings(term);
        list = fromBase ? Array.from(fromBase) : [];
        this.overlay.set(term, list);
      }
      list.push(slot);
    }
  }

  /**
   * The best `pool` live slots for the query's distinct terms. `liveCount` is the number
   * of live pages (for idf); ties go to `tieKey` order.
   */
  search(
    terms: readonly string[],
    pool: number,
    isLive: (slot: number) => boolean,
    liveCount: number,
    tieKey: (slot: number) => string,
  ): TokenHit[] {
    const scores = new Map<number, number>();
    for (const term of new Set(terms)) {
      const postings = this.postings(term);
      if (!postings || postings.length === 0) continue;
      const df = Math.min(postings.length, Math.max(1, liveCount));
      const idf = Math.log(1 + (liveCount - df + 0.5) / (df + 0.5));
      for (let i = 0; i < postings.length; i++) {
        const slot = postings[i] ?? 0;
        if (isLive(slot)) scores.set(slot, (scores.get(slot) ?? 0) + idf);
      }
    }
    // Only pages scoring at least the pool-th best score can make the pool; sort just those.
    const threshold = poolThreshold(scores, pool);
    const hits: TokenHit[] = [];
    for (const [slot, score] of scores) if (score >= threshold) hits.push({ slot, score });
    hits.sort((a, b) => b.score - a.score || compare(tieKey(a.slot), tieKey(b.slot)));
    return hits.slice(0, pool);
  }

  /**
   * The postings renumbered by `remap` (old slot → new slot, or -1 when removed), as
   * sections. Used both to persist and to compact in memory.
   */
  encode(remap: Int32Array): Record<string, Uint8Array> {
    const all = new Set<string>(this.overlay.keys());
    for (const term of this.base?.terms ?? []) all.add(term);
    const sorted = [...all].sort();
    const terms: string[] = [];
    const offsets = new Uint32Builder(sorted.length + 1);
    const slots = new Uint32Builder(1 << 16);
    for (const term of sorted) {
      const postings = this.postings(term);
      if (!postings) continue;
      const start = slots.length;
      const seen = new Set<number>();
      for (let i = 0; i < postings.length; i++) {
        const next = remap[postings[i] ?? 0] ?? -1;
        if (next < 0 || seen.has(next)) continue;
        seen.add(next);
        slots.push(next);
      }
      if (slots.length === start) continue;
      terms.push(term);
      offsets.push(start);
    }
    offsets.push(slots.length);
    return { terms: encodeTerms(terms), offsets: bytesOf(offsets.finish()), slots: bytesOf(slots.finish()) };
  }

  /** Replace the state with its renumbered, hole-free form. */
  compact(remap: Int32Array, slotCount: number): void {
    const compacted = TokenLane.decode(this.encode(remap), slotCount);
    this.base = compacted.base;
    this.overlay = new Map();
  }
}

function poolThreshold(scores: Map<number, number>, pool: number): number {
  if (scores.size <= pool) return -Infinity;
  const values = Float64Array.from(scores.values()).sort();
  return values[values.length - pool] ?? -Infinity;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
