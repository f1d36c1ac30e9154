import { analyze } from '../search/text/analyze.js';
import { isStopWord } from './word-tokens.js';
import { LANGUAGE_MARK } from '../search/language/analyze-in.js';
import { detectLanguage } from '../search/language/detect.js';
import { ENGLISH } from '../search/language/languages.js';

/**
 * What the facts store's full-text index holds of a fact, by the language of the source that
 * states it, with search's analysers (search/language/). English facts are indexed as written,
 * under FTS5's Porter tokenizer, as they always were. A fact in another language is indexed
 * as its terms in that language (stemmed, folded, segmented as search does), each tagged with
 * the language in a form FTS5 keeps as one token (`deǂhaus`): a query is analysed in every
 * language the store holds, and a fact matches only the query's terms in its own language.
 */

/** A letter (so FTS5's unicode61 keeps the term one token) no analysed word holds. */
const FTS_MARK = 'ǂ';

/** The language of a source's facts: that of their text together, else English. */
export function factsLanguage(texts: readonly string[]): string {
  return detectLanguage(texts.join('\n')) ?? ENGLISH;
}

/** What facts_fts indexes for `text` in `language`. */
export function ftsText(text: string, language: string): string {
  if (language === ENGLISH) return text;
  return analyze(text, language).map(ftsToken).join(' ');
}

/** The query's tokens in `language` (not English), as facts_fts holds them. */
function ftsQueryTerms(query: string, language: string): string[] {
  return analyze(query, language).map(ftsToken);
}

function ftsToken(term: string): string {
  return term.replace(LANGUAGE_MARK, FTS_MARK);
}

/** The counters naming the languages a store holds facts in, one per language: `language:de`. */
export const LANGUAGE_COUNTER = 'language:';

/**
 * Free text → an FTS5 query of its words OR-ed, so punctuation in a question cannot be
 * syntax: its words as written (English facts are indexed as written), and its terms in each
 * of `languages` (the other languages the store holds).
 */
export function ftsQuery(text: string, languages: readonly string[] = []): string {
  // Words with no content ("when", "did", "the") would match nearly every fact under OR.
  const words = (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((word) => !isStopWord(word));
  for (const language of languages) words.push(...ftsQueryTerms(text, language));
  return [...new Set(words)].map((w) => `"${w.replace(/"/g, '""')}"`).join(' OR ');
}
