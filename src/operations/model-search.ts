import type { SearchIndex, SearchResponse } from '../search/index.js';
import { isSurfaced, scopeOf } from '../wiki/access.js';
import type { Page } from '../wiki/page.js';
import type { PageIndex } from '../wiki/page-index.js';
import { laneWarnings, requireAnsweringLane, type LaneWarning } from './search.js';

/**
 * Whether the model, working for `user`, is shown a page: not a `usage_mode: never` page,
 * nor another user's scratch page, nor a team page the user's own scratch page shadows.
 */
export function shownToModel(pages: PageIndex, user: string | undefined): (page: Page) => boolean {
  const ownKeys = new Set(pages.pages().filter((page) => user !== undefined && scopeOf(page.path) === user).map((page) => page.key));
  return (page) => {
    if (!isSurfaced(page)) return false;
    const scope = scopeOf(page.path);
    return scope === undefined ? !ownKeys.has(page.key) : scope === user;
  };
}

/**
 * search_wiki for the model: the index's hits less the pages never surfaced to `user`
 * (usage_mode never, another user's scratch scope, a team page the user's own scratch page
 * shadows), judged by the pages as this run sees them. Lanes dropped are noted in
 * `warnings`; when no lane could answer it throws, so the model is told search failed
 * instead of being handed an empty list.
 */
export async function searchAsModel(
  search: SearchIndex,
  pages: PageIndex,
  user: string | undefined,
  warnings: Map<string, LaneWarning>,
  query: string,
  limit: number,
): Promise<SearchResponse> {
  const all = pages.pages();
  const shown = shownToModel(pages, user);
  const hidden = all.filter((page) => !shown(page)).length;
  const response = await search.search(query, { limit: limit + hidden });
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
