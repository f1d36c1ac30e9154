import { analyze } from './text/analyze.js';
import type { HitStrength, SearchResult } from './types.js';

/**
 * How strongly a hit is about the query, for a reader (a model or a person) deciding
 * whether the wiki already has a page on it. Fused scores are relative and, on a small
 * wiki, close together whatever the query; what a reader can trust is whether the page
 * holds the query's words and names them where it says what it is.
 *
 * A hit is strong when the page holds the query's terms (all of up to two, three in four
 * of more) and what it is named (title, key) is about the query: it names at least half
 * of the query's terms, or the query names at least two terms and half of the page's name
 * (a model's long keyword query, "Go workspace module version selection go.work MVS
 * replace", names `minimal-version-selection` and `go-workspace` without being half of
 * either). Every other hit is weak (a page that mentions the words in passing, one whose
 * name shares a single word with the query, or one only the semantic lane found).
 */
export interface PageTerms {
  /** Every term of the page (title, key, summary, tags and body). */
  all: ReadonlySet<string>;
  /** The terms of what the page is named: title and key. */
  head: ReadonlySet<string>;
}

/** Below this share of the best hit's score, a weak hit is dropped (see keepJudged). */
export const WEAK_FLOOR = 0.6;

export function hitStrength(queryTerms: readonly string[], page: PageTerms): HitStrength {
  const wanted = [...new Set(queryTerms)];
  if (wanted.length === 0) return 'weak';
  const held = wanted.filter((term) => page.all.has(term)).length;
  const need = wanted.length <= 2 ? wanted.length : Math.ceil(wanted.length * 0.75);
  const named = wanted.filter((term) => page.head.has(term)).length;
  const namesHalfTheQuery = named >= Math.ceil(wanted.length / 2);
  const queryNamesThePage = named >= 2 && named >= Math.ceil(page.head.size / 2);
  return held >= need && (namesHalfTheQuery || queryNamesThePage) ? 'strong' : 'weak';
}

/** The terms of a page: `head` what it is named (title, key), `rest` the rest of its text. */
export function pageTerms(head: string, rest: string): PageTerms {
  const headTerms = new Set(analyze(head));
  const all = new Set(headTerms);
  for (const term of analyze(rest)) all.add(term);
  return { all, head: headTerms };
}

/**
 * The hits a reader is shown: every strong hit, the best hit whatever it is, and a weak one
 * only while it scores at least WEAK_FLOOR of the best: a list that ends where the wiki
 * stops being about the query. Hits not judged (no strength) are kept.
 */
export function keepJudged<T extends Pick<SearchResult, 'strength' | 'relative'>>(hits: readonly T[]): T[] {
  return hits.filter((hit, i) => hit.strength !== 'weak' || i === 0 || (hit.relative ?? 1) >= WEAK_FLOOR);
}

/** Whether any hit is strongly about the query (hits not judged count as strong). */
export function anyStrong(hits: ReadonlyArray<Pick<SearchResult, 'strength'>>): boolean {
  return hits.some((hit) => hit.strength !== 'weak');
}
