import { parseQuery } from './text/query-syntax.js';

/**
 * A quoted phrase that matches nothing falls back to its words (issue 36): `run` searches
 * with the phrases as written, and again with them as plain words when that finds nothing
 * the caller may see; the answer then names the phrases (`phrasesNotFound`). Each caller
 * passes a `run` that drops the pages its reader may not see, so whether a hidden page
 * holds a phrase never shows in what comes back.
 */
export async function searchWithPhraseFallback<T extends { results: readonly unknown[] }>(
  query: string,
  run: (phrasesAsWords: boolean) => Promise<T>,
): Promise<T & { phrasesNotFound?: string[] }> {
  const asWritten = await run(false);
  const { phrases } = parseQuery(query);
  if (asWritten.results.length > 0 || phrases.length === 0) return asWritten;
  const asWords = await run(true);
  return asWords.results.length > 0 ? { ...asWords, phrasesNotFound: phrases } : asWritten;
}
