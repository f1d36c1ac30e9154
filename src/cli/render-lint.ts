import type { LintReport } from '../operations/lint.js';
import type { LintRunReport } from '../operations/lint-with-review.js';
import type { Finding } from '../wiki/validate/finding.js';
import type { Colors } from './output.js';

/** The `--json` document: every finding with all six fields (null when not known). */
export function lintJson(report: LintReport, withChanges: boolean): Record<string, unknown> {
  const findings = report.findings.map((f) => ({
    rule: f.rule,
    severity: f.severity,
    path: f.path,
    line: f.line ?? null,
    message: f.message,
    fix: f.fix ?? null,
  }));
  const doc: Record<string, unknown> = { findings, errors: report.errors, warnings: report.warnings };
  if (withChanges) doc.changes = report.changes;
  if (report.grounding) doc.grounding = report.grounding;
  if (report.coverage) doc.coverage = report.coverage;
  return doc;
}

/** Human report: repairs first, then findings grouped by rule (errors' rules first), then totals. */
export function renderLint(report: LintReport, c: Colors, options: { fix: boolean; strict: boolean }): string {
  const lines: string[] = [];
  if (options.fix) {
    if (report.changes.length === 0) lines.push(c.dim('--fix: nothing to repair'));
    else {
      lines.push(c.bold(`Repaired (${report.changes.length}):`));
      for (const change of report.changes) lines.push(`  ${c.green('✓')} ${change}`);
    }
    lines.push('');
  }
  for (const [rule, findings] of groupByRule(report.findings)) {
    const severity = findings[0]?.severity ?? 'warning';
    const label = severity === 'error' ? c.red(rule) : c.yellow(rule);
    lines.push(`${label} ${c.dim(`(${findings.length} ${severity === 'error' ? 'error' : 'warning'}${findings.length === 1 ? '' : 's'})`)}`);
    for (const f of findings) {
      lines.push(`  ${f.path}${f.line !== undefined ? `:${f.line}` : ''}  ${f.message}`);
      if (f.fix) lines.push(`    ${c.dim(`fix: ${f.fix}`)}`);
    }
    lines.push('');
  }
  lines.push(summaryLine(report, c, options));
  return lines.join('\n');
}

function groupByRule(findings: Finding[]): Array<[string, Finding[]]> {
  const groups = new Map<string, Finding[]>();
  for (const f of findings) {
    const list = groups.get(f.rule);
    if (list) list.push(f);
    else groups.set(f.rule, [f]);
  }
  const rank = (list: Finding[]): number => (list[0]?.severity === 'error' ? 0 : 1);
  return [...groups].sort(([ra, a], [rb, b]) => rank(a) - rank(b) || (ra < rb ? -1 : ra > rb ? 1 : 0));
}

function summaryLine(report: LintReport, c: Colors, { fix, strict }: { fix: boolean; strict: boolean }): string {
  if (report.errors === 0 && report.warnings === 0) return c.green('No problems found.');
  const errors = `${report.errors} error${report.errors === 1 ? '' : 's'}`;
  const warnings = `${report.warnings} warning${report.warnings === 1 ? '' : 's'}`;
  const failing = report.errors > 0 || (strict && report.warnings > 0);
  const text = `${errors}, ${warnings}${strict && report.warnings > 0 ? ' (--strict: warnings count)' : ''}`;
  // After --fix the safe repairs are done: advising them again would send a cron in circles.
  const hint = !fix && failing ? c.dim('\nrun `wiki lint --fix --no-llm` to apply the safe repairs') : '';
  return `${failing ? c.red(text) : c.yellow(text)}${hint}`;
}

/** `wiki lint --json`: the findings, with the model review and the dry run's diff when there are. */
export function lintRunJson(report: LintRunReport, fix: boolean): Record<string, unknown> {
  const json = lintJson(report, fix);
  if (report.review) json.review = report.review;
  if (report.diff !== undefined) json.diff = report.diff;
  return json;
}

/** `wiki lint`: the findings, then the model review's outcome and the dry run's diff. */
export function renderLintRun(report: LintRunReport, c: Colors, options: { fix: boolean; strict: boolean }): string {
  const text = renderLint(report, c, options);
  const review = report.review ? `\nmodel review: ${report.review.status}, ${report.review.turns} turn(s), ${report.review.tokens} tokens` : '';
  const diff =
    report.diff !== undefined
      ? `\n${report.diff || '(dry run: nothing would change)'}\ndry run: nothing was written; the findings above are those left after the planned repairs`
      : '';
  return `${text}${review}${diff}`;
}
