import type { LintReport } from '../operations/lint/lint.js';
import type { LintRunReport } from '../operations/lint/lint-with-review.js';
import { lintAccount, type Finding } from '../wiki/validate/finding.js';
import { accountText, questionsLine } from './render-account.js';
import type { Colors } from './output.js';
import { renderOutcomeLines } from './render-run.js';
import { GROUNDING_RULES } from '../operations/lint/lint-batch.js';

/** How the human report is cut: by default about 50 lines, every finding with --all, one rule's with --rule. */
export interface LintView {
  /** Every finding, messages in full. */
  all?: boolean;
  /** Only these rules' findings (each in full). */
  rules?: readonly string[];
}

/** Findings shown per rule by default (errors get more room). */
const SHOWN_PER_WARNING_RULE = 3;
const SHOWN_PER_ERROR_RULE = 10;
/** About this many lines of findings by default. */
const DEFAULT_LINES = 45;
/** A finding's message is cut to this many characters by default (grounding findings quote their evidence). */
const SHORT_MESSAGE = 180;

/** The findings a view keeps (`--rule` filters; everything else is shown or summarised). */
export function viewFindings(findings: readonly Finding[], view: LintView): Finding[] {
  return view.rules && view.rules.length > 0 ? findings.filter((f) => view.rules?.includes(f.rule)) : [...findings];
}

/** The `--json` document: every finding with all six fields (null when not known). */
export function lintJson(report: LintReport, withChanges: boolean): Record<string, unknown> {
  const findings = report.findings.map((f) => ({
    rule: f.rule,
    severity: f.severity,
    path: f.path,
    line: f.line ?? null,
    message: f.message,
    fix: f.fix ?? null,
    ...(f.keptBecause !== undefined ? { kept: f.keptBecause } : {}),
  }));
  const doc: Record<string, unknown> = { findings, errors: report.errors, warnings: report.warnings, questions: findings.filter((f) => f.severity === 'question').length };
  if (withChanges) doc.changes = report.changes;
  if (report.grounding) doc.grounding = report.grounding;
  if (report.coverage) doc.coverage = report.coverage;
  return doc;
}

/**
 * Human report: repairs first, then findings grouped by rule, errors' rules first, each
 * with its count and how to fix it. By default a few findings of each rule (about 50 lines
 * in all, messages cut short) and how to see the rest; `--all` or `--rule R` shows them all.
 */
