import { claimsOf } from '../../facts/claims.js';
import type { CandidateFact } from '../../facts/grounding.js';
import { isSurfaced, scopeOf } from '../../wiki/access.js';
import type { Page } from '../../wiki/page.js';
import { hashOf } from './grounding-cache.js';

/**
 * The pages a page links to, as evidence for its uncited claims (a saved answer cites pages,
 * not lines): their claim sentences, one array per set of keys; and, for the result cache, a
 * hash of the bodies of those pages. A team page is grounded only through team pages, a
 * scratch page through team pages and its own scope's — never through another user's scratch
 * page or one kept from the model (`usage_mode: never`), which could otherwise silence a
 * finding on a page they do not own.
 */
export function linkedPages(pages: readonly Page[]): { facts: (keys: readonly string[], scope: string | undefined) => readonly CandidateFact[]; hashOf: (keys: readonly string[], scope: string | undefined) => string } {
  const byKey = new Map<string, Page[]>();
  for (const page of pages) byKey.set(page.key, [...(byKey.get(page.key) ?? []), page]);
  const pageFor = (key: string, scope: string | undefined): Page | undefined =>
    (byKey.get(key) ?? []).find((page) => isSurfaced(page) && (scopeOf(page.path) === undefined || scopeOf(page.path) === scope));
  const sentencesOf = new Map<Page, CandidateFact[]>();
  const ofPage = (page: Page): CandidateFact[] => {
    let facts = sentencesOf.get(page);
    if (!facts) sentencesOf.set(page, (facts = claimsOf(page.body).map((claim) => ({ id: `${page.path}#${claim.line}`, text: claim.text }))));
    return facts;
  };
  const sets = new Map<string, CandidateFact[]>();
  return {
    facts: (keys, scope) => {
      const wanted = [...new Set(keys)].sort();
      const id = `${scope ?? ''}\n${wanted.join('\n')}`;
      let facts = sets.get(id);
      if (!facts) sets.set(id, (facts = wanted.flatMap((key) => { const page = pageFor(key, scope); return page ? ofPage(page) : []; })));
      return facts;
    },
    hashOf: (keys, scope) => hashOf(keys.flatMap((key) => [key, pageFor(key, scope)?.body ?? ''])),
  };
}

