import { canonicalName, deletionNeighbours, editDistance, isNearName, suggestionDistance } from './similarity.js';

/** Canonical forms shorter than this are never indexed for one-edit lookups (see isNearName). */
const NEAR_INDEX_MIN = 5;

interface NameEntry {
  key: string;
  canonical: string;
  /** Slot in the counting arrays of closeMatches. */
  id: number;
}

const GRAM = 2;

/**
 * Page keys indexed for "did you mean" lookups. Adding or removing a key touches only that
 * key's entries. Suggestions use the q-gram lemma — names within edit distance d share at
 * least |a| − 1 − 2d of a's bigrams — so only names holding one of a's rarer bigrams are measured.
 */
export class NameIndex {
  private readonly entries = new Map<string, NameEntry>();
  private readonly byId: Array<NameEntry | undefined> = [];
  private readonly freeIds: number[] = [];
  private readonly byCanonical = new Map<string, Set<string>>();
  /** Numbered bigram (`ab1`, `ab2` for a second occurrence) → ids of the names holding it. */
  private readonly byGram = new Map<string, Set<number>>();
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
    for (const gram of numberedGrams(canonical)) {
      const ids = this.byGram.get(gram);
      if (ids) ids.add(id);
      else this.byGram.set(gram, new Set([id]));
    }
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
    for (const gram of numberedGrams(canonical)) {
      const ids = this.byGram.get(gram);
      ids?.delete(id);
      if (ids?.size === 0) this.byGram.delete(gram);
    }
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

  /**
   * Ids of the names that may lie within `allowed` edits of `text`. Such a name shares at
   * least t = |text| − 1 − 2·allowed of its bigrams, so it must hold one of any
   * (grams − t + 1) of them; taking the rarest keeps the lists scanned short.
   */
  private candidateIds(text: string, allowed: number): Set<number> {
    const grams = numberedGrams(text);
    const mustShare = text.length - (GRAM - 1) - GRAM * allowed;
    const lists = grams.map((gram) => this.byGram.get(gram)).sort((x, y) => (x?.size ?? 0) - (y?.size ?? 0));
    const ids = new Set<number>();
    if (mustShare <= 0) {
      for (const entry of this.entries.values()) ids.add(entry.id);
      return ids;
    }
    for (const list of lists.slice(0, grams.length - mustShare + 1)) for (const id of list ?? []) ids.add(id);
    return ids;
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

/** Bigrams of `text`, each numbered by occurrence so shared counts follow multiset semantics. */
function numberedGrams(text: string): string[] {
  const seen = new Map<string, number>();
  const grams: string[] = [];
  for (let i = 0; i + GRAM <= text.length; i++) {
    const gram = text.slice(i, i + GRAM);
    const n = (seen.get(gram) ?? 0) + 1;
    seen.set(gram, n);
    grams.push(`${gram}${n}`);
  }
  return grams;
}