export function renderLint(report: LintReport, c: Colors, options: { fix: boolean; strict: boolean; view?: LintView }): string {
  const view = options.view ?? {};
  const full = Boolean(view.all) || Boolean(view.rules && view.rules.length > 0);
  const lines: string[] = [];
  if (options.fix) {
    // The rule repairs only: a model review, when there was one, reports its own changes below.
    if (report.changes.length === 0) lines.push(c.dim('--fix: no rule repairs to apply'));
    else {
      lines.push(c.bold(`Repaired (${report.changes.length}):`));
      const shown = full ? report.changes : report.changes.slice(0, 10);
      for (const change of shown) lines.push(`  ${c.green('✓')} ${change}`);
      if (shown.length < report.changes.length) lines.push(c.dim(`  … and ${report.changes.length - shown.length} more (--all)`));
    }
    lines.push('');
  }
  // Questions are counted, with how they get answered; `--rule` and `--all` list them.
  const viewed = viewFindings(report.findings, view);
  const openQuestions = viewed.filter((f) => f.severity === 'question' && f.keptBecause === undefined);
  const findings = full ? viewed : viewed.filter((f) => f.severity !== 'question' || f.keptBecause !== undefined);
  let budget = DEFAULT_LINES;
  const hidden: string[] = [];
  for (const [rule, group] of groupByRule(findings)) {
    const severity = group[0]?.severity ?? 'warning';
    const label = severity === 'error' ? c.red(rule) : c.yellow(rule);
    // Sentences a review kept (with its reason) stay findings, but by default they are counted, not listed again.
    const notKept = group.filter((f) => f.keptBecause === undefined);
    const open = full ? group : notKept;
    const keptHere = group.length - notKept.length;
    // The head counts what is open and, apart, what was kept: "(2 warnings, 13 questions)" over one listed warning read as a miscount.
    const counts = [notKept.length > 0 ? severityCounts(notKept) : '', keptHere > 0 ? `${keptHere} kept after review` : ''].filter(Boolean).join('; ');
    lines.push(`${label} ${c.dim(`(${counts})`)}`);
    const room = full ? group.length : Math.min(open.length, Math.max(1, Math.min(severity === 'error' ? SHOWN_PER_ERROR_RULE : SHOWN_PER_WARNING_RULE, budget)));
    // Warnings before questions, and each marked when a rule has both (a played reader could not tell which three were warnings).
    const shown = [...open].sort((a, b) => SEVERITY_ORDER.indexOf(a.severity) - SEVERITY_ORDER.indexOf(b.severity)).slice(0, room);
    const mixed = new Set(group.map((f) => f.severity)).size > 1;
    // One fix per rule when they all say the same; otherwise each finding's under it (stacked at the end, a reader could not tell whose was whose).
    const fixes = [...new Set(shown.map((f) => f.fix).filter((fix): fix is string => Boolean(fix)))];
    for (const f of shown) {
      const keptNote = f.keptBecause !== undefined ? c.dim(`  [kept after review: ${f.keptBecause}]`) : '';
      const marker = mixed ? `${f.severity === 'question' ? c.dim('question:') : c.yellow(`${f.severity}:`)} ` : '';
      lines.push(`  ${f.path}${f.line !== undefined ? `:${f.line}` : ''}  ${marker}${full ? f.message : short(f.message)}${keptNote}`);
      if (fixes.length > 1 && f.fix) lines.push(`    ${c.dim(`fix: ${f.fix}`)}`);
    }
    if (fixes.length === 1) lines.push(`    ${c.dim(`fix: ${fixes[0]}`)}`);
    if (shown.length < open.length) {
      lines.push(c.dim(`  … and ${open.length - shown.length} more (wiki lint --rule ${rule})`));
      hidden.push(rule);
    }
    if (!full && keptHere > 0) lines.push(c.dim(`  ${keptHere} kept after review, not listed (wiki lint --rule ${rule} shows them with the reason)`));
    budget -= shown.length + 2;
    lines.push('');
  }
  // Name the rules cut short: "of 1 rule(s)" beside three rules on screen read as a miscount (played review Q).
  if (!full && openQuestions.length > 0) lines.push(c.dim(questionsLine(openQuestions.length, [...new Set(openQuestions.map((f) => f.rule))])), '');
  if (hidden.length > 0) lines.push(c.dim(`Not every finding of ${hidden.join(', ')} is listed: \`wiki lint --all\` lists every finding, \`--rule RULE\` one rule's, \`--json\` all of them for scripts.`));
  lines.push(summaryLine(report, c, options));
  return lines.join('\n');
}

const SEVERITY_ORDER = ['error', 'warning', 'question'];
/** Of a grounding finding's quoted sentence, what a short listing keeps: the reason after it must show. */
const SHORT_QUOTE = 70;

/**
 * A finding in one screen line. A grounding finding ("<sentence>": <reason> (<lines> say: …))
 * keeps its reason: the sentence is shortened first, the cited lines' quote left to --rule.
 */
