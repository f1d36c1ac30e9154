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
