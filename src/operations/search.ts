import type { EffectiveConfig } from '../config/load.js';
import { UsageError } from '../errors.js';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { openSearchIndex, type SearchResponse, type SearchResult } from '../search/index.js';
import type { Schema } from '../wiki/contract.js';

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
}

/** A search response whose results may carry their page's whole text. */
export type SearchWorkspaceResponse = Omit<SearchResponse, 'results'> & { results: Array<SearchResult & { content?: string }> };

/** `wiki search`: bring the index up to date, search, persist. */
export async function searchWorkspace(
  root: string,
  schema: Schema,
  config: EffectiveConfig,
  request: SearchRequest,
): Promise<SearchWorkspaceResponse> {
  const query = request.query.trim();
  if (!query) throw new UsageError('the search query is empty', 'e.g. wiki search "attention heads"');
  const limit = request.limit ?? 10;
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
    throw new UsageError(`--limit must be a whole number from 1 to 1000 (got ${request.limit})`);
  }
  const index = await openSearchIndex(root, schema, config.config, { env: request.env ?? process.env });
  try {
    const response = await index.search(query, { limit, minScore: request.minScore });
    const results = response.results.map(({ contributions, ...rest }) => (request.explain ? { ...rest, contributions } : rest));
    if (!request.withContent) return { ...response, results };
    const withContent = await Promise.all(
      results.map(async (result) => ({ ...result, content: await readFile(path.join(root, result.path), 'utf8').catch(() => '') })),
    );
    return { ...response, results: withContent };
  } finally {
    await index.close();
  }
}
