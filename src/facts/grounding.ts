import { segmentText } from './segment.js';
import { Vocabulary, type Tokens } from './word-tokens.js';

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
interface IndexedFact {
  fact: CandidateFact;
  tokens: Tokens;
}

interface FactIndex {
  facts: readonly IndexedFact[];
  /** Which facts hold each word id: a sentence's support is counted from its words' postings. */
  postings: ReadonlyMap<number, readonly number[]>;
  /** Fact indices by id (then position): the order ties are broken in. */
  byId: readonly number[];
  /** Each fact's place in `byId`: ties compared as one integer. */
  rank: Uint32Array;
  /** Scratch counts, one per fact, zero between sentences. */
  held: Uint32Array;
  /** Scratch: the facts a sentence's words reach, in the order reached. */
  touched: Uint32Array;
}

/**
 * What one lint keeps across pages: each fact tokenised once, each set of sources' facts
 * indexed once (many pages cite the same sources), each token analysed once.
 */
export class GroundingCache {
  readonly vocabulary = new Vocabulary();
  private readonly factTokens = new Map<string, Tokens>();
  private readonly indexes = new WeakMap<readonly CandidateFact[], FactIndex>();

  tokens(text: string): Tokens {
    return this.vocabulary.tokens(text);
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
    const postings = new Map<number, number[]>();
    facts.forEach(({ tokens }, index) => {
      for (const word of tokens.words) {
        const list = postings.get(word);
        if (list) list.push(index);
        else postings.set(word, [index]);
      }
    });
    const byId = facts.map((_, index) => index).sort((a, b) => compareIds(facts[a]?.fact.id ?? '', facts[b]?.fact.id ?? '') || a - b);
    const rank = new Uint32Array(facts.length);
    byId.forEach((at, place) => (rank[at] = place));
    return { facts, postings, byId, rank, held: new Uint32Array(facts.length), touched: new Uint32Array(facts.length) };
  }
}

const compareIds = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export function groundPage(body: string, facts: readonly CandidateFact[], cache: GroundingCache = new GroundingCache()): PageGrounding {
  const index = cache.indexOf(facts);
  const sentences = segmentText(blankNonClaims(body), 'sentence').map((segment) =>
    groundSentence(segment.text, segment.lineStart, cache.tokens(segment.text), index, cache.vocabulary),
  );
  const supported = sentences.filter((s) => s.problem === undefined).length;
  return { sentences, score: sentences.length === 0 ? 1 : supported / sentences.length };
}

function groundSentence(text: string, line: number, sentence: Tokens, index: FactIndex, vocabulary: Vocabulary): SentenceGrounding {
  const { top, support } = bestFacts(sentence, index, NUMBER_CANDIDATES);
  const scored = top.map((at) => index.facts[at] as IndexedFact);
  const best = scored[0];
  const result: SentenceGrounding = { text, line, support, candidates: scored.map((c) => c.fact) };
  if (best) result.closest = best.fact;
  const missingNumbers = sentence.numbers.filter((n) => !scored.some((c) => c.tokens.numbers.includes(n)));
  if (missingNumbers.length > 0) {
    result.problem = { kind: 'unsupported-number', numbers: missingNumbers };
  } else if (!best || support < SUPPORT_THRESHOLD) {
    result.problem = { kind: 'ungrounded', reason: 'no fact of its sources says this' };
  } else if (best.tokens.negated !== sentence.negated) {
    result.problem = { kind: 'ungrounded', reason: sentence.negated ? 'it negates what its closest fact says' : 'its closest fact says the opposite' };
  } else {
    const missingNames = sentence.names.filter((name) => !best.tokens.words.includes(name));
    if (missingNames.length > 0) result.problem = { kind: 'ungrounded', reason: `its closest fact does not name ${missingNames.map((id) => vocabulary.stemOf(id)).join(', ')}` };
  }
  return result;
}

/**
 * The `count` facts that hold most of the sentence's words (recall), best first, ties by id
 * then position, and the best one's support (0 when there is none). Only the facts sharing
 * a word with the sentence are counted and ranked (by count, which orders them as their
 * recall does); the rest all score alike and fill what is left in id order.
 */
function bestFacts(sentence: Tokens, index: FactIndex, count: number): { top: number[]; support: number } {
  const { postings, byId, rank, held, touched } = index;
  let touchedCount = 0;
  for (const word of sentence.words) {
    const list = postings.get(word);
    if (!list) continue;
    for (const at of list) {
      if (held[at] === 0) touched[touchedCount++] = at;
      held[at] = (held[at] as number) + 1;
    }
  }
  // The best `count` touched facts, kept sorted: more words held first, then lower rank.
  const top: number[] = [];
  for (let k = 0; k < touchedCount; k++) {
    const at = touched[k] as number;
    const full = top.length === count;
    if (full && !outranks(at, top[count - 1] as number, held, rank)) continue;
    let slot = full ? count - 1 : top.length;
    while (slot > 0 && outranks(at, top[slot - 1] as number, held, rank)) {
      top[slot] = top[slot - 1] as number;
      slot--;
    }
    top[slot] = at;
  }
  const size = sentence.words.length;
  // Facts sharing no word: support 0 (1 for a sentence with no content words, which every fact holds),
  // below every touched fact, so they follow in id order.
  const support = top.length > 0 ? (held[top[0] as number] as number) / size : byId.length > 0 && size === 0 ? 1 : 0;
  for (let k = 0; k < byId.length && top.length < count; k++) {
    const at = byId[k] as number;
    if (held[at] === 0) top.push(at);
  }
  for (let k = 0; k < touchedCount; k++) held[touched[k] as number] = 0;
  return { top, support };
}

/** Whether fact `a` ranks above fact `b`: more of the sentence's words held, then first by id. */
function outranks(a: number, b: number, held: Uint32Array, rank: Uint32Array): boolean {
  const words = held[a] as number;
  const other = held[b] as number;
  return words > other || (words === other && (rank[a] as number) < (rank[b] as number));
}
