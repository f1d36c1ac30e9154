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

function tokensOf(text: string): Tokens {
  const raw = text.replace(/n't\b/g, ' not').match(/[\p{L}\p{N}][\p{L}\p{N}'.-]*[\p{L}\p{N}]|[\p{L}\p{N}]/gu) ?? [];
  const words = new Set<string>();
  let negated = false;
  const names: string[] = [];
  raw.forEach((token, index) => {
    const lower = token.toLowerCase();
    if (NEGATIONS.has(lower)) negated = true;
    if (STOP_WORDS.has(lower) || NEGATIONS.has(lower)) return;
    words.add(stem(lower));
    if (index > 0 && /^\p{Lu}/u.test(token)) names.push(stem(lower));
  });
  return { words, negated, numbers: numbersOf(text), names };
}

function stem(word: string): string {
  return word.length > 4 ? word.replace(/(?:ies|es|s|ed|ing)$/u, '') : word;
}

/** Numbers, years, percentages and decimals, in a comparable form (thousands separators dropped). */
export function numbersOf(text: string): string[] {
  return (text.match(/\d+(?:[.,]\d+)*/g) ?? []).map((n) => n.replace(/,(?=\d{3}\b)/g, ''));
}

/** Lines of a body that are not claims: link lists, bare links, block quotes of other pages. */
function blankNonClaims(body: string): string {
  return body
    .split('\n')
    .map((line) => {
      if (!/^\s*(?:[-*+]|\d+[.)])\s/.test(line) && !/^\s*\[\[/.test(line)) return line;
      const withoutLinks = line.replace(/\[\[[^\]]*\]\]|\[[^\]]*\]\([^)]*\)/g, '');
      const words = withoutLinks.match(/\p{L}+/gu) ?? [];
      return withoutLinks !== line && words.length < 4 ? '' : line;
    })
    .join('\n');
}

/** Facts' tokens by text, kept across the pages of one lint: many pages cite the same sources. */
export type TokenCache = Map<string, Tokens>;

export function groundPage(body: string, facts: readonly CandidateFact[], cache: TokenCache = new Map()): PageGrounding {
  const factTokens = facts.map((fact) => {
    let tokens = cache.get(fact.text);
    if (!tokens) {
      tokens = tokensOf(fact.text);
      cache.set(fact.text, tokens);
    }
    return { fact, tokens };
  });
  // Which facts hold each word: a sentence's support is counted from its words' postings,
  // not by looking every word up in every fact.
  const postings = new Map<string, number[]>();
  factTokens.forEach(({ tokens }, index) => {
    for (const word of tokens.words) {
      const list = postings.get(word);
      if (list) list.push(index);
      else postings.set(word, [index]);
    }
  });
  const sentences = segmentText(blankNonClaims(body), 'sentence').map((segment) => groundSentence(segment.text, segment.lineStart, factTokens, postings));
  const supported = sentences.filter((s) => s.problem === undefined).length;
  return { sentences, score: sentences.length === 0 ? 1 : supported / sentences.length };
}

function groundSentence(
  text: string,
  line: number,
  facts: readonly { fact: CandidateFact; tokens: Tokens }[],
  postings: ReadonlyMap<string, readonly number[]>,
): SentenceGrounding {
  const sentence = tokensOf(text);
  const scored = bestFacts(sentence, facts, postings, NUMBER_CANDIDATES);
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

type Scored = { fact: CandidateFact; tokens: Tokens; support: number };

/**
 * The `count` facts that hold most of the sentence's words, best first (ties by id). A
 * top-k pass, not a sort of every candidate: lint grounds every sentence of every page.
 */
function bestFacts(
  sentence: Tokens,
  facts: readonly { fact: CandidateFact; tokens: Tokens }[],
  postings: ReadonlyMap<string, readonly number[]>,
  count: number,
): Scored[] {
  // The share of the sentence's words each fact holds (recall), counted through the postings.
  const held = new Uint16Array(facts.length);
  for (const word of sentence.words) for (const index of postings.get(word) ?? []) held[index] = (held[index] ?? 0) + 1;
  const size = sentence.words.size;
  const top: Scored[] = [];
  const before = (support: number, id: string, b: Scored): boolean => support > b.support || (support === b.support && id < b.fact.id);
  facts.forEach(({ fact, tokens }, index) => {
    const support = size === 0 ? 1 : (held[index] ?? 0) / size;
    const last = top[top.length - 1];
    if (top.length === count && last && !before(support, fact.id, last)) return;
    let at = top.length;
    while (at > 0 && before(support, fact.id, top[at - 1] as Scored)) at--;
    top.splice(at, 0, { fact, tokens, support });
    if (top.length > count) top.pop();
  });
  return top;
}

function recall(needles: Set<string>, haystack: Set<string>): number {
  if (needles.size === 0) return 1;
  let found = 0;
  for (const word of needles) if (haystack.has(word)) found++;
  return found / needles.size;
}
