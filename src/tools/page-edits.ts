import { LINE_MARK } from './text-window.js';

/**
 * write_file's `edits`: exact replacements in a page, each `old` found exactly once in the
 * page as it is now. Pure: what the page becomes, or every reason an edit cannot be made,
 * quoting the page's own lines with their numbers (as read_file counts them) so the model
 * can copy the text it meant.
 */

export interface PageEdit {
  old: string;
  new: string;
}

export type EditOutcome =
  | { ok: true; text: string; /** 1-based line of each edit in the new text, in page order. */ lines: number[] }
  | { ok: false; problems: string[] };

/** At most this many characters of page lines are quoted for one edit that cannot be made. */
const QUOTE_CHARS = 1_500;
/** Occurrences quoted for an ambiguous `old`. */
const MAX_OCCURRENCES = 8;

export function applyEdits(text: string, edits: readonly PageEdit[]): EditOutcome {
  if (edits.length === 0) return { ok: false, problems: ['edits is empty: give at least one { "old", "new" } pair, or the whole page as content'] };
  const problems: string[] = [];
  const spans: Array<{ edit: number; start: number; end: number; replacement: string }> = [];
  edits.forEach((edit, index) => {
    const label = edits.length === 1 ? 'the edit' : `edit ${index + 1}`;
    if (edit.old === '') {
      problems.push(`${label}: "old" is empty; quote the exact text to replace (to add a section at the end, use append_to_file)`);
      return;
    }
    const first = text.indexOf(edit.old);
    // The same edits sent again (a played model resent a call it thought refused): what they ask is there already.
    if (first < 0 && alreadyMade(text, edit)) return;
    if (first < 0) {
      problems.push(`${label}: ${notFound(text, edit.old)}`);
      return;
    }
    const occurrences = occurrencesOf(text, edit.old);
    if (occurrences.length > 1) {
      problems.push(`${label}: ${ambiguous(text, edit.old, occurrences)}`);
      return;
    }
    spans.push({ edit: index + 1, start: first, end: first + edit.old.length, replacement: edit.new });
  });
  spans.sort((a, b) => a.start - b.start);
  for (let i = 1; i < spans.length; i++) {
    const before = spans[i - 1];
    const span = spans[i];
    if (before && span && span.start < before.end) {
      problems.push(`edits ${before.edit} and ${span.edit} overlap (both change line ${lineAt(text, span.start)}): make them one edit`);
    }
  }
  if (problems.length > 0) return { ok: false, problems };
  let out = '';
  let cursor = 0;
  const lines: number[] = [];
  for (const span of spans) {
    out += text.slice(cursor, span.start);
    lines.push(lineAt(out, out.length));
    out += span.replacement;
    cursor = span.end;
  }
  out += text.slice(cursor);
  return { ok: true, text: out, lines };
}

/** Shorter replacement texts are too common to prove that this edit was made. */
const MADE_MIN_CHARS = 20;

/** Whether the page already reads as the edit would leave it: its old text gone, its new text there once (and long enough to tell). */
function alreadyMade(text: string, edit: PageEdit): boolean {
  return edit.new.trim().length >= MADE_MIN_CHARS && occurrencesOf(text, edit.new).length === 1;
}

/** 1-based line of character `index` in `text`. */
export function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

function occurrencesOf(text: string, needle: string): number[] {
  const found: number[] = [];
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + 1)) found.push(i);
  return found;
}

function ambiguous(text: string, old: string, occurrences: readonly number[]): string {
  const lines = text.split('\n');
  const at = occurrences.map((index) => lineAt(text, index));
  const shown = at.slice(0, MAX_OCCURRENCES).map((line) => quoteLines(lines, line, line + lineCount(old) - 1));
  const more = at.length > MAX_OCCURRENCES ? `\n  … and ${at.length - MAX_OCCURRENCES} more` : '';
  return (
    `"old" occurs ${occurrences.length} times (lines ${[...new Set(at)].join(', ')}), so which one to change is unclear; ` +
    `add words from around the one you mean until it occurs once:\n${shown.join('\n  ---\n')}${more}`
  );
}

function notFound(text: string, old: string): string {
  const lines = text.split('\n');
  if (old.split('\n').some((line) => new RegExp(`^\\s*\\d+${LINE_MARK}`).test(line))) {
    return `"old" was not found: it holds line numbers ("12${LINE_MARK}"), which are not part of the page; copy the text without them`;
  }
  const flat = (value: string): string => value.replace(/\s+/g, ' ').trim();
  const span = lineCount(old);
  const best = closestLines(lines, old, span);
  if (best === undefined) return `"old" was not found, and no line of the page resembles it; read the page with read_file and copy the text exactly`;
  const quote = quoteLines(lines, best.first, best.last);
  const spacing = flat(lines.slice(best.first - 1, best.last).join('\n')).includes(flat(old));
  const why = spacing ? 'it differs only in spaces or line breaks from' : 'the closest lines of the page are';
  return `"old" was not found (it must match the page exactly, character for character); ${why} (as read_file numbers them):\n${quote}`;
}

/** The run of `span` lines sharing the most words with `old` (1-based, inclusive), or undefined when none shares any. */
function closestLines(lines: readonly string[], old: string, span: number): { first: number; last: number } | undefined {
  const wanted = wordCounts(old);
  const size = [...wanted.values()].reduce((sum, n) => sum + n, 0);
  if (size === 0) return undefined;
  let best: { first: number; last: number; score: number } | undefined;
  for (let first = 1; first <= lines.length; first++) {
    const last = Math.min(lines.length, first + span - 1);
    const have = wordCounts(lines.slice(first - 1, last).join('\n'));
    let shared = 0;
    let total = 0;
    for (const [word, count] of wanted) shared += Math.min(count, have.get(word) ?? 0);
    for (const count of have.values()) total += count;
    // How much of "old" the lines hold first (a long line holding all of it beats a short one holding
    // a few of its words: a played model was shown the wrong line), then how little else they hold.
    const score = shared / size + shared / Math.max(size, total) / 1000;
    if (shared > 0 && (best === undefined || score > best.score)) best = { first, last, score };
  }
  return best && { first: best.first, last: best.last };
}

function wordCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) counts.set(word, (counts.get(word) ?? 0) + 1);
  return counts;
}

function lineCount(text: string): number {
  return text.replace(/\n+$/, '').split('\n').length;
}

/** Lines `first`–`last` of the page, each led by its number and the mark read_file uses for sources, cut to a budget. */
function quoteLines(lines: readonly string[], first: number, last: number): string {
  const out: string[] = [];
  let left = QUOTE_CHARS;
  for (let line = first; line <= last && line <= lines.length; line++) {
    const text = lines[line - 1] ?? '';
    if (left <= 0) {
      out.push(`  … (lines ${line}-${last} not shown)`);
      break;
    }
    const shown = text.length <= left ? text : `${text.slice(0, left)}… (${text.length - left} more characters on this line)`;
    left -= text.length;
    out.push(`  ${line}${LINE_MARK}${shown}`);
  }
  return out.join('\n');
}
