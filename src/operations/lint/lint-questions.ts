import { createHash } from 'node:crypto';
import path from 'node:path';
import { ConfinedIo } from '../../confine/confined-io.js';
import { LINE_MARK } from '../../tools/text-window.js';
import { writeFileAtomic } from '../../util/fs.js';
import { readPage } from '../../wiki/page-read.js';
import type { Finding } from '../../wiki/validate/finding.js';
import { citedRanges, lineWindow, readSourceText } from './cited-windows.js';
import { KEPT_FILE, keptKey, markKept, type KeptFile } from './lint-batch.js';

/**
 * Questions: grounding sentences the check noticed a mismatch in but cannot judge (a denial
 * worded another way, partial support). A model with the lint run answers them — each with
 * the sentence and its exact cited lines, yes or no with a short reason — in batches of at
 * most QUESTION_BATCH (and `lint.fixBatch` a run), each round a turn of the run. A "yes" is
 * remembered like a kept sentence, a "no" makes the finding a warning; both until the
 * sentence, the line holding it or its cited lines change (the key hashes them).
 */

/** Questions put in one message. */
export const QUESTION_BATCH = 10;
/** Longest quote of one question's cited lines. */
const CITED_CHARS = 1500;
/** Longest reason kept from an answer (it is shown in reports and handed to a later review). */
const REASON_CHARS = 300;

export interface AskedQuestion {
  /** Q<number> in the messages, unique within the run. */
  number: number;
  finding: Finding;
  key: string;
}

export interface QuestionPlan {
  /** Every question this run may ask (at most `lint.fixBatch`), in batches of QUESTION_BATCH. */
  batches: AskedQuestion[][];
  /** Open questions beyond this run's share. */
  remaining: number;
  /** Questions a model answered earlier (sentence and cited lines unchanged): not asked again. */
  answeredEarlier: number;
}

export interface Answer {
  number: number;
  supported: boolean;
  reason: string;
}

/** The exact lines a finding's message cites, numbered as read_file numbers them ("" when none can be read). */
export async function citedLinesText(root: string, finding: Finding, io = new ConfinedIo(root), texts = new Map<string, string | undefined>()): Promise<string> {
  const parts: string[] = [];
  for (const range of citedRanges(finding)) {
    if (!range.file.startsWith('raw/')) continue;
    if (!texts.has(range.file)) texts.set(range.file, await readSourceText(io, root, range.file));
    const lines = texts.get(range.file)?.split(/\r?\n/);
    if (!lines) continue;
    parts.push(`${range.file}#L${range.first}${range.last !== range.first ? `-${range.last}` : ''}:`);
    for (let line = range.first; line <= Math.min(range.last, lines.length); line++) parts.push(`${line}${LINE_MARK}${lines[line - 1] ?? ''}`);
  }
  return parts.join('\n');
}

/**
 * The cited lines as a question shows them, within CITED_CHARS: whole lines, and for the lines
 * a long range leaves out, the read_file call that shows them (a played review's quote of
 * lines 1073-1210 stopped at 1098 with no offset, and the model guessed one).
 */
async function shownCitedLines(root: string, finding: Finding, io: ConfinedIo, texts: Map<string, string | undefined>): Promise<string> {
  const parts: string[] = [];
  let left = CITED_CHARS;
  for (const range of citedRanges(finding)) {
    if (!range.file.startsWith('raw/')) continue;
    if (!texts.has(range.file)) texts.set(range.file, await readSourceText(io, root, range.file));
    const text = texts.get(range.file);
    if (text === undefined) continue;
    const lines = text.split(/\r?\n/);
    const last = Math.min(range.last, lines.length);
    parts.push(`${range.file}#L${range.first}${range.last !== range.first ? `-${range.last}` : ''}:`);
    let line = range.first;
    for (; line <= last; line++) {
      const row = `${line}${LINE_MARK}${lines[line - 1] ?? ''}`;
      if (row.length + 1 > left && (line > range.first || left < 80)) break;
      parts.push(row.length + 1 > left ? `${row.slice(0, Math.max(0, left - 2))}…` : row);
      left -= row.length + 1;
    }
    if (line > last) continue;
    const window = lineWindow(text, line, last);
    parts.push(window ? `[lines ${line}-${last} not shown: read_file ${range.file} offset ${window.offset} limit ${window.limit} (lines ${window.first}–${window.last})]` : `[lines ${line}-${last} not shown]`);
  }
  return parts.join('\n');
}

/** A question's identity for its answer: the kept key (rule, page, message, the page line) and its cited lines as they are now. */
export function questionKey(finding: Finding, pageText: string, cited: string): string {
  return createHash('sha256').update(`${keptKey(finding, pageText)}\n${cited}`).digest('hex').slice(0, 24);
}

/** Keys of `questions` (reading each page and its cited lines once). */
async function keysOf(root: string, questions: readonly Finding[]): Promise<Map<Finding, { key: string; cited: string }>> {
  const io = new ConfinedIo(root);
  const texts = new Map<string, string | undefined>();
  const pages = new Map<string, string>();
  const keys = new Map<Finding, { key: string; cited: string }>();
  for (const q of questions) {
    let page = pages.get(q.path);
    if (page === undefined) pages.set(q.path, (page = readPage(root, q.path) ?? ''));
    const cited = await citedLinesText(root, q, io, texts);
    keys.set(q, { key: questionKey(q, page, cited), cited });
  }
  return keys;
}

