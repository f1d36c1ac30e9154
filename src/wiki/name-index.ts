import { GramIndex } from './gram-index.js';
import { canonicalName, deletionNeighbours, editDistance, isNearName, suggestionDistance } from './similarity.js';

/** Canonical forms shorter than this are never indexed for one-edit lookups (see isNearName). */
const NEAR_INDEX_MIN = 5;

interface NameEntry {
  key: string;
  canonical: string;
  /** Position in `byId`, the number the gram index stores. */
  id: number;
}

/**
 * Page keys indexed for "did you mean" lookups. Adding or removing a key touches only that
 * key's entries, so the index stays current between writes without rebuilding.
 */
export class NameIndex {
  private readonly entries = new Map<string, NameEntry>();
  private readonly byId: Array<NameEntry | undefined> = [];
  private readonly freeIds: number[] = [];
  private readonly byCanonical = new Map<string, Set<string>>();
  /** q-gram lists for suggestions, kept from the start so no write pays for building them. */
  private readonly grams = new GramIndex();
  /** One-deletion variant → key(s); a single key is stored bare because almost every variant has one. */
  private readonly byNeighbour = new Map<string, string | string[]>();

  has(key: string): boolean {
    return this.entries.has(key);
  }

  add(key: string): void {
    if (this.entries.has(key)) return;
    const canonical = canonicalName(key);
    const id = this.freeIds.pop() ?? this.byId.length;
    const entry: NameEntry = { key, canonical, id };
    this.entries.set(key, entry);
    this.byId[id] = entry;
    const same = this.byCanonical.get(canonical);
    if (same) same.add(key);
    else this.byCanonical.set(canonical, new Set([key]));
    this.grams.add(id, canonical);
    if (canonical.length >= NEAR_INDEX_MIN) for (const variant of deletionNeighbours(canonical)) this.addNeighbour(variant, key);
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    const { canonical, id } = entry;
    this.entries.delete(key);
    this.byId[id] = undefined;
    this.freeIds.push(id);
    const same = this.byCanonical.get(canonical);
    same?.delete(key);
    if (same?.size === 0) this.byCanonical.delete(canonical);
    this.grams.delete(id, canonical);
    if (canonical.length >= NEAR_INDEX_MIN) for (const variant of deletionNeighbours(canonical)) this.deleteNeighbour(variant, key);
  }

  /**
   * Up to `max` keys that `name` was probably meant to be: the same name modulo case,
   * punctuation and plural/singular first, then by edit distance on that form.
   */
  closeMatches(name: string, max = 3): string[] {
    const target = canonicalName(name);
    const allowed = suggestionDistance(target.length);
    const scored = new Map<string, number>();
    for (const key of this.byCanonical.get(target) ?? []) scored.set(key, 0);
    if (allowed > 0) {
      for (const id of this.candidateIds(target, allowed)) {
        const entry = this.byId[id];
        if (!entry || scored.has(entry.key) || Math.abs(entry.canonical.length - target.length) > allowed) continue;
        const d = editDistance(target, entry.canonical);
        if (d <= allowed) scored.set(entry.key, d);
      }
    }
    scored.delete(name);
    return [...scored]
      .map(([key, score]) => ({ key, score, raw: editDistance(name, key) }))
      .sort((a, b) => a.score - b.score || a.raw - b.raw || (a.key < b.key ? -1 : 1))
      .slice(0, max)
      .map((entry) => entry.key);
  }

  private candidateIds(text: string, allowed: number): Iterable<number> {
    return this.grams.candidates(text, allowed) ?? [...this.entries.values()].map((entry) => entry.id);
  }

  /** Keys other than `name` that are near-identical names (see isNearName), sorted. */
  nearMatches(name: string): string[] {
    const canonical = canonicalName(name);
    const found = new Set<string>(this.byCanonical.get(canonical) ?? []);
    if (canonical.length >= NEAR_INDEX_MIN) {
      for (const variant of deletionNeighbours(canonical)) {
        const keys = this.byNeighbour.get(variant);
        if (typeof keys === 'string') found.add(keys);
        else if (keys) for (const key of keys) found.add(key);
      }
    }
    found.delete(name);
    return [...found].filter((key) => isNearName(name, key)).sort();
  }

  /**
   * Every pair of indexed keys that are near-identical names, each pair once as [a, b] with
   * a < b, sorted. Read off the index itself, so checking a whole wiki costs no lookups per key.
   */
  nearPairs(): Array<[string, string]> {
    const seen = new Set<string>();
    const pairs: Array<[string, string]> = [];
    const consider = (keys: Iterable<string>): void => {
      const list = [...keys].sort();
      for (let i = 0; i < list.length; i++) {
        for (let j = i + 1; j < list.length; j++) {
          const a = list[i] ?? '';
          const b = list[j] ?? '';
          const id = `${a}\u0000${b}`;
          if (seen.has(id)) continue;
          seen.add(id);
          if (isNearName(a, b)) pairs.push([a, b]);
        }
      }
    };
    for (const keys of this.byCanonical.values()) if (keys.size > 1) consider(keys);
    for (const keys of this.byNeighbour.values()) if (typeof keys !== 'string') consider(keys);
    return pairs.sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : x[1] < y[1] ? -1 : x[1] > y[1] ? 1 : 0));
  }

  private addNeighbour(variant: string, key: string): void {
    const current = this.byNeighbour.get(variant);
    if (current === undefined) this.byNeighbour.set(variant, key);
    else if (typeof current === 'string') {
      if (current !== key) this.byNeighbour.set(variant, [current, key]);
    } else if (!current.includes(key)) current.push(key);
  }

  private deleteNeighbour(variant: string, key: string): void {
    const current = this.byNeighbour.get(variant);
    if (current === undefined) return;
    if (typeof current === 'string') {
      if (current === key) this.byNeighbour.delete(variant);
      return;
    }
    const rest = current.filter((k) => k !== key);
    if (rest.length === 1 && rest[0] !== undefined) this.byNeighbour.set(variant, rest[0]);
    else if (rest.length === 0) this.byNeighbour.delete(variant);
    else this.byNeighbour.set(variant, rest);
  }
}
