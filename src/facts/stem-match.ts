import type { Analysed } from './grounding-evidence.js';

/**
 * How the grounding check matches a claim's content-word stems with its evidence's: a stem
 * matches itself, or a longer stem it begins ("verifi" ~ "verification"), so inflection and
 * derivation do not count as a difference.
 */

/** A stem shorter than this matches only itself. */
const PREFIX_MIN = 4;

export function wordsOf(items: readonly Analysed[]): Set<string> {
  const words = new Set<string>();
  for (const item of items) for (const word of item.terms.words) words.add(word);
  return words;
}

export function overlapOf(words: readonly string[], other: ReadonlySet<string>): number {
  let count = 0;
  for (const word of words) if (other.has(word)) count++;
  return count;
}

export function support(words: readonly string[], evidence: ReadonlySet<string>): number {
  return words.length === 0 ? 1 : words.filter((word) => holds(evidence, word)).length / words.length;
}

/** Whether `words` holds `word`, or a word one of them begins with the other ("verifi" ~ "verif"). */
export function holds(words: ReadonlySet<string>, word: string): boolean {
  if (words.has(word)) return true;
  if (word.length < PREFIX_MIN) return false;
  // Both words start with the same PREFIX_MIN letters: look only among those (a large set is indexed once).
  const candidates = words.size > PREFIX_INDEX_FROM ? (prefixIndex(words).get(word.slice(0, PREFIX_MIN)) ?? []) : words;
  for (const other of candidates) {
    if (other.length < PREFIX_MIN) continue;
    if (other.length > word.length ? other.startsWith(word) : word.startsWith(other)) return true;
  }
  return false;
}

/** Sets larger than this get a prefix index when searched. */
const PREFIX_INDEX_FROM = 64;
const prefixIndexes = new WeakMap<ReadonlySet<string>, Map<string, string[]>>();

function prefixIndex(words: ReadonlySet<string>): Map<string, string[]> {
  let index = prefixIndexes.get(words);
  if (!index) {
    index = new Map();
    for (const other of words) {
      if (other.length < PREFIX_MIN) continue;
      const key = other.slice(0, PREFIX_MIN);
      const list = index.get(key);
      if (list) list.push(other);
      else index.set(key, [other]);
    }
    prefixIndexes.set(words, index);
  }
  return index;
}

