import { segmentText } from './segment.js';

/**
 * The grounding check: each claim-like sentence of a page against the facts of the
 * sources it cites. Pure: the caller hands in the page body and the candidate facts.
 */

export interface CandidateFact {
  id: string;
  text: string;
}

export interface SentenceGrounding {
  text: string;
  /** 1-based line in the page body. */
  line: number;
  support: number;
  closest?: CandidateFact;
  /** The facts holding most of its words, best first (at most five): what a repair draws on. */
  candidates: CandidateFact[];
  /** Why it is not supported, or undefined when it is. */
  problem?: { kind: 'ungrounded'; reason: string } | { kind: 'unsupported-number'; numbers: string[] };
}

export interface PageGrounding {
  sentences: SentenceGrounding[];
  /** Share of claim sentences that are supported; 1 for a page with no claims. */
  score: number;
}

/** Share of a sentence's content words its best fact must hold to support it. */
export const SUPPORT_THRESHOLD = 0.6;
/** How many of the best facts a sentence's numbers are looked for in. */
const NUMBER_CANDIDATES = 5;

const STOP_WORDS = new Set(
  'a an the of in on at to for by with from as and or but is are was were be been being it its this that these those which who whom whose than then there their they he she we you i his her our your into onto over under about after before between during also has have had do does did can could may might will would shall should such so very more most less least other some any each all both either neither'.split(
    ' ',
  ),
);
const NEGATIONS = new Set(['not', 'no', 'never', 'none', 'nor', 'without', 'cannot', "n't", 'neither']);

export interface Tokens {
  words: Set<string>;
  negated: boolean;
  numbers: string[];
  names: string[];
}

/** Whether a word (lower case) carries no content: a question's "when did the" finds nothing. */
export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word) || NEGATIONS.has(word) || QUESTION_WORDS.has(word);
}
const QUESTION_WORDS = new Set(['what', 'when', 'where', 'why', 'how', 'whom', 'whose', 'which', 'who']);

/** Share of `question`'s content words (stemmed) that `text` holds: how a fact is scored against a question. */
export function wordOverlap(question: string, text: string): number {
  const words = tokensOf(question).words;
  return words.size === 0 ? 0 : recall(words, tokensOf(text).words);
}

/** What the tokenizer makes of one token; the same tokens recur on every page of a wiki. */
interface WordInfo {
  negation: boolean;
  /** Its stem, or undefined for a stop word or a negation (no content). */
  stem: string | undefined;
  capitalised: boolean;
}

