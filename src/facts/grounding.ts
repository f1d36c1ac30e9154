import { claimsOf, type Claim, type ClaimCitation } from './claims.js';
import type { ClaimTerms } from './claim-terms.js';
import { check, definesAcronym, HEADER_LINES, rank, rankByPostings, type GroundingProblem } from './grounding-check.js';
import { support, wordsOf } from './stem-match.js';
import { citedFacts, citedLines, sentencesOf, type Analysed, type CandidateFact, type Evidence, GroundingCache, type SourceLinesReader } from './grounding-evidence.js';
import type { Mentions } from './grounding-names.js';

export { CITATION_SLACK, GroundingCache, TermAnalyses, type CandidateFact, type SourceLinesReader } from './grounding-evidence.js';
export { CITED_SUPPORT_THRESHOLD, SUPPORT_THRESHOLD, type GroundingProblem } from './grounding-check.js';

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
    // A sentence of few words but code ("It works with `fs.ReadFile` and `http.FS`.") still names what its sources must mention.
    const few = all.words.length < (all.negated ? MIN_NEGATED_WORDS : MIN_WORDS) && terms.numbers.length === 0 && terms.dates.length === 0;
    if (few && claim.code.length === 0) continue;
    const files = [...evidence.bySource.keys(), ...claim.citations.map((citation) => citation.file.replace(/^\.\//, ''))];
    const context: ClaimContext = {
      evidence,
      cache,
      header: (files) => headerOf(evidence, files, sourceLines, cache),
      topicWords: all.words.length - terms.words.length,
      topic: topicWords,
      mentions: cache.mentionIndex.mentions(facts, files, sourceLines),
      namesOnly: few,
    };
    const grounded = groundClaim(claim, terms, context, sourceLines ? citedLines(claim.citations, sourceLines, cache) : undefined);
    // A paragraph that links nowhere (a saved answer's opening summary, played reviews' "no fact says this"
    // on its synthesis) draws on every page the page links: each is checked against its own sources.
    const linking = claim.links.length > 0 ? claim : { ...claim, links: pageLinks };
    sentences.push(grounded.problem && !grounded.againstCitedLines ? throughLinkedPages(grounded, linking, terms, context, linkedFacts) : grounded);
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
function throughLinkedPages(grounded: SentenceGrounding, claim: Claim, terms: ClaimTerms, context: ClaimContext, linkedFacts: LinkedFacts | undefined): SentenceGrounding {
  // A denial too: the linked page's closest sentence must deny it as well (a played saved answer's "the trait
  // guarantees nothing" is its linked page's sentence; a planted "not" is still flagged there).
  if (!linkedFacts || claim.links.length === 0) return grounded;
  const linked = linkedFacts(claim.links);
  if (linked.length === 0) return grounded;
  const evidence = context.cache.analyse(linked);
  const inLinked = context.cache.mentionIndex.mentions(linked, [], undefined);
  const mentions = (token: string): boolean => context.mentions(token) || inLinked(token);
  const again = groundClaim(claim, terms, { ...context, evidence, mentions, header: (files) => headerOf(evidence, files) }, undefined);
  return again.problem ? grounded : { ...again, againstCitedLines: false, citations: claim.citations };
}

/** What a claim is checked with besides its own words. */
interface ClaimContext {
  /** All of its sources' facts (or, for a claim grounded through linked pages, their sentences). */
  evidence: Evidence;
  cache: GroundingCache;
  /** The head lines of some sources, read only when a claim's number is not in its evidence. */
  header: (files: readonly string[]) => Analysed[];
  /** How many of its words are the page title's. */
  topicWords: number;
  topic: ReadonlySet<string>;
  mentions: Mentions;
  /** Check only the names it uses (a sentence of too few words to check otherwise). */
  namesOnly: boolean;
}

function groundClaim(claim: Claim, terms: ClaimTerms, context: ClaimContext, lines: Analysed[] | undefined): SentenceGrounding {
  const { evidence, cache } = context;
  const cited = lines && lines.length > 0 ? lines : citedFacts(claim.citations, evidence.bySource);
  const result: SentenceGrounding = { text: claim.text, line: claim.line, support: 0, citations: claim.citations, againstCitedLines: cited.length > 0, candidates: [] };
  const base = { claim, terms, evidence, topicWords: context.topicWords, topic: context.topic, mentions: context.mentions, namesOnly: context.namesOnly, language: cache.language };
  if (cited.length > 0) {
    // Sentences of the cited prose (a sentence may run over several lines), and each line (code included).
    const ranked = rank(terms, lines && lines.length > 0 ? [...sentencesOf(lines, cache), ...lines] : cited);
    result.candidates = cited.map((item) => item.fact);
    result.closest = ranked[0]?.item.fact;
    result.support = support(terms.words, wordsOf(cited));
    // A lead-in framing the cited sentence after it ("The two mechanisms solve different problems."): nothing
    // specific of its own to find in the lines — still checked for a negation they contradict.
    if (claim.leadsIn && terms.words.length <= LEAD_IN_WORDS && terms.numbers.length === 0 && terms.dates.length === 0 && terms.names.length === 0) result.support = 1;
    const problem = check({
      ...base,
      pool: cited,
      ranked,
      support: result.support,
      cited: true,
      definesAcronym: (acronym) => definesAcronym(evidence, cited, acronym),
      header: () => context.header(claim.citations.map((citation) => citation.file)),
    });
    if (problem) result.problem = problem.kind === 'unsupported-number' ? problem : { kind: 'miscited', reason: problem.reason, sure: problem.sure };
    if (problem?.kind === 'ungrounded' && problem.anchor) result.closest = problem.anchor;
    return result;
  }
  const ranked = rankByPostings(terms, evidence.postings, NUMBER_CANDIDATES);
  const closest = ranked.slice(0, CLOSEST).map((r) => r.item);
  result.candidates = closest.map((item) => item.fact);
  result.closest = closest[0]?.fact;
  result.support = support(terms.words, wordsOf(closest));
  const problem = check({
    ...base,
    pool: ranked.map((r) => r.item),
    ranked: ranked.slice(0, CLOSEST),
    support: result.support,
    cited: false,
    definesAcronym: (acronym) => definesAcronym(evidence, closest, acronym),
    header: () => context.header([...evidence.bySource.keys()]),
  });
  if (problem) result.problem = problem;
  return result;
}

/** The first lines of `files` (a document's title, authors and date): read from the source when a reader has it, else the facts stated there. */
function headerOf(evidence: Evidence, files: readonly string[], read?: SourceLinesReader, cache?: GroundingCache): Analysed[] {
  return [...new Set(files)].flatMap((file) => {
    const lines = read?.(file);
    if (lines && cache) return lines.slice(0, HEADER_LINES).flatMap((text, index) => (text.trim() === '' ? [] : [cache.lineItem(file, index + 1, text)]));
    return (evidence.bySource.get(file)?.facts ?? []).filter((item) => (item.fact.lineStart ?? Number.POSITIVE_INFINITY) <= HEADER_LINES);
  });
}

