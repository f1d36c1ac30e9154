import { analyze } from './text/analyze.js';
import type { HitStrength, SearchResult } from './types.js';

/**
 * How strongly a hit is about the query, for a reader (a model or a person) deciding
 * whether the wiki already has a page on it. Fused scores are relative and, on a small
 * wiki, close together whatever the query; what a reader can trust is whether the page
 * holds the query's words and says it is about them where it says what it is: its name
 * (title and key) and its summary.
 *
 * Each query term counts by how much it tells pages apart (its weight: the inverse
 * document frequency, see LexicalLane.termWeights): "go" in a wiki of Go pages says
 * little, "preemption" much, and a word no page holds most of all, so a subject the wiki
 * lacks ("Go generics") is not strong on a page that shares only its common words.
 *
 * A hit is strong when the page holds most of the query's terms (HELD_SHARE) and one of:
 * - its name says most of the query (NAMED_SHARE of the query's weight);
 * - the query says most of its name (NAMED_SHARE of the name's words), and the name is a
 *   real part of the query (a model's long keyword query, "Go workspace module version
 *   selection go.work MVS replace", names `minimal-version-selection` and `go-workspace`);
 * - its name and summary together say nearly all of the query (DEFINED_SHARE), and its name
 *   shares a word with it: a question in other words than the title ("How do I run a named
 *   test inside another test in Go?" on a page "Go subtest" summarised "A Go subtest is a
 *   named test started from inside another test"); a summary alone is not enough ("capturing
 *   generic parameters" does not make "Overcapturing in impl Trait" about Go generics).
 * Every other hit is weak: a page that mentions the words in passing, one whose name shares
 * a common word with the query, one only the semantic lane found.
 */
export interface PageTerms {
  /** Every term of the page (title, key, summary, tags and body). */
  all: ReadonlySet<string>;
  /** The terms of what the page is named: title and key. */
  head: ReadonlySet<string>;
  /** The terms of what the page says it is: title, key and summary. */
  defined: ReadonlySet<string>;
}

/** A query term's weight (see LexicalLane.termWeights); without one every term weighs 1. */
export type TermWeight = (term: string) => number;

const HELD_SHARE = 0.75;
const NAMED_SHARE = 0.5;
/** The least share of the query's weight a name must say to count when the query says the name. */
const NAME_IN_QUERY_SHARE = 0.3;
const DEFINED_SHARE = 0.8;

/** Below this share of the best hit's score, a weak hit is dropped (see judgeHits). */
export const WEAK_FLOOR = 0.6;

/** The shares of weight behind a judgement (each from 0 to 1). */
export interface StrengthEvidence {
  /** Of the query's terms, the share the page holds anywhere. */
  held: number;
  /** Of the query's weight, the share the page's name says. */
  named: number;
  /** Of the name's words, the share the query says. */
  nameInQuery: number;
  /** Of the query's weight, the share the page's name and summary say. */
  defined: number;
}

export function strengthEvidence(queryTerms: readonly string[], page: PageTerms, weightOf: TermWeight = () => 1): StrengthEvidence {
  const wanted = [...new Set(queryTerms)];
  const total = sum(wanted, weightOf);
  if (total <= 0) return { held: 0, named: 0, nameInQuery: 0, defined: 0 };
  const share = (terms: ReadonlySet<string>): number => sum(wanted.filter((term) => holds(terms, term)), weightOf) / total;
  const named = share(page.head);
  // Every word of a name is as much the name as another: the share the query says is counted in words.
  const nameWords = [...page.head].filter((term) => !term.includes('.') && !term.includes('_') && !term.includes('/') && !term.includes('::'));
  const saidWords = nameWords.filter((term) => wanted.some((asked) => asked === term || holds(new Set([term]), asked)));
  return {
    // Holding the query's words is counted in words: a rare word missing costs its share, no more.
    held: wanted.filter((term) => holds(page.all, term)).length / wanted.length,
    named,
    nameInQuery: nameWords.length > 0 ? saidWords.length / nameWords.length : 0,
    defined: share(page.defined),
  };
}

/**
 * `codeNames`: the query's identifiers (`queryIdentifiers`). A page whose name and summary say
 * nearly all of the query is also strong when its summary names every one of them: an API's
 * name is no common word ("setHTML" on "Sanitizer API … exposed through setHTML", a held-out
 * played wiki's page labelled weak).
 */
export function hitStrength(queryTerms: readonly string[], page: PageTerms, weightOf: TermWeight = () => 1, codeNames: ReadonlySet<string> = new Set()): HitStrength {
  const e = strengthEvidence(queryTerms, page, weightOf);
  if (e.held < HELD_SHARE) return 'weak';
  const namesTheQuery = e.named >= NAMED_SHARE;
  const queryNamesThePage = e.nameInQuery >= NAMED_SHARE && e.named >= NAME_IN_QUERY_SHARE;
  const definesItsCode = codeNames.size > 0 && [...codeNames].every((name) => holds(page.defined, name));
  return namesTheQuery || queryNamesThePage || (e.defined >= DEFINED_SHARE && (e.named > 0 || definesItsCode)) ? 'strong' : 'weak';
}

function sum(terms: readonly string[], weightOf: TermWeight): number {
  let total = 0;
  for (const term of terms) total += weightOf(term);
  return total;
}

/**
 * An identifier as written: words joined by `_`, `.`, `/` or `::` with a letter in it
 * (`no_type_check`, `typing.Protocol`, `go/doc/comment`, `std::task`), not a number (`1.10`).
 * Matched only where a word starts, which keeps it linear: a page's one huge word is tried
 * once, not at each of its letters.
 */
