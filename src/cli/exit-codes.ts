import type { IngestReport } from '../operations/ingest/ingest-report.js';
import type { LintRunReport } from '../operations/lint/lint-with-review.js';
import { openWarningCount } from '../wiki/validate/finding.js';

/**
 * The exit-code policy of the commands whose run can succeed while finding or leaving
 * problems (0 clean · 1 problems; 2 and the signal codes come from the error handler and
 * the interrupt handling), in one place so every command reads the same way.
 */
export function lintExitCode(report: LintRunReport, strict: boolean): number {
  const failed = report.errors > 0 || (strict && openWarningCount(report.findings) > 0) || (report.review !== undefined && report.review.status !== 'done');
  return failed ? 1 : 0;
}

/** A failed source's own code (2 for a bad input) wins over the generic 1. */
export function ingestExitCode(report: IngestReport): number {
  return report.ok ? 0 : Math.max(1, ...report.ingested.map((s) => s.errorExitCode ?? 1));
}