function short(message: string): string {
  if (message.length <= SHORT_MESSAGE) return message;
  const quoted = /^"([\s\S]*?)": ([\s\S]*)$/.exec(message);
  if (quoted) {
    const sentence = (quoted[1] ?? '').length > SHORT_QUOTE ? `${(quoted[1] ?? '').slice(0, SHORT_QUOTE - 1)}…` : (quoted[1] ?? '');
    const reason = (quoted[2] ?? '').replace(/ \((?:raw|wiki)\/[^()]*? says?: [\s\S]*$/, '');
    const line = `"${sentence}": ${reason}`;
    return line.length <= SHORT_MESSAGE ? line : `${line.slice(0, SHORT_MESSAGE - 1)}…`;
  }
  return `${message.slice(0, SHORT_MESSAGE - 1)}…`;
}

function groupByRule(findings: Finding[]): Array<[string, Finding[]]> {
  const groups = new Map<string, Finding[]>();
  for (const f of findings) {
    const list = groups.get(f.rule);
    if (list) list.push(f);
    else groups.set(f.rule, [f]);
  }
  // Errors, then the wiki's structure, then grounding (many, each a sentence to read).
  const rank = (list: Finding[]): number => (list[0]?.severity === 'error' ? 0 : GROUNDING_RULES.has(list[0]?.rule ?? '') ? 2 : 1);
  return [...groups].sort(([ra, a], [rb, b]) => rank(a) - rank(b) || (ra < rb ? -1 : ra > rb ? 1 : 0));
}

/** `3 warnings, 2 questions`: a rule's findings by severity. */
function severityCounts(group: readonly Finding[]): string {
  const counts = new Map<string, number>();
  for (const f of group) counts.set(f.severity, (counts.get(f.severity) ?? 0) + 1);
  return (['error', 'warning', 'question'] as const).filter((s) => counts.has(s)).map((s) => `${counts.get(s)} ${s}${counts.get(s) === 1 ? '' : 's'}`).join(', ');
}

function summaryLine(report: LintReport, c: Colors, { fix, strict }: { fix: boolean; strict: boolean }): string {
  const account = lintAccount(report.findings);
  const text = accountText(account);
  // A finding a review kept, with its reason, is no open problem (played reviews read "31 warnings (31 kept)" as 31 left); nor is a question.
  if (account.errors === 0 && account.warnings === 0) return c.green(text);
  const failing = account.errors > 0 || (strict && account.warnings > 0);
  const strictNote = strict && account.warnings > 0 ? ' (--strict: warnings count)' : '';
  // After --fix the safe repairs are done: advising them again would send a cron in circles.
  // Only when there is a rule repair to make: advising a run that has nothing to do is a false promise.
  const repairable = report.repairable ?? 0;
  const hint = !fix && failing && repairable > 0 ? c.dim(`\nrun \`wiki lint --fix --no-llm\` to apply ${repairable} safe ${repairable === 1 ? 'repair' : 'repairs'}`) : '';
  return `${failing ? c.red(text + strictNote) : c.yellow(text + strictNote)}${hint}`;
}

/** `wiki lint --json`: the findings, with the model review and the dry run's diff when there are. */
export function lintRunJson(report: LintRunReport, fix: boolean, view: LintView = {}): Record<string, unknown> {
  const json = lintJson(view.rules && view.rules.length > 0 ? { ...report, findings: viewFindings(report.findings, view) } : report, fix);
  if (report.batch) json.batch = report.batch;
  if (report.review) json.review = report.review;
  if (report.diff !== undefined) json.diff = report.diff;
  return json;
}

/** `wiki lint`: the findings, then the model review's outcome and the dry run's diff. */
export function renderLintRun(report: LintRunReport, c: Colors, options: { fix: boolean; strict: boolean; view?: LintView }): string {
  const text = renderLint(report, c, options);
  // Tokens and cost as ingest and query print them.
  const review = report.review ? `\n${c.bold('model review')}${report.batch ? ` ${c.dim(`(${report.batch})`)}` : ''}\n${renderOutcomeLines(report.review, c).join('\n')}` : '';
  const diff =
    report.diff !== undefined
      ? `\n${report.diff || '(dry run: nothing would change)'}\ndry run: nothing was written; the findings above are those left after the planned repairs`
      : '';
  return `${text}${review}${diff}`;
}
