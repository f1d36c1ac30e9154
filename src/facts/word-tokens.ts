/**
 * The one tokenizer of the grounding check, for sentences, facts and questions alike:
 * content words stemmed and numbered, negation, numbers and capitalised names. Lint
 * tokenises every sentence of every page, so words are small integers (compared and
 * looked up without hashing strings) and plain ASCII text is scanned by hand.
 */

export interface Tokens {
  /** Ids of the distinct content-word stems, in first-occurrence order. */
  words: number[];
  negated: boolean;
  numbers: string[];
  /** Ids of the stems of capitalised words past the first token, repeats kept. */
  names: number[];
}

const STOP_WORDS = new Set(
  'a an the of in on at to for by with from as and or but is are was were be been being it its this that these those which who whom whose than then there their they he she we you i his her our your into onto over under about after before between during also has have had do does did can could may might will would shall should such so very more most less least other some any each all both either neither'.split(
    ' ',
  ),
);
const NEGATIONS = new Set(['not', 'no', 'never', 'none', 'nor', 'without', 'cannot', "n't", 'neither']);
const QUESTION_WORDS = new Set(['what', 'when', 'where', 'why', 'how', 'whom', 'whose', 'which', 'who']);

/** Whether a word (lower case) carries no content: a question's "when did the" finds nothing. */
export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word) || NEGATIONS.has(word) || QUESTION_WORDS.has(word);
}

/** Numbers, years, percentages and decimals, in a comparable form (thousands separators dropped). */
export function numbersOf(text: string): string[] {
  return (text.match(/\d+(?:[.,]\d+)*/g) ?? []).map((n) => (n.includes(',') ? n.replace(/,(?=\d{3}\b)/g, '') : n));
}

/** What the tokenizer makes of one token; the same tokens recur on every page of a wiki. */
interface WordInfo {
  negation: boolean;
  /** Its stem's id, or -1 for a stop word or a negation (no content). */
  id: number;
  capitalised: boolean;
}

/** A letter or digit, then letters, digits and inner `'.-`, ending on a letter or digit. */
const TOKEN = /[\p{L}\p{N}][\p{L}\p{N}'.-]*[\p{L}\p{N}]|[\p{L}\p{N}]/gu;
const CAPITALISED = /^\p{Lu}/u;

function stem(word: string): string {
  return word.length > 4 ? word.replace(/(?:ies|es|s|ed|ing)$/u, '') : word;
}

const isAsciiAlnum = (code: number): boolean => (code >= 48 && code <= 57) || ((code | 32) >= 97 && (code | 32) <= 122);
const isInnerMark = (code: number): boolean => code === 39 || code === 45 || code === 46; // ' - .

/**
 * The tokens TOKEN finds in plain-ASCII text, scanned without the Unicode regex; undefined
 * when the text holds a character beyond ASCII (TOKEN's \p classes then decide).
 */
function asciiTokens(text: string): string[] | undefined {
  const tokens: string[] = [];
  const length = text.length;
  let i = 0;
  while (i < length) {
    const code = text.charCodeAt(i);
    if (code >= 128) return undefined;
    if (!isAsciiAlnum(code)) {
      i++;
      continue;
    }
    const start = i;
    let end = i + 1;
    for (i++; i < length; i++) {
      const next = text.charCodeAt(i);
      if (next >= 128) return undefined;
      if (isAsciiAlnum(next)) end = i + 1;
      else if (!isInnerMark(next)) break;
    }
    tokens.push(text.slice(start, end));
    // Trailing marks are not part of the token and cannot start one.
    i = end;
  }
  return tokens;
}

/**
 * Word ids and per-token analysis, kept across calls: one per lint (or per question), so
 * every page's sentences and every fact share one numbering.
 */
export class Vocabulary {
  private readonly known = new Map<string, WordInfo>();
  private readonly ids = new Map<string, number>();
  private readonly stems: string[] = [];
  /** Per word id, the call that last saw it: duplicates dropped without a Set per text. */
  private seenIn = new Uint32Array(1024);
  private call = 0;

  /** The stem a word id stands for. */
  stemOf(id: number): string {
    return this.stems[id] ?? '';
  }

  tokens(text: string): Tokens {
    const expanded = text.includes("n't") ? text.replace(/n't\b/g, ' not') : text;
    const raw = asciiTokens(expanded) ?? expanded.match(TOKEN) ?? [];
    const call = this.nextCall();
    const words: number[] = [];
    const names: number[] = [];
    let negated = false;
    for (let index = 0; index < raw.length; index++) {
      const info = this.infoOf(raw[index] as string);
      if (info.negation) negated = true;
      if (info.id < 0) continue;
      if (this.seenIn[info.id] !== call) {
        this.seenIn[info.id] = call;
        words.push(info.id);
      }
      if (index > 0 && info.capitalised) names.push(info.id);
    }
    return { words, negated, numbers: hasAsciiDigit(text) ? numbersOf(text) : [], names };
  }

  private nextCall(): number {
    if (this.call === 0xffffffff) {
      this.seenIn.fill(0);
      this.call = 0;
    }
    return ++this.call;
  }

  private infoOf(token: string): WordInfo {
    let info = this.known.get(token);
    if (!info) {
      const lower = token.toLowerCase();
      const negation = NEGATIONS.has(lower);
      const id = negation || STOP_WORDS.has(lower) ? -1 : this.idOf(stem(lower));
      info = { negation, id, capitalised: CAPITALISED.test(token) };
      this.known.set(token, info);
    }
    return info;
  }

  private idOf(word: string): number {
    let id = this.ids.get(word);
    if (id === undefined) {
      id = this.stems.length;
      this.stems.push(word);
      this.ids.set(word, id);
      if (id >= this.seenIn.length) {
        const grown = new Uint32Array(this.seenIn.length * 2);
        grown.set(this.seenIn);
        this.seenIn = grown;
      }
    }
    return id;
  }
}

function hasAsciiDigit(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 48 && code <= 57) return true;
  }
  return false;
}

/** Share of `question`'s content words (stemmed) that `text` holds: how a fact is scored against a question. */
export function wordOverlap(question: string, text: string): number {
  const vocabulary = new Vocabulary();
  const needles = vocabulary.tokens(question).words;
  if (needles.length === 0) return 0;
  const haystack = new Set(vocabulary.tokens(text).words);
  return needles.filter((word) => haystack.has(word)).length / needles.length;
}
