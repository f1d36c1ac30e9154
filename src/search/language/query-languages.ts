import { ENGLISH } from './languages.js';

/**
 * The languages a query is analysed in: every language a live page is analysed in (`held`)
 * and the wiki's configured one; English in an empty wiki. Never the query's own language,
 * guessed: a query of two words does not tell.
 */
export function queryLanguages(held: readonly string[], configured: string | undefined): string[] {
  const languages = new Set(held);
  if (configured) languages.add(configured);
  if (languages.size === 0) languages.add(ENGLISH);
  return [...languages].sort();
}
