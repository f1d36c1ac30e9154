import type { EffectiveConfig } from '../config/load.js';
import { UsageError } from '../errors.js';
import { openSearchIndex, type SearchIndex, type SearchResponse } from '../search/index.js';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { isSurfaced, scopeOf, USER_SCOPE_ROOT } from '../wiki/access.js';
import { keyFromPath } from '../wiki/keys.js';
import { listPagePaths } from '../wiki/pages.js';
import type { Schema } from '../wiki/contract.js';
import { parsePage } from '../wiki/page.js';
import { laneWarnings, requireAnsweringLane, type LaneWarning } from './search-answer.js';

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
    const answer = { ...response, found: response.results.length > 0, warnings: laneWarnings(response.lanes, index.info().embedder) };
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
  const ownKeys = user === undefined ? new Set<string>() : new Set((await listPagePaths(root, `${USER_SCOPE_ROOT}${user}`)).map(keyFromPath));
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

async function isSurfacedTo(root: string, schema: Schema, pagePath: string, user: string | undefined): Promise<boolean> {
  const scope = scopeOf(pagePath);
  if (scope !== undefined && scope !== user) return false;
  const text = await readFile(path.join(root, pagePath), 'utf8').catch(() => undefined);
  return text !== undefined && isSurfaced(parsePage(pagePath, text, schema.contract));
}
