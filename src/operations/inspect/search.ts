import type { EffectiveConfig } from '../../config/load.js';
import { ConfigError, UsageError } from '../../errors.js';
import type { SearchIndex, SearchResponse, SearchResult } from '../../search/index.js';
import { openSearchIndex } from '../../store/open-index.js';
import { LANES, type LaneName, type LaneStatus } from '../../search/types.js';
import { readingEachOnce } from '../../search/live/read-page.js';
import { searchWithPhraseFallback } from '../../search/phrase-fallback.js';
import { anyStrong, judgeHits, judgedWindow } from '../../search/strength.js';
import { readPage } from '../../wiki/page-read.js';
import { parseSimpleFrontmatter } from '../../search/text/simple-frontmatter.js';
import { splitFrontmatter } from '../../wiki/frontmatter-split.js';
import { inScopeOf, isSeenBy, scopeOf, USER_SCOPE_ROOT } from '../../wiki/access.js';
import { keyFromPath } from '../../wiki/keys.js';
import { listPageFiles } from '../../wiki/page-files.js';
import type { Schema } from '../../wiki/contract.js';

export interface SearchRequest {
  query: string;
  limit?: number;
  /** Keep each lane's share of the score in the results. */
  explain?: boolean;
  /** Leave out results whose fused score is below this. */
  minScore?: number;
  /** Add each result page's whole text (`--full`). */
  withContent?: boolean;
  env?: NodeJS.ProcessEnv;
  /** Whose scratch scope (wiki/user/<name>/) is searched besides the team's pages. */
  user?: string | undefined;
}

/** `wiki search`'s answer: the hits, whether any matched, and the lanes that were dropped. */
export interface SearchAnswer extends Omit<SearchResponse, 'results'> {
  /** The hits; each carries its page's whole text when asked (`--full`). */
  results: Array<SearchResult & { content?: string }>;
  found: boolean;
  /** Whether some hit is strongly about the query (see search/strength.ts). */
  strong: boolean;
  warnings: LaneWarning[];
  /** Pages left out of the search because each is a hard link (see hardLinkedPagesNotice). */
  hardLinked: string[];
}

/** The most hits asked of the index to make up for `never` pages and other users' scopes. */
const MAX_POOL = 1000;

/**
 * `wiki search`: bring the index up to date, search, persist. Pages never surfaced
 * (`usage_mode: never`, another user's scratch scope) are dropped from the hits here,
 * after ranking, reading only the hits' own files.
 */
export async function searchWorkspace(
  root: string,
  schema: Schema,
  config: EffectiveConfig,
  request: SearchRequest,
): Promise<SearchAnswer> {
  const query = request.query.trim();
  if (!query) throw new UsageError('the search query is empty', 'e.g. wiki search "attention heads"');
  const limit = request.limit ?? 10;
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
    throw new UsageError(`--limit must be a whole number from 1 to 1000 (got ${request.limit})`);
  }
  const index = await openSearchIndex(root, schema, config.config, { env: request.env ?? process.env });
  try {
    const response = await surfacedSearch(root, schema, index, query, { limit: judgedWindow(limit), minScore: request.minScore }, request.user);
    requireAnsweringLane(response.lanes);
    const info = index.info();
    // Strong hits first; weak hits far below the best are left out: the list ends where the wiki stops being about the query.
    const explained = judgeHits(response.results, limit).map(({ contributions, ...rest }) => (request.explain ? { ...rest, contributions } : rest));
    // --full reads through the search's own page reader: never through a link, never a hard link.
    const results = request.withContent ? explained.map((result) => ({ ...result, content: readPage(root, result.path) ?? '' })) : explained;
    return { ...response, results, found: results.length > 0, strong: anyStrong(results) && results.length > 0, warnings: laneWarnings(response.lanes, info.embedder), hardLinked: info.hardLinked };
  } finally {
    await index.close();
  }
}

/**
 * The index's hits less those never surfaced to `user`; asks again for more while hits
 * were dropped and the index may hold more, so `limit` surfaced hits come back when they
 * exist. A quoted phrase no surfaced page holds falls back to its words (phrasesNotFound).
 */
export async function surfacedSearch(
  root: string,
  schema: Schema,
  index: SearchIndex,
  query: string,
  options: { limit: number; minScore?: number | undefined },
  user: string | undefined,
): Promise<SearchResponse> {
  return searchWithPhraseFallback(query, (phrasesAsWords) => surfacedSearchAs(root, schema, index, query, { ...options, phrasesAsWords }, user));
}

async function surfacedSearchAs(
  root: string,
  schema: Schema,
  index: SearchIndex,
  query: string,
  { limit, minScore, phrasesAsWords }: { limit: number; minScore?: number | undefined; phrasesAsWords: boolean },
  user: string | undefined,
): Promise<SearchResponse> {
  // The user's own scratch pages shadow the team's pages with the same key.
  const ownKeys = user === undefined ? new Set<string>() : scratchKeys(root, user);
  // The index reads the hits for their snippets and this check reads them for who may see them: once, shared.
  const pageText = readingEachOnce((pagePath) => readPage(root, pagePath));
  const surfaced = new Map<string, Promise<boolean>>();
  const isShown = (pagePath: string): Promise<boolean> => {
    if (scopeOf(pagePath) === undefined && ownKeys.has(keyFromPath(pagePath))) return Promise.resolve(false);
    let known = surfaced.get(pagePath);
    if (!known) surfaced.set(pagePath, (known = isSurfacedTo(schema, pagePath, pageText, user)));
    return known;
  };
  // The holders of the hits' links and backlinks (some 80 pages for 10 hits) are not read
  // where the index knows, for a file unchanged since, which are never surfaced.
  const isHolderShown = (pagePath: string): Promise<boolean> => {
    const scope = scopeOf(pagePath);
    const indexed = index.surfacedAsIndexed(pagePath);
    if (indexed === undefined || (scope === undefined && ownKeys.has(keyFromPath(pagePath)))) return isShown(pagePath);
    return Promise.resolve(indexed && (scope === undefined || scope === user));
  };
  // A small margin first, so a hidden hit or two costs no second search.
  let pool = Math.min(MAX_POOL, limit + Math.ceil(limit / 4));
  for (;;) {
    const response = await index.search(query, { limit: pool, minScore, readPage: pageText, phrasesAsWords });
    const shown: SearchResponse['results'] = [];
    for (const result of response.results) {
      if (await isShown(result.path)) shown.push(result);
      if (shown.length === limit) break;
    }
    const exhausted = response.results.length < pool || pool >= MAX_POOL;
    if (shown.length === limit || exhausted) return { ...response, results: await withoutHiddenKeys(index, shown, isHolderShown) };
    pool = nextPool(pool, shown.length, limit);
  }
}

