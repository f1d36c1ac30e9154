import path from 'node:path';
import { isWikiError } from '../../errors.js';
import { SOURCE_OPEN } from '../../tools/source-delimiters.js';
import { searchAsModel } from '../run/model-search.js';
import type { Session } from '../run/session.js';

/** Characters of the text the page list is ranked by: a source's title and opening say what it is about. */
const RELEVANCE_CHARS = 2000;
/** The most pages ranked; the list goes on by key after them. */
const MOST_RANKED = 100;

/**
 * The keys of the pages most relevant to `text`, best first, by the same hybrid search
 * the model's `search_wiki` runs (so never a page the model may not see). Empty when the
 * search cannot answer: the page list then goes by key, as it would without ranking.
 */
export async function relevantKeys(session: Session, text: string, limit: number): Promise<string[]> {
  const query = text.slice(0, RELEVANCE_CHARS).trim();
  const wanted = Math.min(limit, MOST_RANKED);
  if (query === '' || wanted === 0) return [];
  try {
    const hits = await searchAsModel(session.search, session.pages, session.user, session.laneWarnings, query, wanted);
    return hits.results.map((hit) => hit.key);
  } catch (error) {
    if (isWikiError(error)) return [];
    throw error;
  }
}

/** What an ingest's page list is ranked by: the source's name, then its first window's text without the instructions around it. */
export function sourceRelevanceText(rawPath: string, firstWindow: string): string {
  const at = firstWindow.indexOf(SOURCE_OPEN);
  const text = at < 0 ? firstWindow : firstWindow.slice(firstWindow.indexOf('\n', at) + 1);
  const name = path.posix.basename(rawPath).replace(/\.[^.]+$/, '').replace(/[-_]+/g, ' ');
  return `${name}\n${text}`;
}
