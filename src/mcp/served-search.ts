import type { SearchIndex, SearchResponse, SearchResult } from '../search/index.js';
import type { Finding } from '../wiki/validate/finding.js';
import { nextPool } from '../operations/inspect/search.js';
import type { ServedPages } from '../wiki/served-pages.js';
import { anyStrong, judgeHits, judgedWindow } from '../search/strength.js';
import { searchWithPhraseFallback } from '../search/phrase-fallback.js';

/** The most hits asked of the index to make up for pages the caller may not see. */
const MAX_POOL = 1000;

/**
 * Search as the caller may see it. The lanes rank every page; hits the caller may not see
 * are dropped afterwards, and enough extra are asked for that `limit` visible ones remain
 * when they exist. Links and backlinks to hidden pages are left out of each hit. A quoted
 * phrase no served page holds falls back to its words (phrasesNotFound).
 */
export async function servedSearch(index: SearchIndex, served: ServedPages, query: string, limit: number, reading: ServedReading): Promise<ServedAnswer> {
  return searchWithPhraseFallback(query, (phrasesAsWords) => servedSearchAs(index, served, query, limit, phrasesAsWords, reading));
}

/**
 * How the caller reads the pages it serves (mcp/live-pages.ts): the hash of the version of
 * each (the version its access is judged on), and optionally each one's text as served.
 */
export interface ServedReading {
  servedVersion: (pagePath: string) => string | undefined;
  readPage?: ((pagePath: string) => string | undefined) | undefined;
}

type ServedAnswer = { query: string; results: Array<Omit<SearchResult, 'contributions'>>; lanes: SearchResponse['lanes']; phrasesNotFound?: string[] };

async function servedSearchAs(
  index: SearchIndex,
  served: ServedPages,
  query: string,
  limit: number,
  phrasesAsWords: boolean,
  { servedVersion, readPage }: ServedReading,
): Promise<ServedAnswer> {
  const names = served.hiddenNames();
  // A pool sized by the share of pages served, grown while hidden hits leave fewer than
  // `limit`: every hit the index returns costs a snippet read, so not one per hidden page.
  const total = served.totalCount();
  const share = total === 0 ? 1 : Math.max(0.05, (total - served.hiddenCount()) / total);
  let pool = Math.min(MAX_POOL, Math.ceil(limit / share) + Math.ceil(limit / 4));
  // Snippets are read from the page as served (servedReader): never from a withheld line.
  // The hits whose version is the one served, judged below: never a newer one the database holds.
  let response = await index.search(query, { limit: pool, phrasesAsWords, readPage, servedVersion });
  let visible = response.results.filter((result) => served.servesPath(result.path));
  while (visible.length < limit && response.results.length === pool && pool < MAX_POOL) {
    pool = nextPool(pool, visible.length, limit);
    response = await index.search(query, { limit: pool, phrasesAsWords, readPage, servedVersion });
    visible = response.results.filter((result) => served.servesPath(result.path));
  }
  // The semantic lane scores every page for any word it knows, and it learned the words of
  // hidden pages too: a word only a hidden page holds would bring unrelated visible pages
  // where an unknown word brings none. So while pages are withheld, an answer needs a
  // served page holding a query word (lexical or token lane), else it is found: false.
  if (served.hiddenCount() > 0 && !visible.some((result) => result.lanes.lexical !== undefined || result.lanes.token !== undefined)) visible = [];
  const results = visible
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
 * search_wiki over MCP: the hits the caller may see, judged as `wiki search` and the
 * model's search_wiki judge them (strong first, weak ones far below the best left out).
 */
export async function servedJudgedSearch(
  index: SearchIndex,
  served: ServedPages,
  query: string,
  limit: number,
  reading: ServedReading,
): Promise<ServedAnswer & { strong: boolean }> {
  const answer = await servedSearch(index, served, query, judgedWindow(limit), reading);
  const results = judgeHits(answer.results, limit);
  return { ...answer, results, strong: results.length > 0 && anyStrong(results) };
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
  // The plain test first: most names are in no text, and a regular expression per name is dear.
  if (!text.includes(name)) return false;
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^A-Za-z0-9_-])${escaped}($|[^A-Za-z0-9_-])`).test(text);
}