const IDENTIFIER = /(?<![\p{L}\p{N}])[\p{L}\p{N}]+(?:(?:[._/]|::)[\p{L}\p{N}]+)+/gu;
/** A word with a capital after a small letter inside it (`setHTML`, `queryLocalFonts`, `OpenType`): a name in code. */
const CAMEL_CASE = /(?<![\p{L}\p{N}])[\p{L}\p{N}]*\p{Ll}\p{Lu}[\p{L}\p{N}]*/gu;

function identifiersIn(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(IDENTIFIER)) if (/\p{L}/u.test(match[0])) found.push(match[0].toLowerCase());
  for (const match of text.matchAll(CAMEL_CASE)) found.push(match[0].toLowerCase());
  return found;
}

/** The identifiers a query names (`typing.Protocol`, `setHTML`), lower case, whole: see hitStrength. */
export function queryIdentifiers(query: string): Set<string> {
  return new Set(identifiersIn(query));
}

/**
 * The query's terms as the strength judges them: its stemmed words, but an identifier in it
 * as one term, whole and lower case (`no_type_check` is not "type" and "check": a page named
 * `TYPE_CHECKING` is not strongly about it). Its weight is its words' weights together.
 */
export function strengthTerms(query: string, language?: string): string[] {
  const identifiers = identifiersIn(query);
  const words = analyze(query.replace(IDENTIFIER, (match) => (/\p{L}/u.test(match) ? ' ' : match)), language);
  return [...words, ...identifiers];
}

/** `strengthTerms` in each page's language, made once per language a search's hits are in (a page holds only its own language's terms). */
export function strengthTermsByLanguage(query: string): (language: string) => string[] {
  const byLanguage = new Map<string, string[]>();
  return (language) => {
    let terms = byLanguage.get(language);
    if (!terms) byLanguage.set(language, (terms = strengthTerms(query, language)));
    return terms;
  };
}

/**
 * Whether a page's terms hold a query term: a word, an identifier whole, or a qualified
 * name by what it qualifies (`typing.Protocol` is held where "protocol" is, `std::task::Waker`
 * where "waker" is); a name joined by `_` or `/` only whole.
 */
function holds(terms: ReadonlySet<string>, term: string): boolean {
  if (terms.has(term)) return true;
  const qualified = /^[^_/]+(?:\.|::)[^_/]+$/.test(term) ? term.split(/\.|::/).slice(1).join(' ') : undefined;
  if (qualified === undefined) return false;
  const named = analyze(qualified);
  return named.length > 0 && named.every((word) => terms.has(word));
}

/** `weightOf` for identifiers too: the sum of their words' weights. */
export function withIdentifierWeights(weightOf: TermWeight): TermWeight {
  return (term) => (/[._/]|::/.test(term) && identifiersIn(term).length > 0 ? sum(analyze(term), weightOf) : weightOf(term));
}

/** The terms of a page: `head` what it is named (title, key), `summary` what it says it is, `rest` the rest of its text; identifiers also whole. */
export function pageTerms(head: string, summary: string, rest: string, language?: string): PageTerms {
  const termsOf = (text: string): string[] => [...analyze(text, language), ...identifiersIn(text)];
  const headTerms = new Set(termsOf(head));
  const defined = new Set(headTerms);
  for (const term of termsOf(summary)) defined.add(term);
  const all = new Set(defined);
  for (const term of termsOf(rest)) all.add(term);
  return { all, head: headTerms, defined };
}

/**
 * The hits a reader is shown, from the best `judgedWindow(limit)` hits by score the reader
 * may see: strong hits before weak ones (each kind in score order), so a label never rises
 * down the list; each hit's score as a share of the best shown (`relative`); every strong
 * hit, the first whatever it is, and a weak one only while it scores at least WEAK_FLOOR of
 * the best: a list that ends where the wiki stops being about the query. Then `limit` of
 * them. Every path that shows hits (`wiki search`, the model's search_wiki, MCP) calls this
 * on the same window, so each shows the same hits with the same labels. Hits not judged
 * (no strength: snippets off) keep their order and are all kept.
 */
export function judgeHits<T extends Pick<SearchResult, 'strength' | 'relative' | 'score'>>(hits: readonly T[], limit: number): T[] {
  const best = Math.max(0, ...hits.map((hit) => hit.score));
  const judged = hits.some((hit) => hit.strength !== undefined);
  const ordered = judged ? [...hits.filter((hit) => hit.strength !== 'weak'), ...hits.filter((hit) => hit.strength === 'weak')] : [...hits];
  const shown = ordered.map((hit) => (hit.strength === undefined ? hit : { ...hit, relative: best > 0 ? hit.score / best : 0 }));
  return shown.filter((hit, i) => hit.strength !== 'weak' || i === 0 || (hit.relative ?? 1) >= WEAK_FLOOR).slice(0, limit);
}

/** How many of the best hits are judged for a list of `limit`: never fewer than ten, so a short list is judged as a long one is. */
export function judgedWindow(limit: number): number {
  return Math.max(limit, JUDGED_HITS);
}

const JUDGED_HITS = 10;

/** Whether any hit is strongly about the query (hits not judged count as strong). */
export function anyStrong(hits: ReadonlyArray<Pick<SearchResult, 'strength'>>): boolean {
  return hits.some((hit) => hit.strength !== 'weak');
}
