import { claimsOf, type Claim, type ClaimCitation } from './claims.js';
import type { ClaimTerms } from './claim-terms.js';
import { citedFacts, citedLines, sentencesOf, type Analysed, type CandidateFact, type Evidence, GroundingCache, type SourceLinesReader } from './grounding-evidence.js';

export { CITATION_SLACK, GroundingCache, type CandidateFact, type SourceLinesReader } from './grounding-evidence.js';

/**
 * The grounding check: each claim of a page against its evidence. A claim that cites lines
 * (`<!-- from: raw/x.md#L10-20 -->`) is checked against those lines (a
 * few lines of slack either side); a claim without a citation against the facts of its
 * page's sources. Pure: the caller hands in the page body and the candidate facts, with
 * where each is stated when known.
 *
 * Paraphrase is support: words are compared as stems, in any order, a shorter stem
 * matching a longer one it begins ("verifi" ~ "verification"). What is flagged is what
 * the evidence does not say: a number or date it does not hold, a name it does not
 * mention, a negation it lacks, or too few of the claim's words at all.
 */

export type GroundingProblem =
  | { kind: 'ungrounded'; reason: string }
  | { kind: 'unsupported-number'; numbers: string[] }
  | { kind: 'miscited'; reason: string };

export interface SentenceGrounding {
  text: string;
  /** 1-based line in the page body. */
  line: number;
  /** Share of the claim's content words its evidence holds. */
  support: number;
  /** What the claim cites (empty: none). */
  citations: ClaimCitation[];
  /** Whether it was checked against its cited lines (false: against its page's sources' facts, as an uncited claim, also when no fact stands on its cited lines). */
  againstCitedLines: boolean;
  /** The facts its citation's lines state (for a cited claim), or the closest facts (for an uncited one), best first. */
  candidates: CandidateFact[];
  closest?: CandidateFact;
  problem?: GroundingProblem;
}

export interface PageGrounding {
  sentences: SentenceGrounding[];
  /** Share of claim sentences that are supported; 1 for a page with no claims. */
  score: number;
}

/** Share of a claim's content words its evidence must hold. */
export const SUPPORT_THRESHOLD = 0.5;
/** The same for a claim checked against its cited lines: the citation already says where it comes from. */
export const CITED_SUPPORT_THRESHOLD = 0.3;
/** How many of the closest facts an uncited claim is matched against. */
const CLOSEST = 3;
/** How many of the closest facts its numbers may come from. */
const NUMBER_CANDIDATES = 5;
/** Overlap above which a negated fact saying the same words is the claim's opposite. */
const SAME_WORDS = 0.8;
/** Words a piece of evidence must share with a claim for its negation to be the claim's: a denial elsewhere in the cited lines is about something else. */
const DENIAL_WORDS = 2;
/** Words a piece of evidence must share with a claim to count as near it (with the two closest). */
const NEAR_WORDS = 2;
/** A claim with fewer content words states nothing checkable. */
const MIN_WORDS = 3;
/** The same for a claim that negates: what it denies is checkable with fewer words. */
const MIN_NEGATED_WORDS = 2;
/** A stem shorter than this matches only itself. */
const PREFIX_MIN = 4;

/**
 * Ground every claim of `body`. `topic` (the page's title) names what the page is about:
 * its words count as held wherever a claim uses them, as a source says "it" where the
 * page names its subject.
 */
