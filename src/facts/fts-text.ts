import { analyze } from '../search/text/analyze.js';
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
export function ftsQueryTerms(query: string, language: string): string[] {
  return analyze(query, language).map(ftsToken);
}

function ftsToken(term: string): string {
  return term.replace(LANGUAGE_MARK, FTS_MARK);
}
