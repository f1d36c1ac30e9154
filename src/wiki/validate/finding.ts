import { RULES, type RuleId } from './rules/index.js';
import type { Severity } from './rule.js';

/** One problem the validator found. `rule` ids are fixed: tests, scripts and `--json` users rely on them. */
export interface Finding {
  rule: string;
  /** `question`: a mismatch the check is not sure of; a model answers it (never counted as flagged or by `--strict`). */
  severity: Severity;
  /** Workspace-relative path of the file the problem is in. */
  path: string;
  /** 1-based line in that file, when known. */
  line?: number;
  message: string;
  /** What to do about it. */
  fix?: string;
  /** Set when a lint review kept the sentence, with the reviewer's reason (it stays a finding, shown apart). */
  keptBecause?: string;
}

export type { RuleId } from './rules/index.js';

/** Each rule's default severity, read from the registry (rules/index.ts). */
export const RULE_SEVERITY: Readonly<Record<RuleId, Severity>> = Object.fromEntries(RULES.map((rule) => [rule.id, rule.severity])) as Record<RuleId, Severity>;

/** A finding of `rule` with its default severity (`extra.severity`: a check unsure of it asks a `question` instead). */
export function finding(rule: RuleId, path: string, message: string, extra: { line?: number | undefined; fix?: string; severity?: Severity } = {}): Finding {
  const result: Finding = { rule, severity: extra.severity ?? RULE_SEVERITY[rule], path, message };
  if (extra.line !== undefined) result.line = extra.line;
  if (extra.fix !== undefined) result.fix = extra.fix;
  return result;
}

/** Report order: by path, then line (unknown lines first), then rule, then message. */
export function compareFindings(a: Finding, b: Finding): number {
  return (
    compareText(a.path, b.path) ||
    (a.line ?? 0) - (b.line ?? 0) ||
    compareText(a.rule, b.rule) ||
    compareText(a.message, b.message)
  );
}

export function sortFindings(findings: Finding[]): Finding[] {
  return [...findings].sort(compareFindings);
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function countBySeverity(findings: Finding[]): { errors: number; warnings: number; questions: number } {
  let errors = 0;
  let questions = 0;
  for (const f of findings) {
    if (f.severity === 'error') errors++;
    else if (f.severity === 'question') questions++;
  }
  return { errors, warnings: findings.length - errors - questions, questions };
}

/** One line for the model or a log: rule, line, message and the fix. */
export function describeFinding(finding: Finding): string {
  const where = finding.line ? ` (line ${finding.line})` : '';
  return `${finding.rule}${where}: ${finding.message}${finding.fix ? ` — ${finding.fix}` : ''}`;
}

/**
 * The one account `wiki lint` and `wiki status` give: errors, open warnings, open questions,
 * and the findings a review kept with a reason (warnings or questions answered "yes").
 */
export interface LintAccount {
  errors: number;
  warnings: number;
  questions: number;
  kept: number;
}

export function lintAccount(findings: readonly Finding[]): LintAccount {
  const account: LintAccount = { errors: 0, warnings: 0, questions: 0, kept: 0 };
  for (const f of findings) {
    if (f.severity === 'error') account.errors++;
    else if (f.keptBecause !== undefined) account.kept++;
    else if (f.severity === 'question') account.questions++;
    else account.warnings++;
  }
  return account;
}

/** Warnings no lint review kept with a reason: what a person has yet to look at, and what `--strict` counts. */
export function openWarningCount(findings: readonly Finding[]): number {
  return findings.filter((f) => f.severity === 'warning' && f.keptBecause === undefined).length;
}