export function groundPage(
  body: string,
  facts: readonly CandidateFact[],
  cache: GroundingCache = new GroundingCache(),
  topic = '',
  sourceLines?: SourceLinesReader,
): PageGrounding {
  const evidence = cache.analyse(facts);
  const topicTerms = cache.claimTermsOf(topic);
  const topicWords = new Set(topicTerms.words.concat(topicTerms.names));
  const sentences: SentenceGrounding[] = [];
  for (const claim of claimsOf(body)) {
    const all = cache.claimTermsOf(claim.checked);
    const terms = { ...all, words: all.words.filter((word) => !topicWords.has(word)), names: all.names.filter((name) => !topicWords.has(name)) };
    // "Cancellation is not dropping": two words and a negation state something checkable.
    if (all.words.length < (all.negated ? MIN_NEGATED_WORDS : MIN_WORDS) && terms.numbers.length === 0 && terms.dates.length === 0) continue;
    sentences.push(groundClaim(claim, terms, evidence, sourceLines ? citedLines(claim.citations, sourceLines, cache) : undefined, cache));
  }
  const supported = sentences.filter((s) => s.problem === undefined).length;
  return { sentences, score: sentences.length === 0 ? 1 : supported / sentences.length };
}

function groundClaim(claim: Claim, terms: ClaimTerms, evidence: Evidence, lines: Analysed[] | undefined, cache: GroundingCache): SentenceGrounding {
  const cited = lines && lines.length > 0 ? lines : citedFacts(claim.citations, evidence.bySource);
  const result: SentenceGrounding = { text: claim.text, line: claim.line, support: 0, citations: claim.citations, againstCitedLines: cited.length > 0, candidates: [] };
  if (cited.length > 0) {
    // Sentences of the cited prose (a sentence may run over several lines), and each line (code included).
    const ranked = rank(terms, lines && lines.length > 0 ? [...sentencesOf(lines, cache), ...lines] : cited);
    result.candidates = cited.map((item) => item.fact);
    result.closest = ranked[0]?.item.fact;
    result.support = support(terms.words, wordsOf(cited));
    const problem = check(terms, cited, ranked, result.support, evidence.words, evidence.numbers, 'its cited lines');
    if (problem) result.problem = problem.kind === 'unsupported-number' ? problem : { kind: 'miscited', reason: problem.reason };
    return result;
  }
  const ranked = rankByPostings(terms, evidence.postings);
  const closest = ranked.slice(0, CLOSEST).map((r) => r.item);
  result.candidates = closest.map((item) => item.fact);
  result.closest = closest[0]?.fact;
  result.support = support(terms.words, wordsOf(closest));
  const numberPool = ranked.slice(0, NUMBER_CANDIDATES).map((r) => r.item);
  const problem = check(terms, numberPool, ranked.slice(0, CLOSEST), result.support, evidence.words, evidence.numbers, 'its closest fact');
  if (problem) result.problem = problem;
  return result;
}

/**
 * The first problem of a claim against `pool` (its evidence), or undefined: numbers and
 * dates first (a changed figure is the surest sign), then names, then too little support,
 * then a negation its closest evidence lacks (or the reverse, word for word).
 */
