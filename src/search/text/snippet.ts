import { analyze, mayHoldTerms } from './analyze.js';

/**
 * A short passage of a page for a result: the sentence that holds the most of the query's
 * words (the first such sentence on a tie), cut to a window around the first match when
 * long. Without a match, the page's opening sentence.
 */
export const SNIPPET_LENGTH = 200;

/** `language`: the page's (its sentences are analysed as the index analysed it). */
export function makeSnippet(body: string, queryTerms: readonly string[], maxLength = SNIPPET_LENGTH, language?: string): string {
  const sentences = sentencesOf(body);
  if (sentences.length === 0) return '';
  const wanted = new Set(queryTerms);
  let best = sentences[0] ?? '';
  let bestScore = 0;
  if (wanted.size > 0) {
    const found: string[] = [];
    const terms = [...wanted];
    for (const sentence of sentences) {
      // A sentence without a query term never becomes the snippet: most are passed over unstemmed.
      if (!mayHoldTerms(sentence, terms)) continue;
      found.length = 0;
      for (const term of analyze(sentence, language)) if (wanted.has(term) && !found.includes(term)) found.push(term);
      if (found.length > bestScore) {
        best = sentence;
        bestScore = found.length;
        if (found.length === wanted.size) break;
      }
    }
  }
  return bestScore > 0 ? windowAround(best, wanted, maxLength, language) : clip(best, maxLength);
}

const FENCE = /^\s*(```|~~~)/;
const LIST_OR_HEADING = /^\s{0,3}(#{1,6}\s+|[-*+]\s+|\d+[.)]\s+|>\s?)/;
const FULL_STOP = 46;
const EXCLAMATION = 33;
const QUESTION = 63;
/** 。！？ end a sentence with no space after. */
const isCjkStop = (code: number): boolean => code === 0x3002 || code === 0xff01 || code === 0xff1f;

/**
 * The body's sentences without markdown. Most lines are plain prose, so each rewrite is
 * tried only where a cheap look says it could change something.
 */
function sentencesOf(body: string): string[] {
  const out: string[] = [];
  let inFence = false;
  for (const rawLine of body.split('\n')) {
    if ((rawLine.includes('```') || rawLine.includes('~~~')) && FENCE.test(rawLine)) {
      inFence = !inFence;
      continue;
    }
    if (inFence) continue;
    let line = mayOpenWithMarker(rawLine) ? rawLine.replace(LIST_OR_HEADING, '') : rawLine;
    if (line.includes('*') || line.includes('_') || line.includes('`')) line = withoutEmphasis(line);
    if (line.includes('](')) line = line.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
    // Every run of white space becomes one space; a lone space already is one.
    if (hasSpaceToTidy(line)) line = line.replace(/\s{2,}|[^\S ]/g, ' ');
    line = line.trim();
    if (!line || (isRuleStart(line.charCodeAt(0)) && /^[-|:\s]+$/.test(line))) continue;
    splitSentences(line, out);
  }
  return out;
}

/**
 * The line without markdown's emphasis and code marks, its words as written: a code span's
 * text is kept whole (`` `no_type_check` `` reads no_type_check), and `*` or `_` go only
 * where they open or close emphasis, never inside a word (`TYPE_CHECKING`, `**False**`).
 */
function withoutEmphasis(line: string): string {
  let out = '';
  let from = 0;
  for (const span of line.matchAll(CODE_SPAN)) {
    out += line.slice(from, span.index).replace(EMPHASIS, '') + (span[2] ?? '').trim();
    from = (span.index ?? 0) + span[0].length;
  }
  return out + line.slice(from).replace(EMPHASIS, '');
}

/** A code span: a run of backticks, its text, and a run as long. */
const CODE_SPAN = /(?<!`)(`+)(?!`)(.*?[^`])\1(?!`)/g;
/** A run of `*` or `_` not between two letters or digits, and any stray backtick. */
const EMPHASIS = /(?<![\p{L}\p{N}])[*_]+|[*_]+(?![\p{L}\p{N}])|`+/gu;

/** Whether LIST_OR_HEADING could match: up to three spaces, then # - * + > or a digit. */
function mayOpenWithMarker(line: string): boolean {
  let i = 0;
  while (i < 3 && isSpace(line.charCodeAt(i))) i++;
  const code = line.charCodeAt(i);
  return code === 35 || code === 45 || code === 42 || code === 43 || code === 62 || (code >= 48 && code <= 57);
}

/** - | or : (a table rule or divider line starts with one). */
const isRuleStart = (code: number): boolean => code === 45 || code === 124 || code === 58;

/** Whether the line has white space other than lone spaces. */
function hasSpaceToTidy(line: string): boolean {
  for (let i = 0; i < line.length; i++) {
    const code = line.charCodeAt(i);
    if (code === 32) {
      if (isSpace(line.charCodeAt(i + 1))) return true;
    } else if (isSpace(code)) return true;
  }
  return false;
}

/** What /\s/ matches (NaN, past the end, is not). */
function isSpace(code: number): boolean {
  if (code <= 32) return code === 32 || (code >= 9 && code <= 13);
  if (code < 0xa0) return false;
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/**
 * The sentences of a line whose white space is single spaces: a space after . ! or ? ends
 * one, and so does 。！or ？ itself (as splitting on /(?<=[.!?])\s+|(?<=[。！？])/ would).
 */
function splitSentences(line: string, out: string[]): void {
  let start = 0;
  const push = (end: number): void => {
    const sentence = line.slice(start, end).trim();
    if (sentence) out.push(sentence);
  };
  for (let i = 0; i < line.length; i++) {
    const code = line.charCodeAt(i);
    if (code === 32 && i > 0) {
      const before = line.charCodeAt(i - 1);
      if (before === FULL_STOP || before === EXCLAMATION || before === QUESTION) {
        push(i);
        start = i + 1;
      }
    } else if (code > 0x3000 && isCjkStop(code)) {
      push(i + 1);
      start = i + 1;
    }
  }
  push(line.length);
}

function clip(text: string, maxLength: number): string {
  if (text.length <= maxLength) return text;
  const cut = text.slice(0, maxLength - 1);
  const space = cut.lastIndexOf(' ');
  return `${space > maxLength / 2 ? cut.slice(0, space) : cut}…`;
}

/** Cut a long sentence to a window that starts a little before its first matching word. */
function windowAround(sentence: string, wanted: Set<string>, maxLength: number, language: string | undefined): string {
  if (sentence.length <= maxLength) return sentence;
  let first = 0;
  for (const match of sentence.matchAll(/[\p{L}\p{M}\p{N}]+/gu)) {
    if (analyze(match[0], language).some((term) => wanted.has(term))) {
      first = match.index ?? 0;
      break;
    }
  }
  const start = Math.max(0, first - Math.floor(maxLength / 4));
  const from = start === 0 ? 0 : sentence.indexOf(' ', start) + 1 || start;
  const text = clip(sentence.slice(from), maxLength - (from > 0 ? 1 : 0));
  return from > 0 ? `…${text}` : text;
}
