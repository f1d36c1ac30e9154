import { stemmer } from 'stemmer';
import { idsIn, scanAscii, wholeInOrder, type AsciiWord, type Compound } from './ascii-words.js';
import { ENGLISH_STOPWORDS } from './stopwords.js';
import type { Vocabulary } from './vocabulary.js';
import { analyzeIn, isTaggedTerm } from '../language/analyze-in.js';
import { ENGLISH, foldedStopwordsOf } from '../language/languages.js';
import { splitSegmented } from '../language/segment.js';

/**
 * Text analysis shared by the lanes. Two vocabularies come out of the same text:
 * - `analyze`: stemmed words for the lexical and built-in semantic lanes
 *   ("Attention layers" → ["attent", "layer"]);
 * - `wholeTerms` (token lane): unstemmed whole terms that keep inner punctuation, so odd
 *   names like `gpt-4o`, `node.js` or `c++` match exactly, plus their parts.
 * Text in another language than English is analysed by language/analyze-in.ts into terms
 * tagged with that language; English text keeps the path below, untagged. Scripts written
 * without spaces (Chinese, Japanese, Thai…) are cut into words by the runtime's segmenter
 * (language/segment.ts) in both vocabularies, whatever the language.
 */

/** Bumped whenever the output of `analyze` or `wholeTerms` changes: persisted indexes are then rebuilt. */
export const ANALYZER_VERSION = 2;

const WORD = /[\p{L}\p{M}\p{N}]+/gu;
const WHOLE_TERM = /[\p{L}\p{M}\p{N}]+(?:[._+#/'’-][\p{L}\p{M}\p{N}]+)*(?:\+\+|#)?/gu;
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
  if (!ASCII_TEXT.test(text) || terms.some(isTaggedTerm)) return true;
  const lower = text.toLowerCase();
  return terms.some((term) => lower.includes(term.slice(0, Math.max(0, term.length - STEM_TAIL))));
}

/**
 * Stemmed content words of `text` in `language` (a code from languages.ts, default
 * English), in order, stopwords and single letters removed.
 */
export function analyze(text: string, language: string = ENGLISH): string[] {
  if (language !== ENGLISH) {
    const out: string[] = [];
    analyzeIn(text, language, out);
    return out;
  }
  if (ASCII_TEXT.test(text)) return analyzeAscii(text);
  const out: string[] = [];
  const pushWord = (raw: string): void => {
    const word = foldAccents(raw);
    if (word.length < 2 && !/\d/.test(word)) return;
    if (ENGLISH_STOPWORDS.has(word)) return;
    out.push(stem(word));
  };
  const pushSegmented = (term: string): void => void out.push(term);
  for (const match of normalise(text).matchAll(WORD)) splitSegmented(match[0], pushSegmented, pushWord);
  return out;
}

/**
 * A query's terms: the query analysed in each of `languages` (the languages the wiki's
 * pages are in), one after another. A page holds only terms of its own language, so each
 * page is matched by the query as analysed in its language.
 */
export function analyzeQuery(query: string, languages: Iterable<string>): string[] {
  const out: string[] = [];
  for (const language of languages) for (const term of analyze(query, language)) out.push(term);
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
export function analyzeBoth(text: string, terms: string[], whole: string[], language: string = ENGLISH): void {
  if (language === ENGLISH && ASCII_TEXT.test(text)) {
    const words: AsciiWord[] = [];
    const compounds: Compound[] = [];
    scanAscii(text.toLowerCase(), stem, words, compounds);
    for (const word of words) terms.push(word.term);
    wholeInOrder(words, compounds, whole);
    return;
  }
  for (const term of analyze(text, language)) terms.push(term);
  for (const term of wholeTermsIn(text, language)) whole.push(term);
}

/**
 * `analyzeBoth` as ids in `vocabulary`: the stemmed terms' ids appended to `terms`, the
 * whole terms' ids to `whole` (in no particular order). The bulk build's form.
 */
export function analyzeIds(text: string, vocabulary: Vocabulary, terms: number[], whole: number[], language: string = ENGLISH): void {
  if (language === ENGLISH && ASCII_TEXT.test(text)) {
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
  for (const term of analyze(text, language)) terms.push(vocabulary.id(term));
  for (const term of wholeTermsIn(text, language)) whole.push(vocabulary.id(term));
}

/**
 * Whole terms for the token lane: each compound as written (`gpt-4o`) and its parts
 * (`gpt`, `4o`), lower case, accents folded, English stopwords removed, never stemmed.
 * The same in every language: the token lane matches words as written.
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
  const pushSegmented = (term: string): void => void out.push(term);
  for (const match of normalise(text).matchAll(WHOLE_TERM)) {
    const compound = match[0];
    splitSegmented(compound, pushSegmented, (part) => {
      const pieces = part.split(/[._+#/'’-]+/).filter(Boolean);
      if (pieces.length > 1 || part !== pieces[0]) pushTerm(part.replace(/^[._+#/'’-]+|[._/'’-]+$/g, ''));
      for (const piece of pieces) pushTerm(piece);
    });
  }
  return out;
}

/**
 * A page's whole terms: `wholeTerms`, less its own language's stopwords (folded as whole
 * terms are), so a German page's "die" is no token-lane match for the English word.
 */
function wholeTermsIn(text: string, language: string): string[] {
  const terms = wholeTerms(text);
  if (language === ENGLISH) return terms;
  const stopwords = foldedStopwordsOf(language);
  return terms.filter((term) => !stopwords.has(term));
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
