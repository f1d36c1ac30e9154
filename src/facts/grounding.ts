import { claimsOf, type Claim, type ClaimCitation } from './claims.js';
import { spellsOutAcronym, type ClaimTerms } from './claim-terms.js';
import { negationProblem } from './grounding-negation.js';
import { holds, overlapOf, support, wordsOf } from './stem-match.js';
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
  /** `anchor`: the evidence piece the verdict rests on (the finding quotes from it). */
  | { kind: 'ungrounded'; reason: string; anchor?: CandidateFact }
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
/** A claim with fewer content words states nothing checkable. */
const MIN_WORDS = 3;
/** Content words of a lead-in sentence (it has no citation of its own, the next sentence's is its): a longer one states something checkable. */
const LEAD_IN_WORDS = 6;
/** The same for a claim that negates: what it denies is checkable with fewer words. */
const MIN_NEGATED_WORDS = 2;

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
  linkedFacts?: LinkedFacts,
): PageGrounding {
  const evidence = cache.analyse(facts);
  const topicTerms = cache.claimTermsOf(topic);
  const topicWords = new Set(topicTerms.words.concat(topicTerms.names));
  const sentences: SentenceGrounding[] = [];
  const claims = claimsOf(body);
  const pageLinks = [...new Set(claims.flatMap((claim) => claim.links))];
  for (const claim of claims) {
    const all = cache.claimTermsOf(claim.checked);
    const terms: ClaimTerms = { ...all, words: all.words.filter((word) => !topicWords.has(word)), names: all.names.filter((name) => !topicWords.has(name)) };
    // "Cancellation is not dropping": two words and a negation state something checkable.
    if (all.words.length < (all.negated ? MIN_NEGATED_WORDS : MIN_WORDS) && terms.numbers.length === 0 && terms.dates.length === 0) continue;
    const grounded = groundClaim(claim, terms, evidence, sourceLines ? citedLines(claim.citations, sourceLines, cache) : undefined, cache, (files) => headerOf(evidence, files, sourceLines, cache), all.words.length - terms.words.length);
    // A paragraph that links nowhere (a saved answer's opening summary, played reviews' "no fact says this"
    // on its synthesis) draws on every page the page links: each is checked against its own sources.
    const linking = claim.links.length > 0 ? claim : { ...claim, links: pageLinks };
    sentences.push(grounded.problem && !grounded.againstCitedLines ? throughLinkedPages(grounded, linking, terms, cache, linkedFacts) : grounded);
  }
  const supported = sentences.filter((s) => s.problem === undefined).length;
  return { sentences, score: sentences.length === 0 ? 1 : supported / sentences.length };
}

/**
 * The sentences of the wiki pages `keys` name, as evidence (the same array for the same keys,
 * so each set is analysed once per lint).
 */
export type LinkedFacts = (keys: readonly string[]) => readonly CandidateFact[];

/**
 * An uncited claim its sources' facts do not carry, checked against the pages its paragraph
 * cites by `[[key]]` — a saved answer cites pages, not lines: a claim those pages state is
 * grounded through them (each is checked against its own sources). Checked the same way as
 * against facts, so a changed number, a swapped name or an added negation is still flagged.
 */
function throughLinkedPages(grounded: SentenceGrounding, claim: Claim, terms: ClaimTerms, cache: GroundingCache, linkedFacts: LinkedFacts | undefined): SentenceGrounding {
  // A denial too: the linked page's closest sentence must deny it as well (a played saved answer's "the trait
  // guarantees nothing" is its linked page's sentence; a planted "not" is still flagged there).
  if (!linkedFacts || claim.links.length === 0) return grounded;
  const linked = linkedFacts(claim.links);
  if (linked.length === 0) return grounded;
  const again = groundClaim(claim, terms, cache.analyse(linked), undefined, cache);
  return again.problem ? grounded : { ...again, againstCitedLines: false, citations: claim.citations };
}

