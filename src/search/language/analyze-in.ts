import { foldingOf, stemmerOf, stopwordsOf } from './languages.js';
import { splitSegmented } from './segment.js';

/**
 * Analysis of text in a language other than English (English keeps its own path, see
 * text/analyze.ts). Each term carries its language (`de:haus`), so a page is matched only
 * by the query's terms analysed in the page's own language: a German page's `die` (the)
 * never meets an English query's "die", and a query is analysed once per language the wiki
 * holds. Words are lower-cased (NFKC), stopwords dropped, stemmed where a stemmer is known,
 * then folded where the language allows it (see languages.ts); words of unspaced scripts
 * are segmented (segment.ts) and never stemmed or folded.
 */

const WORD = /[\p{L}\p{M}\p{N}]+/gu;
const DIGIT = /\d/;
/** Marks on letters of these scripts are accents a reader may leave out; elsewhere (Devanagari, Thai, kana) they are letters' parts. */
const ACCENTED = /([\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{Script=Arabic}])\p{M}+/gu;
const HAS_MARK = /\p{M}|[^\x00-\x7f]/u;

/** The separator between a term's language and its word; no analysed word holds one. */
export const LANGUAGE_MARK = ':';

export function foldMarks(word: string): string {
  if (!HAS_MARK.test(word)) return word;
  return word.normalize('NFD').replace(ACCENTED, '$1').normalize('NFC');
}

/** The terms of `text` in `language` (not English), appended to `out`. */
export function analyzeIn(text: string, language: string, out: string[]): void {
  const stopwords = stopwordsOf(language);
  const stemmer = stemmerOf(language);
  const fold = foldingOf(language) === 'fold';
  const prefix = `${language}${LANGUAGE_MARK}`;
  const pushWord = (word: string): void => {
    if (word.length < 2 && !DIGIT.test(word)) return;
    if (stopwords.has(word)) return;
    const stemmed = stemmer ? stemmer(word) : word;
    const term = fold ? foldMarks(stemmed) : stemmed;
    if (term) out.push(prefix + term);
  };
  const pushSegmented = (term: string): void => {
    if (!stopwords.has(term)) out.push(prefix + term);
  };
  for (const match of text.normalize('NFKC').toLowerCase().matchAll(WORD)) splitSegmented(match[0], pushSegmented, pushWord);
}

/** Whether `term` was analysed in a language other than English. */
export function isTaggedTerm(term: string): boolean {
  return term.includes(LANGUAGE_MARK);
}