/** The next pool to ask for: as many more as the share of hits shown so far says, and at least `limit` more. */
export function nextPool(pool: number, shown: number, limit: number): number {
  const needed = Math.ceil((pool * limit) / Math.max(1, shown)) + Math.ceil(limit / 4);
  return Math.min(MAX_POOL, Math.max(pool + limit, needed));
}

/**
 * Nor is a page never surfaced named in a hit's links or backlinks: a key stays when some
 * page with it is shown, or when no page has it (a missing link names no page).
 */
async function withoutHiddenKeys(
  index: SearchIndex,
  results: SearchResponse['results'],
  isShown: (pagePath: string) => Promise<boolean>,
): Promise<SearchResponse['results']> {
  const keys = [...new Set(results.flatMap((result) => [...result.links, ...result.backlinks]))];
  const paths = index.pathsOf(keys);
  const named = new Set<string>();
  await Promise.all(
    keys.map(async (key) => {
      const holders = paths.get(key) ?? [];
      const shown = await Promise.all(holders.map(isShown));
      if (holders.length === 0 || shown.includes(true)) named.add(key);
    }),
  );
  return results.map((result) => ({
    ...result,
    links: result.links.filter((key) => named.has(key)),
    backlinks: result.backlinks.filter((key) => named.has(key)),
  }));
}

/**
 * Whether `user` may be shown the page. Its frontmatter is read the fast way `wiki search`
 * reads pages (no YAML library), and with the YAML parser only when that cannot.
 */
async function isSurfacedTo(
  schema: Schema,
  pagePath: string,
  pageText: (pagePath: string) => string | undefined,
  user: string | undefined,
): Promise<boolean> {
  if (!inScopeOf(pagePath, user)) return false;
  const text = pageText(pagePath);
  if (text === undefined) return false;
  const { yaml } = splitFrontmatter(text);
  if (yaml === undefined && !text.trimStart().startsWith('---')) return true;
  const simple = yaml === undefined ? undefined : parseSimpleFrontmatter(yaml);
  if (simple !== undefined) return isSeenBy({ path: pagePath, frontmatter: simple }, user);
  const { parsePage } = await import('../../wiki/page.js');
  return isSeenBy(parsePage(pagePath, text, schema.contract), user);
}

/** Keys of the pages in `user`'s scratch folder (none when it does not exist). */
function scratchKeys(root: string, user: string): Set<string> {
  return new Set(listPageFiles(root, `${USER_SCOPE_ROOT}${user}`).map((file) => keyFromPath(file.path)));
}

/**
 * What a search answer says besides its hits, the same for `wiki search`, `wiki query` and
 * every MCP tool: whether anything matched (never a silent empty list) and which lane was
 * dropped, naming its endpoint, while the others answered.
 */
export interface LaneWarning {
  lane: LaneName;
  /** The lane's status: `failed: <reason>`. */
  status: string;
  /** Where the lane's answers come from (the embedder's model and endpoint), when known. */
  endpoint?: string;
  message: string;
}

/** One warning per failed lane; a lane skipped on purpose (weight 0, no embedder) is not one. */
export function laneWarnings(lanes: Record<LaneName, LaneStatus>, embedder?: string): LaneWarning[] {
  return LANES.filter((lane) => lanes[lane].startsWith('failed')).map((lane) => {
    const endpoint = lane === 'semantic' ? embedder : undefined;
    const reason = lanes[lane].replace(/^failed: /, '');
    const where = endpoint ? ` (${endpoint})` : '';
    return {
      lane,
      status: lanes[lane],
      endpoint: endpoint || undefined,
      message: `the ${lane} lane${where} failed and was left out: ${reason}`,
    };
  });
}

/**
 * Throws when no lane could answer: an empty list would then say "nothing matches" when
 * the truth is "nothing could look". The error names each lane's state.
 */
export function requireAnsweringLane(lanes: Record<LaneName, LaneStatus>): void {
  if (LANES.some((lane) => lanes[lane] === 'ok')) return;
  const states = LANES.map((lane) => `${lane} ${lanes[lane]}`).join('; ');
  // Not configured (every lane off by the settings) is told apart from configured but failing.
  if (!LANES.some((lane) => lanes[lane].startsWith('failed'))) {
    // What to set up is the message itself: a model told of it through a tool error sees no hint.
    throw new ConfigError(
      `search is not set up: every lane is off (${states}); give a lane a weight (wiki config set search.weights.lexical 1) or configure an embedder (search.embedder)`,
    );
  }
  throw new ConfigError(`search failed: no lane could answer (${states})`, 'check the embeddings endpoint and the search settings (wiki config), or rebuild the index by deleting .wiki/search');
}
