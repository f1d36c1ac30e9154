import type { EffectiveConfig } from '../config/load.js';
import { UsageError } from '../errors.js';
import { openSearchIndex, type SearchResponse } from '../search/index.js';
import type { Schema } from '../wiki/contract.js';

export interface SearchRequest {
  query: string;
  limit?: number;
  /** Keep each lane's share of the score in the results. */
  explain?: boolean;
  env?: NodeJS.ProcessEnv;
}

/** `wiki search`: bring the index up to date, search, persist. */
export async function searchWorkspace(
  root: string,
  schema: Schema,
  config: EffectiveConfig,
  request: SearchRequest,
): Promise<SearchResponse> {
  const query = request.query.trim();
  if (!query) throw new UsageError('the search query is empty', 'e.g. wiki search "attention heads"');
  const limit = request.limit ?? 10;
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
    throw new UsageError(`--limit must be a whole number from 1 to 1000 (got ${request.limit})`);
  }
  const index = await openSearchIndex(root, schema, config.config, { env: request.env ?? process.env });
  try {
    const response = await index.search(query, { limit });
    if (request.explain) return response;
    return { ...response, results: response.results.map(({ contributions: _dropped, ...rest }) => rest) };
  } finally {
    await index.close();
  }
}
