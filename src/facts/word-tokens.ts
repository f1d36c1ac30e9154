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
  numbers: readonly string[];
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

const NO_NUMBERS: readonly string[] = Object.freeze([]);

const isAsciiAlnum = (code: number): boolean => (code >= 48 && code <= 57) || ((code | 32) >= 97 && (code | 32) <= 122);
const isInnerMark = (code: number): boolean => code === 39 || code === 45 || code === 46; // ' - .

/** FNV-1a over UTF-16 code units, one step: tokens are hashed as they are scanned. */
const hashStep = (hash: number, code: number): number => Math.imul(hash ^ code, 16777619);
const HASH_SEED = 2166136261 | 0;

function hashOf(token: string): number {
  let hash = HASH_SEED;
  for (let i = 0; i < token.length; i++) hash = hashStep(hash, token.charCodeAt(i));
  return hash;
}

/**
 * Word ids and per-token analysis, kept across calls: one per lint (or per question), so
 * every page's sentences and every fact share one numbering. Tokens are looked up in an
 * open-addressing table straight from the text they are scanned in: a token seen before
 * costs no string.
 */
export class Vocabulary {
  private readonly ids = new Map<string, number>();
  private readonly stems: string[] = [];
  /** The distinct tokens seen, their hashes and analyses, by entry number. */
  private readonly tokenTexts: string[] = [];
  private readonly tokenInfos: WordInfo[] = [];
  private tokenHashes = new Int32Array(1024);
  /** Entry number + 1 per slot, 0 when empty. */
  private slots = new Int32Array(2048);
  /** Per word id, the call that last saw it: duplicates dropped without a Set per text. */
  private seenIn = new Uint32Array(1024);
  private call = 0;
  /** Scratch: the analyses of the text being tokenised, one per token. */
  private readonly scanned: WordInfo[] = [];

  /** The stem a word id stands for. */
  stemOf(id: number): string {
    return this.stems[id] ?? '';
  }

  tokens(text: string): Tokens {
    const expanded = text.includes("n't") ? text.replace(/n't\b/g, ' not') : text;
    const infos = this.asciiInfos(expanded) ? this.scanned : (expanded.match(TOKEN) ?? []).map((token) => this.infoAt(token, 0, token.length, hashOf(token)));
    const call = this.nextCall();
    const words: number[] = [];
    const names: number[] = [];
    let negated = false;
    for (let index = 0; index < infos.length; index++) {
      const info = infos[index] as WordInfo;
      if (info.negation) negated = true;
      if (info.id < 0) continue;
      if (this.seenIn[info.id] !== call) {
        this.seenIn[info.id] = call;
        words.push(info.id);
      }
      if (index > 0 && info.capitalised) names.push(info.id);
    }
    return { words, negated, numbers: hasAsciiDigit(text) ? numbersOf(text) : NO_NUMBERS, names };
  }

  /**
   * Into `scanned`, the analyses of the tokens TOKEN finds in plain-ASCII text, scanned
   * without the Unicode regex; false when the text holds a character beyond ASCII (TOKEN's
   * \p classes then decide).
   */
  private asciiInfos(text: string): boolean {
    const infos = this.scanned;
    infos.length = 0;
    const length = text.length;
    let i = 0;
    while (i < length) {
      const code = text.charCodeAt(i);
      if (code >= 128) return false;
      if (!isAsciiAlnum(code)) {
        i++;
        continue;
      }
      const start = i;
      let end = i + 1;
      let hash = hashStep(HASH_SEED, code);
      let hashToEnd = hash;
      for (i++; i < length; i++) {
        const next = text.charCodeAt(i);
        if (next >= 128) return false;
        if (isAsciiAlnum(next)) {
          hash = hashStep(hash, next);
          hashToEnd = hash;
          end = i + 1;
        } else if (isInnerMark(next)) {
          hash = hashStep(hash, next);
        } else {
          break;
        }
      }
      infos.push(this.infoAt(text, start, end, hashToEnd));
      // Trailing marks are not part of the token and cannot start one.
      i = end;
    }
    return true;
  }

  /** The analysis of the token `text[start, end)`, whose hash is `hash`. */
  private infoAt(text: string, start: number, end: number, hash: number): WordInfo {
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = (this.slots[slot] as number) - 1;
      if (entry < 0) return this.insert(slot, text.slice(start, end), hash);
      if (this.tokenHashes[entry] === hash && sameText(this.tokenTexts[entry] as string, text, start, end)) return this.tokenInfos[entry] as WordInfo;
    }
  }

  private insert(slot: number, token: string, hash: number): WordInfo {
    const lower = token.toLowerCase();
    const negation = NEGATIONS.has(lower);
    const id = negation || STOP_WORDS.has(lower) ? -1 : this.idOf(stem(lower));
    const info: WordInfo = { negation, id, capitalised: CAPITALISED.test(token) };
    const entry = this.tokenTexts.length;
    this.tokenTexts.push(token);
    this.tokenInfos.push(info);
    if (entry >= this.tokenHashes.length) this.tokenHashes = grown(this.tokenHashes);
    this.tokenHashes[entry] = hash;
    this.slots[slot] = entry + 1;
    if ((entry + 1) * 2 > this.slots.length) this.rehash();
    return info;
  }

  /** Twice the slots, every entry placed again: the table stays at most half full. */
  private rehash(): void {
    this.slots = new Int32Array(this.slots.length * 2);
    const mask = this.slots.length - 1;
    for (let entry = 0; entry < this.tokenTexts.length; entry++) {
      let slot = (this.tokenHashes[entry] as number) & mask;
      while (this.slots[slot] !== 0) slot = (slot + 1) & mask;
      this.slots[slot] = entry + 1;
    }
  }

  private nextCall(): number {
    if (this.call === 0xffffffff) {
      this.seenIn.fill(0);
      this.call = 0;
    }
    return ++this.call;
  }

  private idOf(word: string): number {
    let id = this.ids.get(word);
    if (id === undefined) {
      id = this.stems.length;
      this.stems.push(word);
      this.ids.set(word, id);
      if (id >= this.seenIn.length) this.seenIn = grown(this.seenIn);
    }
    return id;
  }
}

function grown<T extends Int32Array | Uint32Array>(array: T): T {
  const larger = new (array.constructor as new (length: number) => T)(array.length * 2);
  larger.set(array);
  return larger;
}

function sameText(token: string, text: string, start: number, end: number): boolean {
  if (token.length !== end - start) return false;
  for (let i = 0; i < token.length; i++) if (token.charCodeAt(i) !== text.charCodeAt(start + i)) return false;
  return true;
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
