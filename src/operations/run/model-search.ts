import type { SearchIndex, SearchResponse } from '../../search/index.js';
import { isSeenBy, scopeOf } from '../../wiki/access.js';
import type { Page } from '../../wiki/page.js';
import type { PageIndex } from '../../wiki/page-index.js';
import { laneWarnings, requireAnsweringLane, type LaneWarning } from '../inspect/search.js';
import { searchWithPhraseFallback } from '../../search/phrase-fallback.js';

/**
 * Whether the model, working for `user`, is shown a page: not a `usage_mode: never` page,
 * nor another user's scratch page, nor a team page the user's own scratch page shadows.
 */
export function shownToModel(pages: PageIndex, user: string | undefined): (page: Page) => boolean {
  const { ownKeys } = visibility(pages, user);
  return (page) => isShown(page, ownKeys, user);
}

function isShown(page: Page, ownKeys: ReadonlySet<string>, user: string | undefined): boolean {
  if (!isSeenBy(page, user)) return false;
  return scopeOf(page.path) !== undefined || !ownKeys.has(page.key);
}

/**
 * search_wiki for the model: the index's hits less the pages never surfaced to `user`
 * (usage_mode never, another user's scratch scope, a team page the user's own scratch page
 * shadows), judged by the pages as this run sees them. Lanes dropped are noted in
 * `warnings`; when no lane could answer it throws, so the model is told search failed
 * instead of being handed an empty list. A quoted phrase no page shown holds falls back to
 * its words (phrasesNotFound).
 */
export async function searchAsModel(
  search: SearchIndex,
  pages: PageIndex,
  user: string | undefined,
  warnings: Map<string, LaneWarning>,
  query: string,
  limit: number,
): Promise<SearchResponse> {
  return searchWithPhraseFallback(query, (phrasesAsWords) => searchAsModelOnce(search, pages, user, warnings, query, limit, phrasesAsWords));
}

async function searchAsModelOnce(
  search: SearchIndex,
  pages: PageIndex,
  user: string | undefined,
  warnings: Map<string, LaneWarning>,
  query: string,
  limit: number,
  phrasesAsWords: boolean,
): Promise<SearchResponse> {
  const { hidden } = visibility(pages, user);
  const shown = shownToModel(pages, user);
  const response = await search.search(query, { limit: limit + hidden, phrasesAsWords });
  requireAnsweringLane(response.lanes);
  for (const warning of laneWarnings(response.lanes, search.info().embedder)) warnings.set(warning.lane, warning);
  const results = response.results.filter((result) => {
    const page = pages.atPath(result.path);
    return page !== undefined && shown(page);
  });
  // Nor is a hidden page named in a hit's links or backlinks (a missing key stays: it is no page).
  const named = (key: string): boolean =>
    !pages.has(key) ||
    pages.pathsOf(key).some((pagePath) => {
      const page = pages.atPath(pagePath);
      return page !== undefined && shown(page);
    });
  const trimmed = results
    .slice(0, limit)
    .map((result) => ({ ...result, links: result.links.filter(named), backlinks: result.backlinks.filter(named) }));
  return { ...response, results: trimmed };
}

interface Visibility {
  version: number;
  user: string | undefined;
  /** Keys of the user's own scratch pages (they shadow team pages of the same key). */
  ownKeys: Set<string>;
  /** Pages the user is not shown: the search asks for as many more hits. */
  hiddenPaths: Set<string>;
  hidden: number;
}

/**
 * Per page index, the last answer: a run searches many times, and working it out is a pass
 * over every page. After writes it is brought up to date page by page (a pass again only
 * when one of the user's own scratch pages changed, which may shadow any team page).
 */
const lastVisibility = new WeakMap<PageIndex, Visibility>();

function visibility(pages: PageIndex, user: string | undefined): Visibility {
  const cached = lastVisibility.get(pages);
  if (cached && cached.user === user) {
    if (cached.version === pages.version) return cached;
    const changed = pages.changedSince(cached.version);
    if (changed && !changed.some((pagePath) => user !== undefined && scopeOf(pagePath) === user)) {
      for (const pagePath of new Set(changed)) {
        const page = pages.atPath(pagePath);
        if (page !== undefined && !isShown(page, cached.ownKeys, user)) cached.hiddenPaths.add(pagePath);
        else cached.hiddenPaths.delete(pagePath);
      }
      cached.hidden = cached.hiddenPaths.size;
      cached.version = pages.version;
      return cached;
    }
  }
  const ownKeys = new Set<string>();
  if (user !== undefined) for (const page of pages.unordered()) if (scopeOf(page.path) === user) ownKeys.add(page.key);
  const hiddenPaths = new Set<string>();
  for (const page of pages.unordered()) if (!isShown(page, ownKeys, user)) hiddenPaths.add(page.path);
  const result = { version: pages.version, user, ownKeys, hiddenPaths, hidden: hiddenPaths.size };
  lastVisibility.set(pages, result);
  return result;
}
