import type { WikiConfig } from '../config/schema.js';
import { isWikiError } from '../errors.js';
import { buildEvidencePack, type EvidencePack, type PackView } from '../retrieval/evidence-pack.js';
import { charsForTokens } from '../util/tokens.js';
import { isSpecialPage } from '../wiki/contract.js';
import type { Page } from '../wiki/page.js';
import { searchAsModel, shownToModel } from './model-search.js';
import type { Session } from './session.js';

/** What retrieval found before the model is called: a pack, or why there is none. */
export type QueryRetrieval = { kind: 'pack'; pack: EvidencePack } | { kind: 'no-hit'; pack: EvidencePack } | { kind: 'search-failed'; reason: string };

/**
 * Retrieval-first: the hybrid search over the question, as the model would see it (no
 * `never` pages, no other user's scratch scope), then the links from the best hits, into
 * an evidence pack within `query.packTokens`. When no lane could answer, the model still
 * runs with its own tools and is told the search failed; an empty list would lie.
 */
export async function retrieveEvidence(session: Session, question: string, settings: WikiConfig['query']): Promise<QueryRetrieval> {
  let hits;
  try {
    hits = await searchAsModel(session.search, session.pages, session.user, session.laneWarnings, question, settings.seeds);
  } catch (error) {
    if (isWikiError(error)) return { kind: 'search-failed', reason: error.message };
    throw error;
  }
  const pack = buildEvidencePack(question, hits.results, sessionView(session), {
    seeds: settings.seeds,
    hops: settings.hops,
    maxPages: settings.maxPages,
    maxChars: charsForTokens(settings.packTokens),
  });
  return pack.found ? { kind: 'pack', pack } : { kind: 'no-hit', pack };
}

/** The wiki as this run's model sees it: the user's scratch page first, catalog pages left out. */
function sessionView(session: Session): PackView {
  const shown = shownToModel(session.pages, session.user);
  const contract = session.ws.schema.contract;
  return {
    page: (key) =>
      session.pages
        .pathsOf(key)
        .map((pagePath) => session.pages.atPath(pagePath))
        .find((page): page is Page => page !== undefined && shown(page) && !isSpecialPage(contract, page.path)),
    body: (page) => page.body,
  };
}
