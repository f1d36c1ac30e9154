import type { SearchIndex, SearchResponse, SearchResult } from '../search/index.js';
import type { Finding } from '../wiki/validate/finding.js';
import type { ServedPages } from './served-pages.js';

/** The most hits asked of the index to make up for pages the caller may not see. */
const MAX_POOL = 1000;

/**
 * Search as the caller may see it. The lanes rank every page; hits the caller may not see
 * are dropped afterwards, and enough extra are asked for that `limit` visible ones remain
 * when they exist. Links and backlinks to hidden pages are left out of each hit.
 */
export async function servedSearch(
  index: SearchIndex,
  served: ServedPages,
  query: string,
  limit: number,
): Promise<{ query: string; results: Array<Omit<SearchResult, 'contributions'>>; lanes: SearchResponse['lanes'] }> {
  const hidden = served.hiddenCount();
  const names = served.hiddenNames();
  const response = await index.search(query, { limit: Math.min(MAX_POOL, limit + hidden) });
  const results = response.results
    .filter((result) => served.servesPath(result.path))
    .slice(0, limit)
    .map(({ contributions: _shares, ...result }) => ({
      ...result,
      // A passage that names a hidden page (a line linking to it) gives way to the summary.
      snippet: names.some((name) => mentions(result.snippet, name)) ? result.summary : result.snippet,
      links: result.links.filter((key) => served.has(key) || !served.exists(key)),
      backlinks: result.backlinks.filter((key) => served.has(key)),
    }));
  return { query: response.query, results, lanes: response.lanes };
}

/**
 * Lint findings the caller may see: none about a page it may not see, and none whose
 * message or fix names one (a near-duplicate pair, a duplicate key), by path, key or title.
 */
export function servedFindings(findings: readonly Finding[], served: ServedPages): Finding[] {
  const hidden = served.hiddenNames();
  return findings.filter((finding) => {
    // Fail closed: a finding about any page under wiki/ that is not served is dropped.
    if (finding.path.startsWith('wiki/') && !served.servesPath(finding.path)) return false;
    const text = `${finding.message} ${finding.fix ?? ''}`;
    return !hidden.some((name) => mentions(text, name));
  });
}

function mentions(text: string, name: string): boolean {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^A-Za-z0-9_-])${escaped}($|[^A-Za-z0-9_-])`).test(text);
}