/** The head lines of some sources, read only when a claim's number is not in its evidence. */
type HeaderReader = (files: readonly string[]) => Analysed[];

function groundClaim(
  claim: Claim,
  terms: ClaimTerms,
  evidence: Evidence,
  lines: Analysed[] | undefined,
  cache: GroundingCache,
  header: HeaderReader = (files) => headerOf(evidence, files),
  topicWords = 0,
): SentenceGrounding {
  const cited = lines && lines.length > 0 ? lines : citedFacts(claim.citations, evidence.bySource);
  const result: SentenceGrounding = { text: claim.text, line: claim.line, support: 0, citations: claim.citations, againstCitedLines: cited.length > 0, candidates: [] };
  if (cited.length > 0) {
    // Sentences of the cited prose (a sentence may run over several lines), and each line (code included).
    const ranked = rank(terms, lines && lines.length > 0 ? [...sentencesOf(lines, cache), ...lines] : cited);
    result.candidates = cited.map((item) => item.fact);
    result.closest = ranked[0]?.item.fact;
    result.support = support(terms.words, wordsOf(cited));
    // A lead-in framing the cited sentence after it ("The two mechanisms solve different problems."): nothing
    // specific of its own to find in the lines — still checked for a negation they contradict.
    if (claim.leadsIn && terms.words.length <= LEAD_IN_WORDS && terms.numbers.length === 0 && terms.dates.length === 0 && terms.names.length === 0) result.support = 1;
    const problem = check(terms, cited, ranked, result.support, evidence.words, (acronym) => definesAcronym(evidence, cited, acronym), evidence.numbers, 'its cited lines', () => header(claim.citations.map((citation) => citation.file)), claim.checked, topicWords);
    if (problem) result.problem = problem.kind === 'unsupported-number' ? problem : { kind: 'miscited', reason: problem.reason };
    if (problem?.kind === 'ungrounded' && problem.anchor) result.closest = problem.anchor;
    return result;
  }
  const ranked = rankByPostings(terms, evidence.postings);
  const closest = ranked.slice(0, CLOSEST).map((r) => r.item);
  result.candidates = closest.map((item) => item.fact);
  result.closest = closest[0]?.fact;
  result.support = support(terms.words, wordsOf(closest));
  const numberPool = ranked.slice(0, NUMBER_CANDIDATES).map((r) => r.item);
  const problem = check(terms, numberPool, ranked.slice(0, CLOSEST), result.support, evidence.words, (acronym) => definesAcronym(evidence, closest, acronym), evidence.numbers, 'its closest fact', () => header([...evidence.bySource.keys()]), claim.checked, topicWords);
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
  definesAcronym: (acronym: string) => boolean,
  sourceNumbers: ReadonlySet<number>,
  evidence: string,
  header: () => readonly Analysed[] = () => [],
  claimText = '',
  topicWords = 0,
): GroundingProblem | undefined {
  const numbers = new Set(pool.flatMap((item) => item.terms.numbers));
  for (const n of terms.namedNumbers) if (sourceNumbers.has(n)) numbers.add(n);
  const dates = pool.flatMap((item) => item.terms.dates);
  const stated = (n: number): boolean => numbers.has(n) || numbers.has(n / 100) || numbers.has(n * 100);
  const datedIn = (list: readonly string[], date: string): boolean => list.some((d) => d.startsWith(date) || date.startsWith(d));
  if (terms.numbers.some((n) => !stated(n)) || terms.dates.some((date) => !datedIn(dates, date))) {
    // A year or date its source's head gives (the document's own date: "July 2020", "Start Date:
    // 2023-07-26") may set any claim in time. Read only now: most claims' numbers are in their evidence.
    const head = header();
    for (const n of head.flatMap((item) => [...item.terms.numbers, ...item.terms.dates.map((date) => Number(date.slice(0, 4)))])) {
      if (Number.isInteger(n) && n >= YEAR_FIRST && n <= YEAR_LAST) numbers.add(n);
    }
    dates.push(...head.flatMap((item) => item.terms.dates));
  }
  const missing = [...terms.numbers.filter((n) => !stated(n)).map(formatNumber), ...terms.dates.filter((date) => !datedIn(dates, date))];
  if (missing.length > 0) return { kind: 'unsupported-number', numbers: [...new Set(missing)] };
  const poolWords = wordsOf(pool);
  // A name the evidence does not mention, and that its sources do not mention anywhere.
  // Against cited lines a name may come from elsewhere in its sources (a person named once at the top);
  // an uncited claim's names must be in its closest facts, as its other words.
  const cited = evidence === 'its cited lines';
  const closestWords = cited ? poolWords : wordsOf(ranked.slice(0, 1).map((r) => r.item));
  // An acronym its sources state or spell out is a term they define ("MVS"), not a name a fact must repeat.
  const unnamed = terms.names.filter((name) => !holds(closestWords, name) && !(cited && holds(sourceWords, name)) && !(terms.acronyms.includes(name) && definesAcronym(name)));
  if (unnamed.length > 0) return { kind: 'ungrounded', reason: cited ? `it names ${unnamed.join(', ')}, which its sources never mention` : `its closest fact does not name ${unnamed.join(', ')}` };
  // The numbers and dates it states are held by now, and they are content too: "Examples: `0x1p-2` is 0.25,
  // `0x2.p10` is 2048.0" says what its cited "0x1p-2 // == 0.25" lines say, with one word of its own.
  // So are the words of the page's title, as a source says "it" for the page's subject — as many as the
  // claim's other words its evidence holds, no more: "Go install is written in Rust" on the go-install page
  // needs "written" or "Rust" from its evidence (played review M: a title-heavy paraphrase read as "nothing like it").
  const heldWords = supportShare * terms.words.length;
  const alsoHeld = new Set(terms.numbers.filter((n) => !terms.namedNumbers.includes(n))).size + terms.dates.length + Math.min(topicWords, Math.round(heldWords));
  const share = alsoHeld === 0 ? supportShare : (heldWords + alsoHeld) / (terms.words.length + alsoHeld);
  if (share < (evidence === 'its cited lines' ? CITED_SUPPORT_THRESHOLD : SUPPORT_THRESHOLD)) return { kind: 'ungrounded', reason: evidence === 'its cited lines' ? 'its cited lines say nothing like it' : 'no fact of its sources says this' };
  return negationProblem(terms, pool, ranked, cited ? 'cited' : 'facts', claimText);
}

