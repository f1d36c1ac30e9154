import type { WikiConfig } from '../../config/schema.js';
import { isWikiError } from '../../errors.js';
import { buildEvidencePack, type EvidencePack, type PackView } from '../../retrieval/evidence-pack.js';
import { subjectSeeds } from '../../retrieval/subjects.js';
import { charsForTokens } from '../../util/tokens.js';
import { isSpecialPage } from '../../wiki/contract.js';
import type { Page } from '../../wiki/page.js';
import { searchAsModel, shownToModel } from '../run/model-search.js';
import type { Session } from '../run/session.js';

/** What retrieval found before the model is called: a pack, or why there is none. */
export type QueryRetrieval = { kind: 'pack'; pack: EvidencePack } | { kind: 'no-hit'; pack: EvidencePack } | { kind: 'search-failed'; reason: string };

/**
 * Retrieval-first: the hybrid search over the question, as the model would see it (no
 * `never` pages, no other user's scratch scope), and over each part of it those hits leave
 * out (a second subject), then the links from the best hits, into
 * an evidence pack within `query.packTokens`. When no lane could answer, the model still
 * runs with its own tools and is told the search failed; an empty list would lie.
 */
export async function retrieveEvidence(session: Session, question: string, settings: WikiConfig['query']): Promise<QueryRetrieval> {
  const view = sessionView(session);
  const searchFor = async (query: string, limit: number) =>
    (await searchAsModel(session.search, session.pages, session.user, session.laneWarnings, query, limit)).results;
  let seeds;
  try {
    // Every subject the question names gets its best pages (retrieval/subjects.ts).
    seeds = await subjectSeeds(question, await searchFor(question, settings.seeds), view, settings.seeds, searchFor);
  } catch (error) {
    if (isWikiError(error)) return { kind: 'search-failed', reason: error.message };
    throw error;
  }
  const pack = buildEvidencePack(question, seeds, view, {
    seeds: seeds.length,
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
