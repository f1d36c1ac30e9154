/**
 * A word one letter off another: how the grounding check tells a page correcting its source's
 * typo ("ReplicasSets" in the source, "ReplicaSets" on the page) from a name from elsewhere.
 */

/** Words shorter than this are too short to call one letter off a misspelling ("Java", "Lava"). */
const MISSPELLING_MIN = 6;
/** Candidates share their first letters: a typo there is rarer than the cost of reading every word. */
const SHARED_START = 4;
const byStart = new WeakMap<ReadonlySet<string>, Map<string, string[]>>();

/** Whether `words` hold `word` with one letter added, dropped or changed. */
export function holdsMisspelled(words: ReadonlySet<string>, word: string): boolean {
  if (word.length < MISSPELLING_MIN) return false;
  for (const other of startIndex(words).get(word.slice(0, SHARED_START)) ?? []) {
    if (Math.abs(other.length - word.length) <= 1 && oneEditApart(word, other)) return true;
  }
  return false;
}

function startIndex(words: ReadonlySet<string>): Map<string, string[]> {
  let index = byStart.get(words);
  if (!index) {
    index = new Map();
    for (const other of words) {
      const key = other.slice(0, SHARED_START);
      const list = index.get(key);
      if (list) list.push(other);
      else index.set(key, [other]);
    }
    byStart.set(words, index);
  }
  return index;
}

function oneEditApart(a: string, b: string): boolean {
  if (a === b) return true;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  let i = 0;
  while (i < short.length && short[i] === long[i]) i++;
  // The rest after one change (same length) or one insertion (one longer) must match.
  return short.length === long.length ? short.slice(i + 1) === long.slice(i + 1) : short.slice(i) === long.slice(i + 1);
}

/** A name this long or longer may be written in a derived form that drops its last letter ("Bermuda", "Bermudian"). */
const DERIVED_MIN = 6;

/**
 * Whether `words` hold a form derived from `word` that keeps all but its last letter
 * ("bermudian" for "bermuda", "canadian" for "canada"): the sources name the same thing.
 */
export function holdsDerivedForm(words: ReadonlySet<string>, word: string): boolean {
  if (word.length < DERIVED_MIN) return false;
  const base = word.slice(0, -1);
  for (const other of startIndex(words).get(word.slice(0, SHARED_START)) ?? []) if (other.length > base.length && other.startsWith(base)) return true;
  return false;
}
