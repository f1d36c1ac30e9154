import { stemmer } from 'stemmer';
import { idsIn, scanAscii, wholeInOrder, type AsciiWord, type Compound } from './ascii-words.js';
import { ENGLISH_STOPWORDS } from './stopwords.js';
import type { Vocabulary } from './vocabulary.js';

/**
 * Text analysis shared by the lanes. Two vocabularies come out of the same text:
 * - `analyze`: stemmed words for the lexical and built-in semantic lanes
 *   ("Attention layers" → ["attent", "layer"]);
 * - `wholeTerms` (token lane): unstemmed whole terms that keep inner punctuation, so odd
 *   names like `gpt-4o`, `node.js` or `c++` match exactly, plus their parts.
 * Scripts written without spaces (Chinese, Japanese, Korean) become overlapping character
 * bigrams in both, which is what keeps them findable without a dictionary.
 */

/** Bumped whenever the output of `analyze` or `wholeTerms` changes: persisted indexes are then rebuilt. */
export const ANALYZER_VERSION = 1;

const WORD = /[\p{L}\p{M}\p{N}]+/gu;
const WHOLE_TERM = /[\p{L}\p{M}\p{N}]+(?:[._+#/'’-][\p{L}\p{M}\p{N}]+)*(?:\+\+|#)?/gu;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const CJK_RUNS = /([\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー々]+)|([^\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー々]+)/gu;
const LATIN_ACCENTED = /[\u00c0-\u024f\u1e00-\u1eff]/;
const ASCII_LETTERS = /^[a-z]+$/;
const ASCII_TEXT = /^[\x00-\x7f]*$/;
const STEM_CACHE_LIMIT = 200_000;

const stemCache = new Map<string, string>();

/** Lower case, compatibility-normalised (full-width forms, ligatures) text. */
export function normalise(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}

function foldAccents(word: string): string {
  return LATIN_ACCENTED.test(word) ? word.normalize('NFD').replace(/\p{M}/gu, '') : word;
}

/** Porter stem of an ASCII word, memoised: a corpus repeats a small vocabulary many times. */
export function stem(word: string): string {
  let stemmed = stemCache.get(word);
  if (stemmed === undefined) {
    if (stemCache.size >= STEM_CACHE_LIMIT) stemCache.clear();
    stemmed = ASCII_LETTERS.test(word) && word.length >= 3 ? stemmer(word) : word;
    stemCache.set(word, stemmed);
  }
  return stemmed;
}

/**
 * Porter's rules (and `stem`) end a stem with at most two letters its word does not have
 * there ("sensibility" → "sensible" before step 4; "happy" → "happi"): all but a term's
 * last two letters are the start of every word it stems from.
 */
const STEM_TAIL = 2;

/**
 * Whether `analyze(text)` may yield one of `terms`, told cheaply (no stemming): false only
 * when it surely does not. ASCII text yields terms stemmed from its lower-case words, so
 * each term's untouched start must appear in it; other text (accents folded, Unicode
 * normalised) is never ruled out.
 */
export function mayHoldTerms(text: string, terms: readonly string[]): boolean {
  if (!ASCII_TEXT.test(text)) return true;
  const lower = text.toLowerCase();
  return terms.some((term) => lower.includes(term.slice(0, Math.max(0, term.length - STEM_TAIL))));
}

/** Overlapping character bigrams of a run of CJK characters; a single character stands alone. */
export function cjkBigrams(run: string, out: string[]): void {
  const chars = Array.from(run);
  if (chars.length === 1) {
    out.push(chars[0] ?? '');
    return;
  }
  for (let i = 0; i + 1 < chars.length; i++) out.push(`${chars[i]}${chars[i + 1]}`);
}

/** Split a token into CJK runs (as bigrams) and other runs (handed to `other`). */
function splitScripts(token: string, out: string[], other: (part: string) => void): void {
  if (!CJK.test(token)) {
    other(token);
    return;
  }
  for (const match of token.matchAll(CJK_RUNS)) {
    if (match[1]) cjkBigrams(match[1], out);
    else if (match[2]) other(match[2]);
  }
}

/** Stemmed content words of `text`, in order, stopwords and single letters removed. */
export function analyze(text: string): string[] {
  if (ASCII_TEXT.test(text)) return analyzeAscii(text);
  const out: string[] = [];
  const pushWord = (raw: string): void => {
    const word = foldAccents(raw);
    if (word.length < 2 && !/\d/.test(word)) return;
    if (ENGLISH_STOPWORDS.has(word)) return;
    out.push(stem(word));
  };
  for (const match of normalise(text).matchAll(WORD)) splitScripts(match[0], out, pushWord);
  return out;
}

/** The common case, without Unicode normalisation or script checks: same output, faster. */
function analyzeAscii(text: string): string[] {
  const words: AsciiWord[] = [];
  scanAscii(text.toLowerCase(), stem, words);
  return words.map((word) => word.term);
}

/**
 * `analyze(text)` appended to `terms` and `wholeTerms(text)` appended to `whole`, reading
 * ASCII text once for both (a page is analysed for every lane in one go).
 */
export function analyzeBoth(text: string, terms: string[], whole: string[]): void {
  if (ASCII_TEXT.test(text)) {
    const words: AsciiWord[] = [];
    const compounds: Compound[] = [];
    scanAscii(text.toLowerCase(), stem, words, compounds);
    for (const word of words) terms.push(word.term);
    wholeInOrder(words, compounds, whole);
    return;
  }
  for (const term of analyze(text)) terms.push(term);
  for (const term of wholeTerms(text)) whole.push(term);
}

/**
 * `analyzeBoth` as ids in `vocabulary`: the stemmed terms' ids appended to `terms`, the
 * whole terms' ids to `whole` (in no particular order). The bulk build's form.
 */
export function analyzeIds(text: string, vocabulary: Vocabulary, terms: number[], whole: number[]): void {
  if (ASCII_TEXT.test(text)) {
    const words: AsciiWord[] = [];
    const compounds: Compound[] = [];
    scanAscii(text.toLowerCase(), stem, words, compounds);
    for (const word of words) {
      const ids = idsIn(word, vocabulary);
      terms.push(ids.termId);
      whole.push(ids.wordId);
    }
    for (const compound of compounds) whole.push(vocabulary.id(compound.text));
    return;
  }
  for (const term of analyze(text)) terms.push(vocabulary.id(term));
  for (const term of wholeTerms(text)) whole.push(vocabulary.id(term));
}

/**
 * Whole terms for the token lane: each compound as written (`gpt-4o`) and its parts
 * (`gpt`, `4o`), lower case, accents folded, stopwords removed, never stemmed.
 */
export function wholeTerms(text: string): string[] {
  if (ASCII_TEXT.test(text)) return wholeTermsAscii(text);
  const out: string[] = [];
  const pushTerm = (raw: string): void => {
    const term = foldAccents(raw);
    if (term.length < 2 && !/\d/.test(term)) return;
    if (ENGLISH_STOPWORDS.has(term)) return;
    out.push(term);
  };
  for (const match of normalise(text).matchAll(WHOLE_TERM)) {
    const compound = match[0];
    splitScripts(compound, out, (part) => {
      const pieces = part.split(/[._+#/'’-]+/).filter(Boolean);
      if (pieces.length > 1 || part !== pieces[0]) pushTerm(part.replace(/^[._+#/'’-]+|[._/'’-]+$/g, ''));
      for (const piece of pieces) pushTerm(piece);
    });
  }
  return out;
}

/** `wholeTerms` for ASCII text: same output without Unicode classes. */
function wholeTermsAscii(text: string): string[] {
  const words: AsciiWord[] = [];
  const compounds: Compound[] = [];
  scanAscii(text.toLowerCase(), stem, words, compounds);
  const out: string[] = [];
  wholeInOrder(words, compounds, out);
  return out;
}
