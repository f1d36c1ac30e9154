import type { EffectiveConfig } from '../config/load.js';
import { ConfigError, UsageError } from '../errors.js';
import { openSearchIndex, type SearchIndex, type SearchResponse } from '../search/index.js';
import { LANES, type LaneName, type LaneStatus } from '../search/types.js';
import { parseSimpleFrontmatter } from '../search/simple-frontmatter.js';
import { splitFrontmatter } from '../wiki/frontmatter-split.js';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { isSurfaced, scopeOf, USER_SCOPE_ROOT } from '../wiki/access.js';
import { keyFromPath } from '../wiki/keys.js';
import type { Schema } from '../wiki/contract.js';

export interface SearchRequest {
  query: string;
  limit?: number;
  /** Keep each lane's share of the score in the results. */
  explain?: boolean;
  env?: NodeJS.ProcessEnv;
  /** Whose scratch scope (wiki/user/<name>/) is searched besides the team's pages. */
  user?: string | undefined;
}

/** `wiki search`'s answer: the hits, whether any matched, and the lanes that were dropped. */
export interface SearchAnswer extends SearchResponse {
  found: boolean;
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
    const response = await surfacedSearch(root, schema, index, query, limit, request.user);
    requireAnsweringLane(response.lanes);
    const info = index.info();
    const answer = { ...response, found: response.results.length > 0, warnings: laneWarnings(response.lanes, info.embedder), hardLinked: info.hardLinked };
    if (request.explain) return answer;
    return { ...answer, results: answer.results.map(({ contributions: _dropped, ...rest }) => rest) };
  } finally {
    await index.close();
  }
}

/**
 * The index's hits less those never surfaced to `user`; asks again for more while hits
 * were dropped and the index may hold more, so `limit` surfaced hits come back when they exist.
 */
export async function surfacedSearch(
  root: string,
  schema: Schema,
  index: SearchIndex,
  query: string,
  limit: number,
  user: string | undefined,
): Promise<SearchResponse> {
  // The user's own scratch pages shadow the team's pages with the same key.
  const ownKeys = user === undefined ? new Set<string>() : await scratchKeys(root, user);
  let pool = limit;
  for (;;) {
    const response = await index.search(query, { limit: pool });
    const shown: SearchResponse['results'] = [];
    for (const result of response.results) {
      const shadowed = scopeOf(result.path) === undefined && ownKeys.has(result.key);
      if (!shadowed && (await isSurfacedTo(root, schema, result.path, user))) shown.push(result);
      if (shown.length === limit) break;
    }
    const exhausted = response.results.length < pool || pool >= MAX_POOL;
    if (shown.length === limit || exhausted) return { ...response, results: shown };
    pool = Math.min(MAX_POOL, pool * 4);
  }
}

/**
 * Whether `user` may be shown the page. Its frontmatter is read the fast way `wiki search`
 * reads pages (no YAML library), and with the YAML parser only when that cannot.
 */
async function isSurfacedTo(root: string, schema: Schema, pagePath: string, user: string | undefined): Promise<boolean> {
  const scope = scopeOf(pagePath);
  if (scope !== undefined && scope !== user) return false;
  const text = await readFile(path.join(root, pagePath), 'utf8').catch(() => undefined);
  if (text === undefined) return false;
  const { yaml } = splitFrontmatter(text);
  if (yaml === undefined) return true;
  const simple = parseSimpleFrontmatter(yaml);
  if (simple !== undefined) return isSurfaced({ frontmatter: simple });
  const { parsePage } = await import('../wiki/page.js');
  return isSurfaced(parsePage(pagePath, text, schema.contract));
}

/** Keys of the pages in `user`'s scratch folder (none when it does not exist). */
async function scratchKeys(root: string, user: string): Promise<Set<string>> {
  const folder = path.join(root, USER_SCOPE_ROOT, user);
  const entries = await readdir(folder, { recursive: true }).catch(() => [] as string[]);
  return new Set(entries.filter((entry) => entry.endsWith('.md')).map((entry) => keyFromPath(entry.split(path.sep).join('/'))));
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
      ...(endpoint ? { endpoint } : {}),
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
  throw new ConfigError(`search failed: no lane could answer (${states})`, 'check the embeddings endpoint and the search settings (wiki config), or rebuild the index by deleting .wiki/search');
}
