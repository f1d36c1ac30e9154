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

const CACHE_LIMIT = 200_000;
/** Word → its contribution, or null when the word is dropped (stopword, lone letter). */
const cache = new Map<string, AsciiWord | null>();

function lookup(raw: string, stem: (word: string) => string): AsciiWord | null {
  let info = cache.get(raw);
  if (info === undefined) {
    if (cache.size >= CACHE_LIMIT) cache.clear();
    const dropped = (raw.length < 2 && !(raw >= '0' && raw <= '9')) || ENGLISH_STOPWORDS.has(raw);
    info = dropped ? null : { term: stem(raw), word: raw, vocabulary: undefined, termId: -1, wordId: -1 };
    cache.set(raw, info);
  }
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
      while (i < n && isAlnum(text.charCodeAt(i))) i++;
      const info = lookup(text.slice(runStart, i), stem);
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
