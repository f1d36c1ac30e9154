import { claimsOf, type Claim, type ClaimCitation } from './claims.js';
import { claimTerms, type ClaimTerms } from './claim-terms.js';
import { segmentText } from './segment.js';

/**
 * The grounding check: each claim of a page against its evidence. A claim that cites lines
 * (`<!-- from: raw/x.md#L10-20 -->`) is checked against the facts stated on those lines (a
 * few lines of slack either side); a claim without a citation against the facts of its
 * page's sources. Pure: the caller hands in the page body and the candidate facts, with
 * where each is stated when known.
 *
 * Paraphrase is support: words are compared as stems, in any order, a shorter stem
 * matching a longer one it begins ("verifi" ~ "verification"). What is flagged is what
 * the evidence does not say: a number or date it does not hold, a name it does not
 * mention, a negation it lacks, or too few of the claim's words at all.
 */

export interface CandidateFact {
  id: string;
  text: string;
  /** Where it is stated, when known: what a citation's lines are matched with. */
  source?: string;
  lineStart?: number;
  lineEnd?: number;
}

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
/** Lines either side of a cited range whose facts count as the citation's. */
export const CITATION_SLACK = 3;
/** How many of the closest facts an uncited claim is matched against. */
const CLOSEST = 3;
/** How many of the closest facts its numbers may come from. */
const NUMBER_CANDIDATES = 5;
/** Overlap above which a negated fact saying the same words is the claim's opposite. */
const SAME_WORDS = 0.8;
/** Words a piece of evidence must share with a claim to count as near it (with the two closest). */
const NEAR_WORDS = 2;
/** A claim with fewer content words states nothing checkable. */
const MIN_WORDS = 3;
/** A stem shorter than this matches only itself. */
const PREFIX_MIN = 4;

interface Analysed {
  fact: CandidateFact;
  terms: ClaimTerms;
  words: ReadonlySet<string>;
}

interface Evidence {
  all: Analysed[];
  bySource: Map<string, SourceLines>;
  /** Every word the facts hold: a name none of them mentions is not from the sources. */
  words: Set<string>;
  /** Every number they state: a number that is part of a name ("RFC 9110") is checked against all of them. */
  numbers: Set<number>;
  /** Which facts hold each word: an uncited claim's closest facts are counted from its words'. */
  postings: Map<string, Analysed[]>;
}

/** Facts of one source in line order, for a citation's window. */
interface SourceLines {
  facts: Analysed[];
}

/** The text lines of a cited file (index 0 is line 1), or undefined when it cannot be read. */
export type SourceLinesReader = (file: string) => readonly string[] | undefined;

/** What one lint keeps across pages: each fact and each cited line analysed once, each source's facts ordered once. */
export class GroundingCache {
  private readonly terms = new Map<string, ClaimTerms>();
  private readonly lineItems = new Map<string, Analysed>();

  private readonly sentenceRuns = new Map<string, Analysed[]>();

  /** The prose sentences of consecutive cited lines (blank lines between runs end a paragraph already). */
  sentenceItems(run: readonly Analysed[]): Analysed[] {
    const first = run[0]?.fact;
    const key = `${first?.source}\n${first?.lineStart}\n${run.length}`;
    let items = this.sentenceRuns.get(key);
    if (!items) {
      items = segmentText(run.map((line) => line.fact.text).join('\n'), 'sentence').map((segment) => {
        const terms = this.termsOf(segment.text);
        return { fact: { id: `${first?.source}#L${(first?.lineStart ?? 1) + segment.lineStart - 1}`, text: segment.text }, terms, words: new Set(terms.words) };
      });
      this.sentenceRuns.set(key, items);
    }
    return items;
  }

  /** Line `line` (1-based) of `file` as evidence, analysed once per lint. */
  lineItem(file: string, line: number, text: string): Analysed {
    const key = `${file}\n${line}`;
    let item = this.lineItems.get(key);
    if (!item) {
      const terms = this.termsOf(text);
      item = { fact: { id: `${file}#L${line}`, text: text.trim(), source: file, lineStart: line, lineEnd: line }, terms, words: new Set(terms.words) };
      this.lineItems.set(key, item);
    }
    return item;
  }
  private readonly analysed = new WeakMap<readonly CandidateFact[], Evidence>();

  termsOf(text: string): ClaimTerms {
    let terms = this.terms.get(text);
    if (!terms) this.terms.set(text, (terms = claimTerms(text, true)));
    return terms;
  }

