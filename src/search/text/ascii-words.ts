import { ENGLISH_STOPWORDS } from './stopwords.js';
import type { Vocabulary } from './vocabulary.js';

/**
 * The fast path of text analysis for ASCII text (see analyze.ts): one pass over the
 * characters, no regular-expression match objects, and one memo lookup per word.
 */

/** What a kept ASCII word contributes, memoised per distinct word. */
export interface AsciiWord {
  /** Its stemmed term (lexical and built-in semantic lanes). */
  readonly term: string;
  /** The word itself (token lane), one shared string per distinct word. */
  readonly word: string;
  /** Ids of `term` and `word` in `vocabulary`, the last vocabulary that asked. */
  vocabulary: Vocabulary | undefined;
  termId: number;
  wordId: number;
}

/** A compound (`gpt-4o`, `c++`) and where its first kept part sits among the words. */
export interface Compound {
  at: number;
  text: string;
}

/**
 * Word → its contribution (null when the word is dropped: stopword, lone letter), looked
 * up by the characters in place: a hash table over the text's character codes, so the
 * millions of words of a full build are neither cut out as strings nor hashed twice.
 */
class WordTable {
  private static readonly LIMIT = 200_000;
  private slots = new Int32Array(1 << 14).fill(-1);
  private keys: string[] = [];
  private hashes: number[] = [];
  private infos: Array<AsciiWord | null> = [];

  /** The entry for `text[start … end)` (hash `hash`), or undefined. */
  find(text: string, start: number, end: number, hash: number): AsciiWord | null | undefined {
    const mask = this.slots.length - 1;
    const length = end - start;
    for (let at = hash & mask; ; at = (at + 1) & mask) {
      const entry = this.slots[at]!;
      if (entry < 0) return undefined;
      if (this.hashes[entry] !== hash) continue;
      const key = this.keys[entry]!;
      if (key.length !== length) continue;
      let same = true;
      for (let i = 0; i < length; i++) {
        if (key.charCodeAt(i) !== text.charCodeAt(start + i)) {
          same = false;
          break;
        }
      }
      if (same) return this.infos[entry];
    }
  }

  add(key: string, hash: number, info: AsciiWord | null): void {
    if (this.keys.length >= WordTable.LIMIT) this.clear();
    if ((this.keys.length + 1) * 2 > this.slots.length) this.grow();
    const entry = this.keys.length;
    this.keys.push(key);
    this.hashes.push(hash);
    this.infos.push(info);
    this.place(entry);
  }

  private place(entry: number): void {
    const mask = this.slots.length - 1;
    let at = this.hashes[entry]! & mask;
    while (this.slots[at]! >= 0) at = (at + 1) & mask;
    this.slots[at] = entry;
  }

  private grow(): void {
    this.slots = new Int32Array(this.slots.length * 2).fill(-1);
    for (let entry = 0; entry < this.keys.length; entry++) this.place(entry);
  }

  private clear(): void {
    this.slots = new Int32Array(1 << 14).fill(-1);
    this.keys = [];
    this.hashes = [];
    this.infos = [];
  }
}

const wordTable = new WordTable();

/** The word `text[start … end)` (hash `hash`, see scanAscii), memoised. */
function lookup(text: string, start: number, end: number, hash: number, stem: (word: string) => string): AsciiWord | null {
  const known = wordTable.find(text, start, end, hash);
  if (known !== undefined) return known;
  const raw = text.slice(start, end);
  const dropped = (raw.length < 2 && !(raw >= '0' && raw <= '9')) || ENGLISH_STOPWORDS.has(raw);
  const info = dropped ? null : { term: stem(raw), word: raw, vocabulary: undefined, termId: -1, wordId: -1 };
  wordTable.add(raw, hash, info);
  return info;
}

const isAlnum = (code: number): boolean => (code >= 97 && code <= 122) || (code >= 48 && code <= 57);
/** `.` `_` `+` `#` `/` `'` `-`: the characters that join words into one whole term. */
const isJoiner = (code: number): boolean =>
  code === 46 || code === 95 || code === 43 || code === 35 || code === 47 || code === 39 || code === 45;

/**
 * One pass over lower-case ASCII text: every run of letters and digits is a word, and the
 * kept ones go to `words` in order; with `compounds`, each compound goes there too. Same
 * output as matching /[a-z0-9]+/g for words and
 * /[a-z0-9]+(?:[._+#/'-][a-z0-9]+)*(?:\+\+|#)?/g for compounds.
 */
export function scanAscii(text: string, stem: (word: string) => string, words: AsciiWord[], compounds?: Compound[]): void {
  const n = text.length;
  let i = 0;
  while (i < n) {
    if (!isAlnum(text.charCodeAt(i))) {
      i++;
      continue;
    }
    const start = i;
    const at = words.length;
    let compound = false;
    for (;;) {
      const runStart = i;
      // FNV-1a over the word's character codes, computed while finding its end.
      let hash = 0x811c9dc5;
      for (; i < n; i++) {
        const code = text.charCodeAt(i);
        if (!isAlnum(code)) break;
        hash = Math.imul(hash ^ code, 0x01000193);
      }
      const info = lookup(text, runStart, i, hash, stem);
      if (info) words.push(info);
      if (i + 1 < n && isJoiner(text.charCodeAt(i)) && isAlnum(text.charCodeAt(i + 1))) {
        compound = true;
        i++;
      } else break;
    }
    if (i + 1 < n && text.charCodeAt(i) === 43 && text.charCodeAt(i + 1) === 43) {
      compound = true;
      i += 2;
    } else if (i < n && text.charCodeAt(i) === 35) {
      compound = true;
      i++;
    }
    if (compound && compounds) {
      const joined = text.slice(start, i);
      if (!ENGLISH_STOPWORDS.has(joined)) compounds.push({ at, text: joined });
    }
  }
}

/** Whole terms in order: each compound just before its parts. */
export function wholeInOrder(words: readonly AsciiWord[], compounds: readonly Compound[], out: string[]): void {
  let next = 0;
  for (let w = 0; w <= words.length; w++) {
    while (next < compounds.length && compounds[next]!.at === w) out.push(compounds[next++]!.text);
    if (w < words.length) out.push(words[w]!.word);
  }
}

/** Term and word ids of `info` in `vocabulary` (memoised on the word). */
export function idsIn(info: AsciiWord, vocabulary: Vocabulary): AsciiWord {
  if (info.vocabulary !== vocabulary) {
    info.vocabulary = vocabulary;
    info.termId = vocabulary.id(info.term);
    info.wordId = vocabulary.id(info.word);
  }
  return info;
}