const TOKEN = /[\p{L}\p{N}][\p{L}\p{N}'.-]*[\p{L}\p{N}]|[\p{L}\p{N}]/gu;
const CAPITALISED = /^\p{Lu}/u;

function wordInfo(token: string): WordInfo {
  const lower = token.toLowerCase();
  const negation = NEGATIONS.has(lower);
  return { negation, stem: negation || STOP_WORDS.has(lower) ? undefined : stem(lower), capitalised: CAPITALISED.test(token) };
}

/**
 * The one tokenizer of the grounding check, for sentences and facts alike. `known` keeps
 * each token's analysis across calls: lint tokenises every sentence of every page.
 */
function tokensOf(text: string, known?: Map<string, WordInfo>): Tokens {
  const raw = (text.includes("n't") ? text.replace(/n't\b/g, ' not') : text).match(TOKEN) ?? [];
  const words = new Set<string>();
  let negated = false;
  const names: string[] = [];
  for (let index = 0; index < raw.length; index++) {
    const token = raw[index] as string;
    let info = known?.get(token);
    if (!info) {
      info = wordInfo(token);
      known?.set(token, info);
    }
    if (info.negation) negated = true;
    if (info.stem === undefined) continue;
    words.add(info.stem);
    if (index > 0 && info.capitalised) names.push(info.stem);
  }
  return { words, negated, numbers: numbersOf(text), names };
}

function stem(word: string): string {
  return word.length > 4 ? word.replace(/(?:ies|es|s|ed|ing)$/u, '') : word;
}

/** Numbers, years, percentages and decimals, in a comparable form (thousands separators dropped). */
export function numbersOf(text: string): string[] {
  return (text.match(/\d+(?:[.,]\d+)*/g) ?? []).map((n) => (n.includes(',') ? n.replace(/,(?=\d{3}\b)/g, '') : n));
}

const LIST_LINE = /^\s*(?:[-*+]|\d+[.)])\s/;
const LINK_LINE = /^\s*\[\[/;

/** Lines of a body that are not claims: link lists, bare links, block quotes of other pages. */
function blankNonClaims(body: string): string {
  return body
    .split('\n')
    .map((line) => {
      if (!LIST_LINE.test(line) && !LINK_LINE.test(line)) return line;
      const withoutLinks = line.replace(/\[\[[^\]]*\]\]|\[[^\]]*\]\([^)]*\)/g, '');
      const words = withoutLinks.match(/\p{L}+/gu) ?? [];
      return withoutLinks !== line && words.length < 4 ? '' : line;
    })
    .join('\n');
}

/** The candidate facts of one set of sources, tokenised and indexed by word: built once per set per lint. */
interface FactIndex {
  facts: readonly { fact: CandidateFact; tokens: Tokens }[];
  /** Which facts hold each word: a sentence's support is counted from its words' postings. */
  postings: ReadonlyMap<string, readonly number[]>;
  /** Fact indices by id (then position): the order ties are broken in. */
  byId: readonly number[];
  /** Scratch counts, one per fact, zero between sentences. */
  held: Uint32Array;
}

/**
 * What one lint keeps across pages: each fact tokenised once, each set of sources' facts
 * indexed once (many pages cite the same sources), each token analysed once.
 */
export class GroundingCache {
  readonly words = new Map<string, WordInfo>();
  private readonly factTokens = new Map<string, Tokens>();
  private readonly indexes = new WeakMap<readonly CandidateFact[], FactIndex>();

  tokens(text: string): Tokens {
    return tokensOf(text, this.words);
  }

  /** The index of `facts`, kept for as long as the caller keeps that same array. */
  indexOf(facts: readonly CandidateFact[]): FactIndex {
    let index = this.indexes.get(facts);
    if (!index) {
      index = this.build(facts);
      this.indexes.set(facts, index);
    }
    return index;
  }

  private build(candidates: readonly CandidateFact[]): FactIndex {
    const facts = candidates.map((fact) => {
      let tokens = this.factTokens.get(fact.text);
      if (!tokens) {
        tokens = this.tokens(fact.text);
        this.factTokens.set(fact.text, tokens);
      }
      return { fact, tokens };
    });
    const postings = new Map<string, number[]>();
    facts.forEach(({ tokens }, index) => {
      for (const word of tokens.words) {
        const list = postings.get(word);
        if (list) list.push(index);
        else postings.set(word, [index]);
      }
    });
    const byId = facts.map((_, index) => index).sort((a, b) => compareIds(facts[a]?.fact.id ?? '', facts[b]?.fact.id ?? '') || a - b);
    return { facts, postings, byId, held: new Uint32Array(facts.length) };
  }
}

const compareIds = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export function groundPage(body: string, facts: readonly CandidateFact[], cache: GroundingCache = new GroundingCache()): PageGrounding {
  const index = cache.indexOf(facts);
  const sentences = segmentText(blankNonClaims(body), 'sentence').map((segment) => groundSentence(segment.text, segment.lineStart, cache.tokens(segment.text), index));
  const supported = sentences.filter((s) => s.problem === undefined).length;
  return { sentences, score: sentences.length === 0 ? 1 : supported / sentences.length };
}

function groundSentence(text: string, line: number, sentence: Tokens, index: FactIndex): SentenceGrounding {
  const scored = bestFacts(sentence, index, NUMBER_CANDIDATES);
  const best = scored[0];
  const result: SentenceGrounding = { text, line, support: best?.support ?? 0, candidates: scored.map((c) => c.fact) };
  if (best) result.closest = best.fact;
  const candidates = scored.slice(0, NUMBER_CANDIDATES);
  const missingNumbers = sentence.numbers.filter((n) => !candidates.some((c) => c.tokens.numbers.includes(n)));
  if (missingNumbers.length > 0) {
    result.problem = { kind: 'unsupported-number', numbers: missingNumbers };
  } else if (!best || best.support < SUPPORT_THRESHOLD) {
    result.problem = { kind: 'ungrounded', reason: 'no fact of its sources says this' };
  } else if (best.tokens.negated !== sentence.negated) {
    result.problem = { kind: 'ungrounded', reason: sentence.negated ? 'it negates what its closest fact says' : 'its closest fact says the opposite' };
  } else {
    const missingNames = sentence.names.filter((name) => !best.tokens.words.has(name));
    if (missingNames.length > 0) result.problem = { kind: 'ungrounded', reason: `its closest fact does not name ${missingNames.join(', ')}` };
  }
  return result;
}

type Scored = { fact: CandidateFact; tokens: Tokens; support: number; at: number };

/**
 * The `count` facts that hold most of the sentence's words (recall), best first, ties by id
 * then position. Only the facts sharing a word with the sentence are scored; the rest all
 * score alike and fill what is left in id order.
 */
function bestFacts(sentence: Tokens, index: FactIndex, count: number): Scored[] {
  const { facts, postings, byId, held } = index;
  const touched: number[] = [];
  for (const word of sentence.words) {
    for (const at of postings.get(word) ?? []) {
      if (held[at] === 0) touched.push(at);
      held[at] = (held[at] ?? 0) + 1;
    }
  }
  const size = sentence.words.size;
  const top: Scored[] = [];
  const before = (support: number, id: string, at: number, b: Scored): boolean =>
    support > b.support || (support === b.support && (id < b.fact.id || (id === b.fact.id && at < b.at)));
  const offer = (at: number, support: number): void => {
    const entry = facts[at];
    if (!entry) return;
    const last = top[top.length - 1];
    if (top.length === count && last && !before(support, entry.fact.id, at, last)) return;
    let slot = top.length;
    while (slot > 0 && before(support, entry.fact.id, at, top[slot - 1] as Scored)) slot--;
    top.splice(slot, 0, { fact: entry.fact, tokens: entry.tokens, support, at });
    if (top.length > count) top.pop();
  };
  for (const at of touched) offer(at, (held[at] ?? 0) / size);
  // Facts sharing no word: support 0 (1 for a sentence with no content words, which every fact holds).
  for (let k = 0; k < byId.length && top.length < count; k++) {
    const at = byId[k] as number;
    if (held[at] === 0) offer(at, size === 0 ? 1 : 0);
  }
  for (const at of touched) held[at] = 0;
  return top;
}

function recall(needles: Set<string>, haystack: Set<string>): number {
  if (needles.size === 0) return 1;
  let found = 0;
  for (const word of needles) if (haystack.has(word)) found++;
  return found / needles.size;
}
