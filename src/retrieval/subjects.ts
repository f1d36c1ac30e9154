import { pageTerms, type PageTerms } from '../search/strength.js';
import { analyze } from '../search/text/analyze.js';
import { stringField } from '../wiki/page.js';
import type { PackHit, PackView } from './evidence-pack.js';
import { subjectList } from './subject-lists.js';

/**
 * Seeds that cover every subject a question names. One search over a two-subject question
 * ("How do Go's checksum database and Rust's async/await each handle failure?") can rank
 * one subject's pages above all of the other's: the played run's pack held five Rust pages
 * and no Go page, though a page titled "Go checksum database" exists.
 *
 * So, after the search over the whole question: the question's terms that none of its
 * best pages holds anywhere (title, summary or body) are a part the search left out; they
 * are searched on their own, and the hits whose title or key names one of them are that
 * part's pages, those named by most of them first. That repeats while a part is found, up to MAX_PARTS searches in all. The
 * seeds are then taken from each part's list in turn (best of each first), so every part
 * gets its best page even when `seeds` is small. A question all of whose terms the first
 * pages hold (one subject) makes no further search and keeps its seeds as they were.
 *
 * A question that names its subjects as a list (subject-lists.ts) gets a page for each: for
 * a class it ranges over, every page the class noun names (title or key), at most
 * MAX_LISTED; for a comparison, each item's best page. Each is a part of its own.
 */
export type PartSearch = (query: string, limit: number) => Promise<readonly PackHit[]>;

/** The whole question's search and at most two more parts: three subjects are a lot for one answer. */
export const MAX_PARTS = 3;
/** Pages a class the question ranges over brings at most. */
export const MAX_LISTED = 8;

/**
 * Words that ask how subjects relate, not what they are: they never make a part of their
 * own ("… and what do they have in common?" is not a question about a page named Common).
 */
const RELATING_TERMS = new Set(
  analyze('compare comparison contrast differ difference different common similar similarity relate relation versus handle decide use mean explain happen'),
);

export async function subjectSeeds(question: string, firstHits: readonly PackHit[], view: PackView, seeds: number, search: PartSearch): Promise<PackHit[]> {
  const asked = [...new Set(analyze(question))].filter((term) => !RELATING_TERMS.has(term));
  const taken = new Set<string>();
  const held = new Set<string>();
  /** The hits `named` counts above 0 for, most named first (then in search order), at most `seeds`. */
  const take = (hits: readonly PackHit[], named: (terms: PageTerms) => number): PackHit[] => {
    const found: Array<{ key: string; named: number }> = [];
    for (const hit of hits) {
      const page = view.page(hit.key);
      const terms = page && !taken.has(page.key) ? termsOf(view, page.key) : undefined;
      const count = terms ? named(terms) : 0;
      if (page && count > 0 && !found.some((other) => other.key === page.key)) found.push({ key: page.key, named: count });
    }
    const part = found
      .sort((a, b) => b.named - a.named)
      .slice(0, seeds)
      .map(({ key }) => ({ key }));
    for (const hit of part) {
      taken.add(hit.key);
      for (const term of termsOf(view, hit.key)?.all ?? []) held.add(term);
    }
    return part;
  };
  const parts = [take(firstHits, () => 1)];
  if (parts[0]!.length === 0) return [];
  while (parts.length < MAX_PARTS) {
    const missing = asked.filter((term) => !held.has(term));
    // Nothing left out, or nothing the first pages hold at all (a search the wiki cannot answer): no part to add.
    if (missing.length === 0 || missing.length === asked.length) break;
    // A part's pages are those named by its terms, the page named by most of them first ("Go checksum database" before "Trust on first use").
    const part = take(await search(missing.join(' '), seeds), (terms) => missing.filter((term) => terms.head.has(term)).length);
    if (part.length === 0) break;
    parts.push(part);
  }
  // Each listed subject is a part of its own, first in turn, also when an earlier part already held its page.
  const listed: PackHit[][] = [];
  const promote = (key: string): void => {
    if (listed.length >= MAX_LISTED || listed.some(([hit]) => hit?.key === key)) return;
    for (const part of parts) part.splice(0, part.length, ...part.filter((hit) => hit.key !== key));
    listed.push([{ key }]);
  };
  const named = (hits: readonly PackHit[], terms: readonly string[]): string[] => {
    const found = new Map<string, number>();
    for (const hit of hits) {
      const page = view.page(hit.key);
      const head = page ? termsOf(view, page.key)?.head : undefined;
      const count = head ? terms.filter((term) => head.has(term)).length : 0;
      if (page && count > 0 && !found.has(page.key)) found.set(page.key, count);
    }
    return [...found].sort((a, b) => b[1] - a[1]).map(([key]) => key);
  };
  const list = subjectList(question, RELATING_TERMS);
  if (list.classWord !== undefined && list.classTerm !== undefined) {
    for (const key of named([...firstHits, ...(await search(list.classWord, MAX_LISTED * 2))], [list.classTerm])) promote(key);
  }
  for (const item of list.items) {
    const itemTerms = item.split(' ');
    // An item a page of the seeds already names (an earlier part found it) needs no search.
    const covered = [...parts.flat(), ...listed.flat()].some((hit) => itemTerms.some((term) => termsOf(view, hit.key)?.head.has(term)));
    if (covered) continue;
    const [best] = named(await search(item, seeds), itemTerms);
    if (best !== undefined) promote(best);
  }
  const all = [...listed, ...parts.filter((part) => part.length > 0)];
  return inTurn(all, Math.max(seeds, all.length));
}

function termsOf(view: PackView, key: string): PageTerms | undefined {
  const page = view.page(key);
  if (!page) return undefined;
  // Named as the search judges hits: title and key; the rest is summary and body.
  const head = `${stringField(page.frontmatter, 'title') ?? ''}\n${page.key.replace(/-/g, ' ')}`;
  return pageTerms(head, stringField(page.frontmatter, 'summary') ?? '', view.body(page));
}

/** The first of each list, then the second of each…, up to `count`. */
function inTurn(lists: readonly PackHit[][], count: number): PackHit[] {
  const out: PackHit[] = [];
  for (let rank = 0; out.length < count && lists.some((list) => rank < list.length); rank++) {
    for (const list of lists) {
      const hit = list[rank];
      if (hit && out.length < count) out.push(hit);
    }
  }
  return out;
}