/** Lines of a source's head that hold its own date ("July 2020", "Start Date: 2023-07-26"). */
const HEADER_LINES = 12;
const YEAR_FIRST = 1900;
const YEAR_LAST = 2100;

/** The first lines of `files` (a document's title, authors and date): read from the source when a reader has it, else the facts stated there. */
function headerOf(evidence: Evidence, files: readonly string[], read?: SourceLinesReader, cache?: GroundingCache): Analysed[] {
  return [...new Set(files)].flatMap((file) => {
    const lines = read?.(file);
    if (lines && cache) return lines.slice(0, HEADER_LINES).flatMap((text, index) => (text.trim() === '' ? [] : [cache.lineItem(file, index + 1, text)]));
    return (evidence.bySource.get(file)?.facts ?? []).filter((item) => (item.fact.lineStart ?? Number.POSITIVE_INFINITY) <= HEADER_LINES);
  });
}

/** Whether its sources state an acronym ("MVS"), or its evidence spells it out ("minimal version selection"). */
function definesAcronym(evidence: Evidence, near: readonly Analysed[], acronym: string): boolean {
  return evidence.words.has(acronym) || near.some((item) => spellsOutAcronym(item.fact.text, acronym));
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

function formatNumber(value: number): string {
  return Number.isInteger(value) && Math.abs(value) >= 10000 ? value.toLocaleString('en') : String(value);
}
