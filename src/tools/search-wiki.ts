import { z } from 'zod';
import type { ToolContext } from './context.js';
import { defineTool, failure, success } from './define.js';
import { formatSearchHits } from './search-hits.js';
import type { Tool } from '../agent/tool.js';

export const DEFAULT_SEARCH_LIMIT = 5;
export const MAX_SEARCH_LIMIT = 50;
/** Longest query searched, in characters (a question or a few names fit many times over). */
export const DEFAULT_SEARCH_QUERY_CHARS = 2000;

const args = z.strictObject({
  query: z.string().describe('Words to look for: a concept, name or question'),
  limit: z.number().int().min(1).optional().describe(`How many pages to return; default ${DEFAULT_SEARCH_LIMIT}, at most ${MAX_SEARCH_LIMIT}`),
});

export function createSearchWikiTool(ctx: ToolContext): Tool {
  return defineTool({
    name: 'search_wiki',
    description:
      'Search the wiki\'s pages (lexical, semantic and term matching combined). Returns the best pages, best first: ' +
      'where the page is (concepts/attention = wiki/concepts/attention.md; link it as [[attention]]), whether it is strongly ' +
      'or only weakly about the query (with its score as a share of the best), title, summary, a passage around the query\'s ' +
      'words and links; weak pages far below the best are left out, and the answer says when no page is strongly about the ' +
      'query. Search before creating a page, to update an existing one instead of duplicating it.',
    args,
    mutates: false,
    async run({ query, limit }) {
      if (query.trim() === '') return failure('query is empty; give some words to search for');
      const maxChars = ctx.searchQueryChars ?? DEFAULT_SEARCH_QUERY_CHARS;
      // Refused before any work: a huge query costs the search in proportion to its words.
      if (query.length > maxChars) {
        return failure(`query is ${query.length} characters, over the ${maxChars} allowed (limits.searchQueryChars in wiki.config.json); search for a few words or a short question`);
      }
      const hits = await ctx.search.search(query.trim(), Math.min(limit ?? DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LIMIT));
      return success(formatSearchHits(query.trim(), hits.results, hits.phrasesNotFound));
    },
  });
}
