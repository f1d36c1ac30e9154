import type { LintReport } from '../operations/lint/lint.js';
import type { Finding } from '../wiki/validate/finding.js';

/** What `lint_report` returns: the totals, and one window of the findings. */
export interface LintPage {
  errors: number;
  warnings: number;
  /** Findings per rule id, over the whole wiki. */
  byRule: Record<string, number>;
  total: number;
  offset: number;
  limit: number;
  /** Errors before warnings; within each, the report's order (path, line, rule). */
  findings: Finding[];
  /** Offset of the next window; null on the last one. */
  nextOffset: number | null;
}

export function lintPage(report: LintReport, window: { limit: number; offset: number }): LintPage {
  const ordered = [
    ...report.findings.filter((finding) => finding.severity === 'error'),
    ...report.findings.filter((finding) => finding.severity !== 'error'),
  ];
  const byRule: Record<string, number> = {};
  for (const finding of ordered) byRule[finding.rule] = (byRule[finding.rule] ?? 0) + 1;
  const findings = ordered.slice(window.offset, window.offset + window.limit);
  const end = window.offset + findings.length;
  return {
    errors: report.errors,
    warnings: report.warnings,
    byRule,
    total: ordered.length,
    offset: window.offset,
    limit: window.limit,
    findings,
    nextOffset: end < ordered.length ? end : null,
  };
}
