import { splitFrontmatter } from '../../wiki/frontmatter-split.js';
import { documentText, pageDocument, plainBody } from './document.js';
import { makeSnippet } from './snippet.js';

/** What a query's phrases and exclusions are matched against: the page as the index reads it. */
export function searchableText(pagePath: string, content: string | undefined): string {
  return content === undefined ? '' : documentText(pageDocument(pagePath, content));
}

/**
 * The page's passage for the query terms. Pages are read synchronously (readPage: never
 * through a link swapped in, never a hard link): a result page is small, and a dozen reads
 * through the thread pool cost a search more than the reading itself.
 */
export function snippetFor(content: string | undefined, terms: readonly string[], fallback: string): string {
  if (content === undefined) return fallback;
  return makeSnippet(plainBody(splitFrontmatter(content).body), terms) || fallback;
}