/** The open questions of `findings` this run asks, in batches; those answered earlier are left out. */
export async function planQuestions(root: string, findings: readonly Finding[], kept: KeptFile, size: number): Promise<QuestionPlan> {
  const questions = findings.filter((f) => f.severity === 'question');
  const keys = await keysOf(root, questions);
  let answeredEarlier = 0;
  const open: AskedQuestion[] = [];
  for (const finding of questions) {
    const key = keys.get(finding)?.key ?? '';
    if (kept.kept[key] || kept.refuted?.[key]) answeredEarlier++;
    else open.push({ number: open.length + 1, finding, key });
  }
  const asked = open.slice(0, Math.max(0, size));
  const batches: AskedQuestion[][] = [];
  for (let i = 0; i < asked.length; i += QUESTION_BATCH) batches.push(asked.slice(i, i + QUESTION_BATCH));
  return { batches, remaining: open.length - asked.length, answeredEarlier };
}

/** The sentence a grounding finding's message quotes (`"<sentence>": <what the check noticed> …`). */
function sentenceOf(finding: Finding): { sentence: string; noticed: string } {
  const match = /^"([\s\S]*?)": ([\s\S]*)$/.exec(finding.message);
  if (!match) return { sentence: finding.message, noticed: '' };
  // What the check noticed, without the quote of the lines (they follow in full).
  return { sentence: match[1] ?? '', noticed: (match[2] ?? '').replace(/\s*\((?:[^()]*#L[\d-]+(?:, )?)+ say: [\s\S]*$/, '').trim() };
}

/** One batch as a message part: each question with its sentence and its exact cited lines, and how to answer. */
export async function questionsRequest(root: string, batch: readonly AskedQuestion[], options: { fix: boolean; first: boolean; total: number }): Promise<string> {
  const io = new ConfinedIo(root);
  const texts = new Map<string, string | undefined>();
  const lines = [
    `${options.first ? `Questions (${options.total} this run, ${batch.length} here)` : `More questions (${batch.length})`}: sentences the checks noticed a mismatch in but cannot judge. ` +
      'For each, do the quoted lines support the sentence? Answer each on a line of its own, ' +
      '`ANSWER Q<n> yes :: <short reason>` or `ANSWER Q<n> no :: <short reason>` (no: the lines do not say what the sentence says).' +
      (options.fix ? ' For a "no", also correct the sentence, or its citation, with the tools.' : ''),
  ];
  for (const q of batch) {
    const { sentence, noticed } = sentenceOf(q.finding);
    lines.push('', `Q${q.number} ${q.finding.path}${q.finding.line ? `:${q.finding.line}` : ''} — "${sentence}"${noticed ? ` (the check noticed: ${noticed})` : ''}`);
    const cited = await shownCitedLines(root, q.finding, io, texts);
    // An uncited sentence: what the check noticed quotes the closest fact of its sources.
    if (cited) lines.push(cited);
  }
  return lines.join('\n');
}

/** `ANSWER Q<n> yes|no :: <reason>` lines from the model's replies. */
export function parseAnswers(text: string): Answer[] {
  const answers: Answer[] = [];
  for (const line of text.split('\n')) {
    const match = /^\s*(?:[-*]\s*)?`?ANSWER\s+Q(\d+)\s+(yes|no)\b[^:\n]*::\s*(.+?)`?\s*$/i.exec(line);
    if (!match) continue;
    answers.push({ number: Number(match[1]), supported: (match[2] ?? '').toLowerCase() === 'yes', reason: oneLine(match[3] ?? '') });
  }
  return answers;
}

/**
 * Remember the answers to the questions asked (the last answer to a question counts):
 * yes as kept, no as refuted. Returns how many of each.
 */
export async function rememberAnswers(root: string, kept: KeptFile, asked: readonly AskedQuestion[], answers: readonly Answer[]): Promise<{ yes: number; no: number }> {
  const byNumber = new Map(answers.map((answer) => [answer.number, answer]));
  const at = new Date().toISOString();
  const counts = { yes: 0, no: 0 };
  for (const q of asked) {
    const answer = byNumber.get(q.number);
    if (!answer) continue;
    const entry = { path: q.finding.path, ...(q.finding.line !== undefined ? { line: q.finding.line } : {}), reason: answer.reason, at };
    if (answer.supported) {
      kept.kept[q.key] = entry;
      counts.yes++;
    } else {
      (kept.refuted ??= {})[q.key] = entry;
      counts.no++;
    }
  }
  if (counts.yes + counts.no > 0) await writeFileAtomic(path.join(root, KEPT_FILE), `${JSON.stringify(kept, null, 2)}\n`);
  return counts;
}

/**
 * The findings as the reviews left them: a sentence a review kept carries `keptBecause`; a
 * question a model answered yes is kept, one it answered no is a warning saying so.
 */
export async function markReviewed(root: string, findings: readonly Finding[], kept: KeptFile): Promise<Finding[]> {
  const questions = findings.filter((f) => f.severity === 'question');
  const answered = Object.keys(kept.kept).length + Object.keys(kept.refuted ?? {}).length > 0;
  const keys = answered && questions.length > 0 ? await keysOf(root, questions) : new Map<Finding, { key: string }>();
  const answeredNow = findings.map((f): Finding => {
    const key = f.severity === 'question' ? keys.get(f)?.key : undefined;
    if (key === undefined) return f;
    const yes = kept.kept[key];
    if (yes) return { ...f, keptBecause: yes.reason };
    const no = kept.refuted?.[key];
    return no ? { ...f, severity: 'warning', message: `${f.message} — a model review answered that its cited lines do not support it: ${no.reason}` } : f;
  });
  // A "no" is a warning like any other: a later review may correct it or keep it with a reason.
  return markKept(root, answeredNow, kept);
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= REASON_CHARS ? flat : `${flat.slice(0, REASON_CHARS - 1)}…`;
}