function check(
  terms: ClaimTerms,
  pool: readonly Analysed[],
  ranked: ReadonlyArray<{ item: Analysed; overlap: number }>,
  supportShare: number,
  sourceWords: ReadonlySet<string>,
  sourceNumbers: ReadonlySet<number>,
  evidence: string,
): GroundingProblem | undefined {
  const numbers = new Set(pool.flatMap((item) => item.terms.numbers));
  for (const n of terms.namedNumbers) if (sourceNumbers.has(n)) numbers.add(n);
  const dates = pool.flatMap((item) => item.terms.dates);
  const missing = [
    ...terms.numbers.filter((n) => !numbers.has(n) && !numbers.has(n / 100) && !numbers.has(n * 100)).map(formatNumber),
    ...terms.dates.filter((date) => !dates.some((d) => d.startsWith(date) || date.startsWith(d))),
  ];
  if (missing.length > 0) return { kind: 'unsupported-number', numbers: [...new Set(missing)] };
  const poolWords = wordsOf(pool);
  // A name the evidence does not mention, and that its sources do not mention anywhere.
  // Against cited lines a name may come from elsewhere in its sources (a person named once at the top);
  // an uncited claim's names must be in its closest facts, as its other words.
  const cited = evidence === 'its cited lines';
  const closestWords = cited ? poolWords : wordsOf(ranked.slice(0, 1).map((r) => r.item));
  const unnamed = terms.names.filter((name) => !holds(closestWords, name) && !(cited && holds(sourceWords, name)));
  if (unnamed.length > 0) return { kind: 'ungrounded', reason: cited ? `it names ${unnamed.join(', ')}, which its sources never mention` : `its closest fact does not name ${unnamed.join(', ')}` };
  if (supportShare < (evidence === 'its cited lines' ? CITED_SUPPORT_THRESHOLD : SUPPORT_THRESHOLD)) return { kind: 'ungrounded', reason: evidence === 'its cited lines' ? 'its cited lines say nothing like it' : 'no fact of its sources says this' };
  // A negation the claim adds: no evidence near it (sharing two of its words) negates or turns anything around.
  // Cited lines are many small pieces (a sentence may be split over lines): any near one counts there.
  const near =
    evidence === 'its cited lines'
      ? ranked.filter((r, index) => index < 2 || r.overlap >= Math.min(NEAR_WORDS, terms.words.length)).map((r) => r.item)
      : ranked.filter((r, index) => index < 1 || r.overlap >= 0.5 * terms.words.length).map((r) => r.item);
  // Against facts, only a closest fact saying much of what the claim says is what a negation would deny
  // ("no authors are named" is not the opposite of "Feature Name: async_await").
  if (terms.negated && (cited || (ranked[0]?.overlap ?? 0) >= 0.5 * terms.words.length)) {
    // What the claim says is not so: its evidence must say it is not so too. Against cited lines
    // (many small pieces, a sentence split over lines) any piece holding the first word the claim
    // denies and denying it will do; against facts, the closest fact must.
    const units = cited ? [...pool, ...ranked.map((r) => r.item)] : ranked.slice(0, 1).map((r) => r.item);
    // The first word it denies that its evidence uses (as a stem or its prefix, "independ" ~ "independently"):
    // the word a negation governs most surely; a later one may be another clause's. When the word right
    // after its negation is not the evidence's, the piece denying a later one must be about the claim
    // (share DENIAL_WORDS of its words): "can not forward database requests" is not excused by
    // "never falling back to a direct connection to the database".
    const denied = terms.negatedWords.find((word) => units.some((item) => holds(item.words, word)));
    const negates = `it negates what ${evidence} say${evidence.endsWith('s') ? '' : 's'}`;
    if (denied !== undefined) {
      if (!units.some((item) => holds(item.words, denied) && holds(new Set(item.terms.negatedWords), denied) && (denied === terms.negatedWords[0] || overlapOf(terms.words, item.words) >= Math.min(DENIAL_WORDS, terms.words.length)))) return { kind: 'ungrounded', reason: negates };
    } else if (cited) {
      // The words it denies are not its cited lines' (a paraphrase: "nobody wonders" for "avoids confusion"):
      // any cited piece about it that denies or turns something around will do.
      if (!ranked.some((r) => r.item.terms.negated || r.item.terms.contrasted)) return { kind: 'ungrounded', reason: negates };
    } else if (!units.some((item) => item.terms.negated)) {
      return { kind: 'ungrounded', reason: negates };
    }
  }
  // A negation it drops, only when its closest fact says the same words negated and nothing says them plainly.
  const best = ranked[0];
  if (evidence !== 'its cited lines' && !terms.negated && !terms.contrasted && best && best.item.terms.negated && best.overlap >= SAME_WORDS * terms.words.length) {
    if (!near.some((item) => !item.terms.negated && item !== best.item && overlapOf(terms.words, item.words) >= SAME_WORDS * terms.words.length)) {
      return { kind: 'ungrounded', reason: `${evidence} says the opposite` };
    }
  }
  return undefined;
}

