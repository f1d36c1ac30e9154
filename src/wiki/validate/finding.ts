/** One problem the validator found. `rule` ids are fixed: tests, scripts and `--json` users rely on them. */
export interface Finding {
  rule: string;
  /** `question`: a mismatch the check is not sure of; a model answers it (never counted as flagged or by `--strict`). */
  severity: 'error' | 'warning' | 'question';
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

export type RuleId =
  | 'frontmatter'
  | 'required-field'
  | 'key-pattern'
  | 'duplicate-key'
  | 'broken-link'
  | 'orphan'
  | 'unindexed'
  | 'dead-index-entry'
  | 'missing-source'
  | 'no-sources'
  | 'empty-page'
  | 'near-duplicate'
  | 'log-format'
  | 'log-entry'
  | 'bad-citation'
  | 'tool-owned-field'
  | 'owner-field'
  | 'dropped-source'
  | 'human-edit'
  | 'access-field'
  | 'ungrounded'
  | 'unsupported-number'
  | 'miscited'
  | 'stale-page'
  | 'encoding'
  | 'unreadable-page'
  | 'linked-folder'
  | 'oversized-repair'
  | 'low-coverage'
  | 'frontmatter-drift'
  | 'merge-conflict'
  | 'source-record';

export const RULE_SEVERITY: Record<RuleId, Finding['severity']> = {
  frontmatter: 'error',
  'required-field': 'error',
  'key-pattern': 'error',
  'duplicate-key': 'error',
  'broken-link': 'error',
  orphan: 'warning',
  unindexed: 'warning',
  'dead-index-entry': 'error',
  'missing-source': 'error',
  'no-sources': 'error',
  'empty-page': 'warning',
  'near-duplicate': 'warning',
  'log-format': 'warning',
  'log-entry': 'warning',
  'bad-citation': 'error',
  'tool-owned-field': 'error',
  'owner-field': 'error',
  'dropped-source': 'error',
  'human-edit': 'error',
  'access-field': 'error',
  ungrounded: 'warning',
  'unsupported-number': 'warning',
  miscited: 'warning',
  'stale-page': 'warning',
  encoding: 'error',
  'unreadable-page': 'error',
  'linked-folder': 'warning',
  'oversized-repair': 'warning',
  'low-coverage': 'warning',
  'frontmatter-drift': 'warning',
  'merge-conflict': 'error',
  'source-record': 'error',
};

export function finding(rule: RuleId, path: string, message: string, extra: { line?: number | undefined; fix?: string } = {}): Finding {
  const result: Finding = { rule, severity: RULE_SEVERITY[rule], path, message };
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

/** Warnings no lint review kept with a reason: what a person has yet to look at, and what `--strict` counts. */
export function openWarningCount(findings: readonly Finding[]): number {
  return findings.filter((f) => f.severity === 'warning' && f.keptBecause === undefined).length;
}
