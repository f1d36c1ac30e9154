/**
 * Deterministic, markdown-aware segmentation of a source's text into candidate facts.
 * Headings are not facts but the context of what follows them; fenced code, tables,
 * HTML comments (the readers' `<!-- page N -->` markers) and front matter are skipped.
 */

import { splitFrontmatter } from '../wiki/frontmatter-split.js';

export type FactGrain = 'sentence' | 'paragraph';

export interface Segment {
  text: string;
  /** 1-based, inclusive line range in the segmented text. */
  lineStart: number;
  lineEnd: number;
  /** The nearest heading above, '' when none. */
  heading: string;
}

interface Paragraph {
  lines: { text: string; line: number }[];
  heading: string;
}

const FENCE = /^\s{0,3}(`{3,}|~{3,})/;
const HEADING = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/;
const LIST_ITEM = /^\s*(?:[-*+]|\d+[.)])\s+/;
const TABLE_ROW = /^\s*\|/;
/** A markdown link reference definition (`[UAX31]: http://…`): where a link points, no sentence (a played review was handed 2 KB of them as a "fact"). */
const LINK_DEFINITION = /^ {0,3}\[[^\]]+\]:\s*\S+\s*(?:["'(].*["')])?\s*$/;
const MIN_WORDS = 3;

export function segmentText(text: string, grain: FactGrain): Segment[] {
  const segments: Segment[] = [];
  for (const paragraph of paragraphsOf(text)) {
    if (grain === 'paragraph') {
      const first = paragraph.lines[0];
      const last = paragraph.lines[paragraph.lines.length - 1];
      const joined = cleanInline(paragraph.lines.map((l) => l.text).join(' '));
      if (first && last && isFactLike(joined)) {
        segments.push({ text: joined, lineStart: first.line, lineEnd: last.line, heading: paragraph.heading });
      }
      continue;
    }
    segments.push(...sentencesOf(paragraph));
  }
  return segments;
}

/** The sentences of `text`, each with the index of the paragraph (or list item) it is in. */
export function sentencesByParagraph(text: string): Array<Segment & { paragraph: number }> {
  return paragraphsOf(text).flatMap((paragraph, index) => sentencesOf(paragraph).map((sentence) => ({ ...sentence, paragraph: index })));
}

function paragraphsOf(text: string): Paragraph[] {
  const lines = text.split(/\r?\n/);
  const paragraphs: Paragraph[] = [];
  let heading = '';
  let current: Paragraph | undefined;
  let fence: string | undefined;
  let inComment = false;
  const frontmatter = splitFrontmatter(text);
  const start = frontmatter.yaml === undefined ? 0 : frontmatter.bodyLine - 1;
  const close = (): void => {
    if (current && current.lines.length > 0) paragraphs.push(current);
    current = undefined;
  };
  for (let i = start; i < lines.length; i++) {
    const raw = lines[i] ?? '';
    const lineNo = i + 1;
    if (fence !== undefined) {
      if (raw.trim().startsWith(fence)) fence = undefined;
      continue;
    }
    if (inComment) {
      if (raw.includes('-->')) inComment = false;
      continue;
    }
    const fenceOpen = FENCE.exec(raw);
    if (fenceOpen?.[1]) {
      close();
      fence = fenceOpen[1];
      continue;
    }
    const withoutComments = raw.includes('<!--') ? raw.replace(/<!--.*?-->/g, '') : raw;
    if (withoutComments.includes('<!--')) {
      inComment = true;
      close();
      continue;
    }
    const headingMatch = HEADING.exec(withoutComments);
    if (headingMatch) {
      close();
      heading = cleanInline(headingMatch[1] ?? '');
      continue;
    }
    if (withoutComments.trim() === '' || TABLE_ROW.test(withoutComments) || LINK_DEFINITION.test(withoutComments) || /^\s*(?:[-*_]\s*){3,}$/.test(withoutComments)) {
      close();
      continue;
    }
    const listItem = LIST_ITEM.exec(withoutComments);
    if (listItem) close();
    const content = withoutComments.slice(listItem ? listItem[0].length : 0).replace(/^\s*>\s?/, '');
    current ??= { lines: [], heading };
    current.lines.push({ text: content.trim(), line: lineNo });
  }
  close();
  return paragraphs;
}

/** Words that end with a full stop without ending a sentence. */
const ABBREVIATIONS = new Set([
  'e.g', 'i.e', 'etc', 'vs', 'cf', 'al', 'fig', 'figs', 'eq', 'eqs', 'no', 'vol', 'pp', 'p', 'dr', 'mr', 'mrs', 'ms', 'prof', 'st', 'jr', 'sr', 'inc', 'ltd', 'co', 'approx', 'sec', 'ch', 'ed', 'eds', 'jan', 'feb', 'mar', 'apr', 'jun', 'jul', 'aug', 'sep', 'sept', 'oct', 'nov', 'dec',
  // The same in the languages pages are written in (a played German wiki split at "bzw." and "ca.").
  'bzw', 'ca', 'usw', 'vgl', 'evtl', 'ggf', 'inkl', 'zzgl', 'bzgl', 'nr', 'abs', 'hrsg', 'jh', 'env', 'chap', 'éd', 'aprox', 'pág', 'núm', 'ej', 'sra', 'dra', 'ecc', 'pag',
]);

const LONE_LETTER = /^\p{L}$/u;
const DOTTED_LETTERS = /\p{L}\.\p{L}$/u;

function isAbbreviation(word: string): boolean {
  return ABBREVIATIONS.has(word) || LONE_LETTER.test(word) || DOTTED_LETTERS.test(word);
}

function sentencesOf(paragraph: Paragraph): Segment[] {
  // Character offsets of each line's start in the joined paragraph, to give every sentence its lines.
  const offsets: number[] = [];
  let joined = '';
  for (const line of paragraph.lines) {
    if (joined) joined += ' ';
    offsets.push(joined.length);
    joined += line.text;
  }
  const lineAt = (offset: number): number => {
    let index = 0;
    while (index + 1 < offsets.length && (offsets[index + 1] ?? Infinity) <= offset) index++;
    return paragraph.lines[index]?.line ?? 0;
  };
  const segments: Segment[] = [];
  let start = 0;
  // Lower-case text (old abstracts, transcripts) ends sentences too; abbreviations are what must not.
  // U+E001/U+E002 stand for a link or code span a page's claims were read with (claims.ts).
  // 。！？ end a sentence with no space after them (Chinese, Japanese).
  const boundary = /([.!?]+)(["')\]’”]*)(\s+)(?=["'(\[“‘]?[\p{L}\p{N}\uE001\uE002])|([。！？]+)([」』”’）)]*)/gu;
  const emit = (end: number): void => {
    const piece = joined.slice(start, end);
    const lead = piece.length - piece.trimStart().length;
    const text = cleanInline(piece);
    if (isFactLike(text)) {
      segments.push({ text, lineStart: lineAt(start + lead), lineEnd: lineAt(Math.max(start, end - 1)), heading: paragraph.heading });
    }
  };
  for (let match = boundary.exec(joined); match; match = boundary.exec(joined)) {
    // "e.g." / "Dr." / a lone initial ("J. Smith") do not end a sentence.
    if (match[1] === '.' && isAbbreviation(lastWordOf(joined, start, match.index).toLowerCase())) continue;
    // "am 9. August 2016": a German day's full stop before its month ends nothing.
    if (match[1] === '.' && ORDINAL_DAY.test(joined.slice(Math.max(start, match.index - 3), match.index)) && GERMAN_MONTH.test(joined.slice(match.index + match[0].length))) continue;
    const end = match[4] !== undefined ? match.index + match[4].length + (match[5]?.length ?? 0) : match.index + (match[1]?.length ?? 0) + (match[2]?.length ?? 0);
    emit(end);
    start = end;
  }
  emit(joined.length);
  return segments;
}

const LAST_WORD = /[\p{L}.]+$/u;
const ORDINAL_DAY = /(?:^|[^\d.])\d{1,2}$/;
const GERMAN_MONTH = /^(?:Januar|Jänner|Februar|März|April|Mai|Juni|Juli|August|September|Oktober|November|Dezember|Jan|Feb|Mär|Apr|Jun|Jul|Aug|Sept?|Okt|Nov|Dez)\b/u;

/** The run of letters and full stops that ends `text[start, end)`, '' when none: scanned back from the end, as this runs at every full stop. */
function lastWordOf(text: string, start: number, end: number): string {
  let from = end;
  while (from > start) {
    const code = text.charCodeAt(from - 1);
    if (code === 46 || isAsciiLetter(code)) from--;
    else if (code < 128) break;
    else return LAST_WORD.exec(text.slice(start, end))?.[0] ?? ''; // beyond ASCII, \p{L} decides
  }
  return text.slice(from, end);
}

function isAsciiLetter(code: number): boolean {
  const lower = code | 32;
  return lower >= 97 && lower <= 122;
}

/** Inline markdown reduced to its words: links to their text, emphasis and code marks dropped. */
export function cleanInline(text: string): string {
  return isPlain(text) ? text.trim() : rewriteInline(text);
}

function rewriteInline(text: string): string {
  // Each rewrite only where its marks occur.
  let clean = text;
  if (clean.includes('](')) clean = clean.replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
  if (clean.includes('[[')) clean = clean.replace(/\[\[([^\]|]*)(?:\|([^\]]*))?\]\]/g, (_, target: string, label?: string) => label ?? target);
  if (clean.includes('[^')) clean = clean.replace(/\[\^[^\]]*\]/g, '');
  if (/[*`]/.test(clean)) clean = clean.replace(/(\*\*|\*|`)(?=\S)([^*`]*?\S)\1/g, '$2');
  // Underscores mark emphasis only outside a word: `snake_case` and `SCREAMING_SNAKE_CASE` keep theirs
  // (a played review read a quoted sentence that had lost them as a typo on its page).
  if (clean.includes('_')) clean = clean.replace(/(?<![\p{L}\p{N}_])(__|_)(?=\S)([^_]*?\S)\1(?![\p{L}\p{N}_])/gu, '$2');
  if (clean.includes('<')) clean = clean.replace(/<[^>]+>/g, '');
  return clean.replace(/\s+/g, ' ').trim();
}

/**
 * Whether `rewriteInline` would only trim `text`: ASCII with no markdown marks and no
 * runs of whitespace. Most sentences are, and every sentence of every page is cleaned on
 * each lint.
 */
function isPlain(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 32) {
      if (i > 0 && text.charCodeAt(i - 1) === 32) return false;
    } else if (code >= 128 || code < 32 || code === 91 /* [ */ || code === 42 /* * */ || code === 95 /* _ */ || code === 96 /* ` */ || code === 60 /* < */) {
      return false;
    }
  }
  return true;
}

const LETTER = /\p{L}/u;

/** At least MIN_WORDS space-separated words holding a letter; scanned, with \p{L} asked only beyond ASCII. */
function isFactLike(text: string): boolean {
  let words = 0;
  let lettered = false;
  for (let i = 0; i <= text.length; i++) {
    const code = i === text.length ? 32 : text.charCodeAt(i);
    if (code === 32) {
      if (lettered && ++words >= MIN_WORDS) return true;
      lettered = false;
    } else if (code >= 128) {
      return text.split(' ').filter((word) => LETTER.test(word)).length >= MIN_WORDS || unspacedWords(text) >= MIN_WORDS;
    } else if (!lettered && isAsciiLetter(code)) {
      lettered = true;
    }
  }
  return false;
}

const UNSPACED_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/u;
const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;
let wordSegmenters: { zh: Intl.Segmenter; ja: Intl.Segmenter } | undefined;

/** Words of a text in a script written without spaces (Chinese, Japanese…), as the runtime's segmenter cuts them; 0 for other text. */
function unspacedWords(text: string): number {
  if (!UNSPACED_SCRIPT.test(text)) return 0;
  wordSegmenters ??= { zh: new Intl.Segmenter('zh', { granularity: 'word' }), ja: new Intl.Segmenter('ja', { granularity: 'word' }) };
  let words = 0;
  for (const segment of (KANA.test(text) ? wordSegmenters.ja : wordSegmenters.zh).segment(text)) if (segment.isWordLike) words++;
  return words;
}