/** Facts by how many of the claim's words they hold, most first (ties by id), those holding none left out. */
function rank(terms: ClaimTerms, facts: readonly Analysed[]): Array<{ item: Analysed; overlap: number }> {
  const scored: Array<{ item: Analysed; overlap: number }> = [];
  for (const item of facts) {
    const overlap = overlapOf(terms.words, item.words);
    if (overlap > 0) scored.push({ item, overlap });
  }
  return scored.sort((a, b) => b.overlap - a.overlap || (a.item.fact.id < b.item.fact.id ? -1 : a.item.fact.id > b.item.fact.id ? 1 : 0));
}

/** The facts sharing a word with the claim, by how many they share (counted from the words' postings), most first, ties by id. */
function rankByPostings(terms: ClaimTerms, postings: ReadonlyMap<string, Analysed[]>): Array<{ item: Analysed; overlap: number }> {
  const counts = new Map<Analysed, number>();
  for (const word of terms.words) for (const item of postings.get(word) ?? []) counts.set(item, (counts.get(item) ?? 0) + 1);
  // Only the best few are ever read: kept sorted as they come, not a sort of every fact reached.
  const top: Array<{ item: Analysed; overlap: number }> = [];
  const before = (a: { item: Analysed; overlap: number }, b: { item: Analysed; overlap: number }): boolean => a.overlap > b.overlap || (a.overlap === b.overlap && a.item.fact.id < b.item.fact.id);
  for (const [item, overlap] of counts) {
    const entry = { item, overlap };
    if (top.length === NUMBER_CANDIDATES && !before(entry, top[NUMBER_CANDIDATES - 1] as { item: Analysed; overlap: number })) continue;
    let slot = Math.min(top.length, NUMBER_CANDIDATES - 1);
    while (slot > 0 && before(entry, top[slot - 1] as { item: Analysed; overlap: number })) {
      top[slot] = top[slot - 1] as { item: Analysed; overlap: number };
      slot--;
    }
    top[slot] = entry;
  }
  return top;
}

function wordsOf(items: readonly Analysed[]): Set<string> {
  const words = new Set<string>();
  for (const item of items) for (const word of item.terms.words) words.add(word);
  return words;
}

function overlapOf(words: readonly string[], other: ReadonlySet<string>): number {
  let count = 0;
  for (const word of words) if (other.has(word)) count++;
  return count;
}

function support(words: readonly string[], evidence: ReadonlySet<string>): number {
  return words.length === 0 ? 1 : words.filter((word) => holds(evidence, word)).length / words.length;
}

/** Whether `words` holds `word`, or a word one of them begins with the other ("verifi" ~ "verif"). */
function holds(words: ReadonlySet<string>, word: string): boolean {
  if (words.has(word)) return true;
  if (word.length < PREFIX_MIN) return false;
  // Both words start with the same PREFIX_MIN letters: look only among those (a large set is indexed once).
  const candidates = words.size > PREFIX_INDEX_FROM ? (prefixIndex(words).get(word.slice(0, PREFIX_MIN)) ?? []) : words;
  for (const other of candidates) {
    if (other.length < PREFIX_MIN) continue;
    if (other.length > word.length ? other.startsWith(word) : word.startsWith(other)) return true;
  }
  return false;
}

/** Sets larger than this get a prefix index when searched. */
const PREFIX_INDEX_FROM = 64;
const prefixIndexes = new WeakMap<ReadonlySet<string>, Map<string, string[]>>();

function prefixIndex(words: ReadonlySet<string>): Map<string, string[]> {
  let index = prefixIndexes.get(words);
  if (!index) {
    index = new Map();
    for (const other of words) {
      if (other.length < PREFIX_MIN) continue;
      const key = other.slice(0, PREFIX_MIN);
      const list = index.get(key);
      if (list) list.push(other);
      else index.set(key, [other]);
    }
    prefixIndexes.set(words, index);
  }
  return index;
}

function formatNumber(value: number): string {
  return Number.isInteger(value) && Math.abs(value) >= 10000 ? value.toLocaleString('en') : String(value);
}
