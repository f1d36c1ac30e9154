import type { SearchIndex, SearchResponse } from '../search/index.js';
import { spokePagePath, type Contract } from '../wiki/contract.js';
import { stringField } from '../wiki/page.js';
import { servedBody } from './page-views.js';
import type { ServedPages } from './served-pages.js';
import { servedSearch } from './served-search.js';

/** How many pages the search behind `ask_wiki` considers. */
const ASK_PAGES = 8;

export interface AskedPage {
  key: string;
  path: string;
  title: string | null;
  summary: string | null;
  body: string;
  /** Characters of the body left out so that more than one page fits the budget. */
  bodyCut?: number;
}

export interface AskAnswer {
  question: string;
  found: boolean;
  /** The keys to cite, best first: every page below, by key. */
  citations: string[];
  /** The index's entries (from index.md and its catalog spokes) for the pages below. */
  index: string[];
  pages: AskedPage[];
  lanes: SearchResponse['lanes'];
}

/**
 * `ask_wiki`: what an agent needs to answer a question, in one call. Hybrid search finds
 * the pages, the index hub gives their catalog entries, and the pages come whole in rank
 * order; no one page may take more than half the budget, so the answer is never a single
 * long page when others are relevant too.
 */
export async function askWiki(
  index: SearchIndex,
  served: ServedPages,
  contract: Contract,
  question: string,
  maxChars: number,
): Promise<AskAnswer> {
  const hits = await servedSearch(index, served, question, ASK_PAGES);
  const pages: AskedPage[] = [];
  for (const hit of hits.results) {
    const page = served.get(hit.key);
    if (!page) continue;
    const share = Math.floor(maxChars / 2);
    const body = servedBody(page, served);
    const asked: AskedPage = {
      key: page.key,
      path: page.path,
      title: stringField(page.frontmatter, 'title') ?? null,
      summary: stringField(page.frontmatter, 'summary') ?? null,
      body: body.length > share ? body.slice(0, share) : body,
    };
    if (body.length > share) asked.bodyCut = body.length - share;
    pages.push(asked);
  }
  const keys = pages.map((page) => page.key);
  return {
    question,
    found: pages.length > 0,
    citations: keys,
    index: indexEntries(served, contract, keys),
    pages,
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