  /** The analysis of `facts`, kept for as long as the caller keeps that same array. */
  analyse(facts: readonly CandidateFact[]): Evidence {
    let result = this.analysed.get(facts);
    if (!result) {
      const all = facts.map((fact) => {
        const terms = this.termsOf(fact.text);
        return { fact, terms, words: new Set(terms.words) };
      });
      const bySource = new Map<string, SourceLines>();
      const words = new Set<string>();
      const postings = new Map<string, Analysed[]>();
      for (const item of all) {
        for (const word of item.terms.words) {
          words.add(word);
          const list = postings.get(word);
          if (list) list.push(item);
          else postings.set(word, [item]);
        }
        if (item.fact.source === undefined || item.fact.lineStart === undefined) continue;
        const lines = bySource.get(item.fact.source) ?? { facts: [] };
        lines.facts.push(item);
        bySource.set(item.fact.source, lines);
      }
      for (const lines of bySource.values()) lines.facts.sort((a, b) => (a.fact.lineStart ?? 0) - (b.fact.lineStart ?? 0));
      const numbers = new Set(all.flatMap((item) => item.terms.numbers));
      result = { all, bySource, words, numbers, postings };
      this.analysed.set(facts, result);
    }
    return result;
  }
}

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
  const topicWords = new Set(claimTerms(topic).words.concat(claimTerms(topic).names));
  const sentences: SentenceGrounding[] = [];
  for (const claim of claimsOf(body)) {
    const all = claimTerms(claim.checked);
    const terms = { ...all, words: all.words.filter((word) => !topicWords.has(word)), names: all.names.filter((name) => !topicWords.has(name)) };
    if (all.words.length < MIN_WORDS && terms.numbers.length === 0 && terms.dates.length === 0) continue;
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
  const ranked = rank(terms, reached(terms, evidence.postings));
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
  if (terms.negated) {
    // What the claim says is not so: its evidence must say it is not so too. Against cited lines
    // (many small pieces, a sentence split over lines) any piece holding the word and a negation
    // will do, or a near one turning it around; against facts, the closest fact must.
    const units = cited ? [...pool, ...ranked.map((r) => r.item)] : ranked.slice(0, 1).map((r) => r.item);
    const scoped = terms.negatedWords.filter((word) => units.some((item) => item.words.has(word)));
    const denies = (item: Analysed, word: string): boolean => item.terms.negatedWords.includes(word);
    if (scoped.length > 0) {
      if (!scoped.some((word) => units.some((item) => item.words.has(word) && denies(item, word)))) return { kind: 'ungrounded', reason: `it negates what ${evidence} say${evidence.endsWith('s') ? '' : 's'}` };
    } else if (!(cited ? near : units).some((item) => item.terms.negated || (cited && item.terms.contrasted))) {
      return { kind: 'ungrounded', reason: `it negates what ${evidence} say${evidence.endsWith('s') ? '' : 's'}` };
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

/** The non-blank lines a claim cites, with the slack either side (code and tables included: a claim may describe them). */
function citedLines(citations: readonly ClaimCitation[], read: SourceLinesReader, cache: GroundingCache): Analysed[] {
  const found: Analysed[] = [];
  for (const citation of citations) {
    if (citation.first === undefined) continue;
    const file = citation.file.replace(/^\.\//, '');
    const lines = read(file);
    if (!lines) continue;
    const first = Math.max(1, citation.first - CITATION_SLACK);
    const last = Math.min(lines.length, (citation.last ?? citation.first) + CITATION_SLACK);
    for (let line = first; line <= last; line++) {
      const text = lines[line - 1] ?? '';
      if (text.trim() !== '') found.push(cache.lineItem(file, line, text));
    }
  }
  return found;
}

/** The sentences of a run of cited lines, analysed once per lint. */
function sentencesOf(lines: readonly Analysed[], cache: GroundingCache): Analysed[] {
  const found: Analysed[] = [];
  let run: Analysed[] = [];
  const flush = (): void => {
    if (run.length === 0) return;
    found.push(...cache.sentenceItems(run));
    run = [];
  };
  for (const line of lines) {
    const previous = run[run.length - 1];
    if (previous && (previous.fact.source !== line.fact.source || (previous.fact.lineStart ?? 0) + 1 < (line.fact.lineStart ?? 0))) flush();
    run.push(line);
  }
  flush();
  return found;
}

/** The facts stated on (or within the slack of) the lines a claim cites; a citation without lines cites the whole file. */
function citedFacts(citations: readonly ClaimCitation[], bySource: ReadonlyMap<string, SourceLines>): Analysed[] {
  const found = new Set<Analysed>();
  for (const citation of citations) {
    const lines = bySource.get(citation.file.replace(/^\.\//, ''));
    if (!lines) continue;
    const first = (citation.first ?? 1) - CITATION_SLACK;
    const last = citation.last === undefined ? Infinity : citation.last + CITATION_SLACK;
    for (const item of lines.facts) {
      if ((item.fact.lineStart ?? 0) > last) break;
      if ((item.fact.lineEnd ?? item.fact.lineStart ?? 0) >= first) found.add(item);
    }
  }
  return [...found];
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

/** The facts sharing a word with the claim, in the order first reached. */
function reached(terms: ClaimTerms, postings: ReadonlyMap<string, Analysed[]>): Analysed[] {
  const found = new Set<Analysed>();
  for (const word of terms.words) for (const item of postings.get(word) ?? []) found.add(item);
  return [...found];
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
  for (const other of words) {
    if (other.length < PREFIX_MIN) continue;
    if (other.length > word.length ? other.startsWith(word) : word.startsWith(other)) return true;
  }
  return false;
}

function formatNumber(value: number): string {
  return Number.isInteger(value) && Math.abs(value) >= 10000 ? value.toLocaleString('en') : String(value);
}
