import type { WikiConfig } from '../config/schema.js';
import { buildEvidencePack, type EvidenceEdge, type EvidencePage, type PackView } from '../retrieval/evidence-pack.js';
import { subjectSeeds } from '../retrieval/subjects.js';
import type { SearchIndex, SearchResponse } from '../search/index.js';
import { isSpecialPage, spokePagePath, type Contract } from '../wiki/contract.js';
import { servedBody, type ServedPages } from '../wiki/served-pages.js';
import { servedSearch, type ServedReading } from './served-search.js';

/** Share of the answer budget the evidence pack may fill: JSON quoting and the index entries take the rest. */
const PACK_SHARE = 0.75;

export interface AskAnswer {
  question: string;
  found: boolean;
  /** The keys to cite, in pack order: every page below, by key. */
  citations: string[];
  /** The index's entries (from index.md and its catalog spokes) for the pages below. */
  index: string[];
  /** The evidence pack's pages: the best matches (depth 0), then the pages their links lead to, each with its best passages. */
  pages: EvidencePage[];
  /** The links followed between those pages, as lines: `attention --refs--> transformer`. */
  chain: string[];
  edges: EvidenceEdge[];
  lanes: SearchResponse['lanes'];
}

/**
 * `ask_wiki`: what an agent needs to answer a question, in one call: the same evidence pack
 * `wiki query` gives its model (the best hybrid-search hits, the pages their refs and
 * [[links]] lead to, each page's passages best matching the question, and the chain of
 * links followed), over the pages the caller may see, plus their index entries.
 */
export async function askWiki(
  index: SearchIndex,
  served: ServedPages,
  contract: Contract,
  question: string,
  maxChars: number,
  settings: WikiConfig['query'],
  reading: ServedReading,
): Promise<AskAnswer> {
  const hits = await servedSearch(index, served, question, settings.seeds, reading);
  const view: PackView = {
    page: (key) => {
      const page = served.get(key);
      return page && !isSpecialPage(contract, page.path) ? page : undefined;
    },
    body: (page) => servedBody(page, served),
  };
  // Every subject the question names gets its best pages, as in `wiki query`.
  const seeds = await subjectSeeds(question, hits.results, view, settings.seeds, async (query, limit) => (await servedSearch(index, served, query, limit, reading)).results);
  const pack = buildEvidencePack(question, seeds, view, {
    seeds: seeds.length,
    hops: settings.hops,
    maxPages: settings.maxPages,
    maxChars: Math.floor(maxChars * PACK_SHARE),
  });
  const keys = pack.pages.map((page) => page.key);
  return {
    question,
    found: pack.found,
    citations: keys,
    index: indexEntries(served, contract, keys),
    pages: pack.pages,
    chain: pack.chain,
    edges: pack.edges,
    lanes: hits.lanes,
  };
}

/** Lines of the index and its spokes that link to one of `keys`, in the order of `keys`. */
function indexEntries(served: ServedPages, contract: Contract, keys: readonly string[]): string[] {
  const hubs = [contract.index, ...Object.keys(contract.types).map((type) => spokePagePath(contract, type))];
  const lines = hubs
    .filter((hubPath) => served.servesPath(hubPath))
    .flatMap((hubPath) => {
      const hub = served.pages().find((page) => page.path === hubPath);
      return hub ? servedBody(hub, served).split('\n') : [];
    });
  const entries: string[] = [];
  for (const key of keys) {
    const line = lines.find((candidate) => candidate.includes(`[[${key}]]`) || candidate.includes(`[[${key}|`));
    if (line !== undefined) entries.push(line.trim());
  }
  return entries;
}
