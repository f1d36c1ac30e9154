import { UsageError } from '../../errors.js';
import { splitFrontmatter } from '../../wiki/frontmatter-split.js';
import { documentText, pageDocument, readableBody } from '../text/document.js';
import { hitStrength, pageTerms, queryIdentifiers, strengthTermsByLanguage, withIdentifierWeights } from '../strength.js';
import { candidatesFor, hasConstraints, parseQuery, QueryFilter } from '../text/query-syntax.js';
import type { SearchEngine, SearchParams } from '../engine.js';
import type { LexicalScorer } from '../lanes/lexical/lexical.js';
import type { VectorRanker } from '../lanes/semantic/vector-ranker.js';
import { makeSnippet } from '../text/snippet.js';
import type { SearchOptions, SearchResponse, SearchResult } from '../types.js';

export const MAX_LIMIT = 1000;

/** The query trimmed, or a UsageError for an empty one or a limit out of range. */
export function checkedQuery(query: string, options: SearchOptions): string {
  const text = query.trim();
  if (!text) throw new UsageError('the search query is empty', 'give one or more words to search for');
  const limit = options.limit ?? 10;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    throw new UsageError(`limit must be a whole number from 1 to ${MAX_LIMIT} (got ${limit})`);
  }
  return text;
}

/**
 * A search's answer from an engine already up to date: the query's syntax applied, the
 * hits ranked and shown as `SearchResult`s, each page's text read through `textOf` (for the
 * phrase and exclusion filter, the snippet and the strength). `admits` leaves out hits a
 * store may not serve to this caller (the database's, see store/postgres/pg-index.ts);
 * `lexical` scores the lexical lane in its stead (the database's full-text index), `vectors`
 * ranks the semantic lane's vectors in its stead (the database's pgvector column).
 */
export async function answerQuery(
  engine: SearchEngine,
  params: SearchParams,
  text: string,
  options: SearchOptions,
  textOf: (pagePath: string) => string | undefined,
  admits?: (pagePath: string) => boolean,
  lexical?: LexicalScorer,
  vectors?: VectorRanker,
): Promise<SearchResponse> {
  const limit = options.limit ?? 10;
  const asWritten = options.syntax === false ? { text, phrases: [], excluded: [] } : parseQuery(text);
  const parsed = options.phrasesAsWords ? { ...asWritten, phrases: [] } : asWritten;
  if (!parsed.text) throw new UsageError('the query only excludes', 'add a word or "phrase" to search for, e.g. wiki search attention -transformer');
  const filter = hasConstraints(parsed) ? new QueryFilter(parsed) : undefined;
  let found = await engine.search(parsed.text, filter ? candidatesFor(limit) : limit, params, lexical, vectors);
  // A store's refusals are rare (a page changed elsewhere since this replica read it): more
  // candidates are ranked only when it refused one of the first.
  if (admits && !filter && found.pages.some(({ record }) => !admits(record.path))) found = await engine.search(parsed.text, candidatesFor(limit), params, lexical, vectors);
  found.pages = found.pages
    .filter(({ score, record }) => score >= (options.minScore ?? -Infinity) && (!admits || admits(record.path)) && (!filter || filter.accepts(searchableText(record.path, textOf(record.path)), record.lang)))
    .slice(0, limit);
  const backlinks = engine.docs.backlinksOf(found.pages.map(({ record }) => record.key));
  const best = found.pages[0]?.score ?? 0;
  const weights = engine.lexical.termWeights(found.terms, engine.docs.liveCount);
  const weightOf = withIdentifierWeights((term) => weights.get(term) ?? 0);
  const judgedIn = strengthTermsByLanguage(parsed.text);
  const codeNames = queryIdentifiers(parsed.text);
  const results: SearchResult[] = found.pages.map(({ record, score, lanes, contributions }) => {
    const result: SearchResult = {
      key: record.key,
      path: record.path,
      title: record.title,
      summary: record.summary,
      score,
      lanes,
      contributions,
      snippet: record.summary,
      links: record.links,
      backlinks: backlinks.get(record.key) ?? [],
    };
    if (options.snippets === false) return result;
    const content = textOf(record.path);
    const body = content === undefined ? '' : readableBody(splitFrontmatter(content).body);
    result.snippet = (body && makeSnippet(body, found.terms, undefined, record.lang)) || record.summary;
    // Tags are left out of what a page is named: they are broad (`go`, `person`) and shared by many pages.
    const head = `${record.title}\n${record.key.replace(/-/g, ' ')}`;
    result.strength = hitStrength(judgedIn(record.lang), pageTerms(head, record.summary, [...record.tags, body].join('\n'), record.lang), weightOf, codeNames);
    result.relative = best > 0 ? score / best : 0;
    return result;
  });
  return { query: text, results, lanes: found.lanes, weights: engine.effectiveWeights(params), semanticWeightFactor: engine.semanticWeightFactor(params) };
}

/** What a query's phrases and exclusions are matched against: the page as the index reads it. */
function searchableText(pagePath: string, content: string | undefined): string {
  return content === undefined ? '' : documentText(pageDocument(pagePath, content));
}
