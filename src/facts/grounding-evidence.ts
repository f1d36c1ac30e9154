import { claimTerms, type ClaimTerms } from './claim-terms.js';
import type { ClaimCitation } from './claims.js';
import { MentionIndex } from './grounding-names.js';
import { segmentText } from './segment.js';
import type { GroundingLanguage } from './grounding-language.js';

/** The evidence the grounding check reads: facts and cited lines, each analysed once per lint. */

export interface CandidateFact {
  id: string;
  text: string;
  /** Where it is stated, when known: what a citation's lines are matched with. */
  source?: string;
  lineStart?: number;
  lineEnd?: number;
}

/** Lines either side of a cited range whose facts count as the citation's. */
export const CITATION_SLACK = 3;

export interface Analysed {
  fact: CandidateFact;
  terms: ClaimTerms;
  words: ReadonlySet<string>;
}

export interface Evidence {
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
export interface SourceLines {
  facts: Analysed[];
}

/** The text lines of a cited file (index 0 is line 1), or undefined when it cannot be read. */
export type SourceLinesReader = (file: string) => readonly string[] | undefined;

/**
 * Each text's terms, analysed once: as evidence (`termsOf`) and as a claim (`claimTermsOf`).
 * A function of the text alone, so one caller may keep it from check to check.
 */
export class TermAnalyses {
  private readonly asEvidence = new Map<string, ClaimTerms>();
  private readonly asClaim = new Map<string, ClaimTerms>();

  /** `language`: the pages' language (grounding-language.ts); undefined, English, read as it always was. */
  constructor(readonly language?: GroundingLanguage) {}

  /**
   * Evidence's terms. In another language evidence is read both ways, as written and in the
   * page's language: a German page may cite an English source ("1,000") or a German one
   * ("1.000"), and a number either reading states is stated.
   */
  termsOf(text: string): ClaimTerms {
    let terms = this.asEvidence.get(text);
    if (!terms) {
      const plain = claimTerms(text, true);
      const normalised = this.language?.normalise(text);
      this.asEvidence.set(text, (terms = normalised === undefined || normalised === text ? plain : bothReadings(plain, claimTerms(normalised, true))));
    }
    return terms;
  }

  /** A claim's terms (read strictly, not as evidence), in the pages' language. */
  claimTermsOf(text: string): ClaimTerms {
    let terms = this.asClaim.get(text);
    if (!terms) this.asClaim.set(text, (terms = claimTerms(this.language ? this.language.normalise(text) : text)));
    return terms;
  }
}

/**
 * What one lint keeps across pages: each fact and each cited line analysed once, each
 * source's facts ordered once. Its file reads depend on what the checked pages cite, so it
 * lives for one check; only `terms` may be shared beyond it.
 */
export class GroundingCache {
  /**
   * `language`: the language of the pages this cache grounds; `terms`: the texts' analyses in
   * it, which a caller checking page after page may keep (they depend on the text alone).
   */
  constructor(
    readonly language?: GroundingLanguage,
    private readonly terms: TermAnalyses = new TermAnalyses(language),
  ) {}

  /** What the sources write, token by token: a name they never mention is what the check is surest of. */
  readonly mentionIndex = new MentionIndex();
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

  /** A claim's terms (read strictly, not as evidence), analysed once per lint: pages repeat sentences. */
  claimTermsOf(text: string): ClaimTerms {
    return this.terms.claimTermsOf(text);
  }

  /** Evidence's terms (see TermAnalyses.termsOf). */
  termsOf(text: string): ClaimTerms {
    return this.terms.termsOf(text);
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

/** The non-blank lines a claim cites, with the slack either side (code and tables included: a claim may describe them). */
export function citedLines(citations: readonly ClaimCitation[], read: SourceLinesReader, cache: GroundingCache): Analysed[] {
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
export function sentencesOf(lines: readonly Analysed[], cache: GroundingCache): Analysed[] {
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
export function citedFacts(citations: readonly ClaimCitation[], bySource: ReadonlyMap<string, SourceLines>): Analysed[] {
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

/** Evidence read two ways: whatever either reading holds, it holds. */
function bothReadings(a: ClaimTerms, b: ClaimTerms): ClaimTerms {
  const union = <T>(x: readonly T[], y: readonly T[]): T[] => [...new Set([...x, ...y])];
  return {
    words: union(a.words, b.words),
    numbers: union(a.numbers, b.numbers),
    namedNumbers: union(a.namedNumbers, b.namedNumbers),
    identifiers: union(a.identifiers, b.identifiers),
    // A month a wrong reading found where the right one found its day ("9. August 2016" read in English as August 2016) dates nothing.
    dates: union(a.dates, b.dates).filter((date, _index, all) => date.length > 7 || !all.some((other) => other.length > 7 && other.startsWith(date))),
    names: union(a.names, b.names),
    acronyms: union(a.acronyms, b.acronyms),
    negated: a.negated || b.negated,
    negatedWords: union(a.negatedWords, b.negatedWords),
    followingNegation: union(a.followingNegation, b.followingNegation),
    contrasted: a.contrasted || b.contrasted,
  };
}
