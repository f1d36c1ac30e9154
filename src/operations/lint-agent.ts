import type { AgentListener } from '../agent/events.js';
import { newRunId } from '../agent/transcript.js';
import type { ChatModel, Usage } from '../agent/types.js';
import { acquireLock } from '../state/lock.js';
import { countBySeverity, sortFindings, type Finding } from '../wiki/validate/finding.js';
import { runModelInSession, type RunBudget } from './agent-run.js';
import { lockOptions } from './ingest.js';
import { lintWorkspace, type LintReport } from './lint.js';
import { summariseRun, type RunOutcome } from './run-outcome.js';
import { Session, type WorkspaceHandle } from './session.js';

export interface LintAgentOptions {
  fix: boolean;
  dryRun: boolean;
  waitSeconds: number;
  budget: RunBudget;
  model: () => ChatModel;
  price?: (usage: Usage) => number | undefined;
  listener?: AgentListener;
  signal?: AbortSignal;
  onNotice?: (message: string) => void;
  env?: NodeJS.ProcessEnv;
}

export interface LintAgentReport extends LintReport {
  /** What the model run did (its findings are merged into `findings` with `llm-` rule ids). */
  review: RunOutcome;
  diff?: string;
}

/** Rule ids the model may report (schema.md's lint workflow); anything else becomes `llm-other`. */
const MODEL_RULES = new Set(['contradiction', 'stale-claim', 'missing-page', 'missing-link', 'summary-mismatch']);

/** How many deterministic findings the model is shown. */
const REPORT_LIMIT = 200;

/**
 * `wiki lint` with the model: the deterministic report first (with --fix, its safe repairs
 * applied first), then the model reviews what rules cannot see; with --fix it repairs
 * through the tools, and everything is re-validated.
 */
export async function lintWithModel(ws: WorkspaceHandle, options: LintAgentOptions): Promise<LintAgentReport> {
  const model = options.model();
  const mutating = options.fix && !options.dryRun;
  const lock = mutating ? await acquireLock(ws.root, lockOptions('lint', options)) : undefined;
  lock?.releaseOnExit();
  const started = Date.now();
  try {
    const before = await lintWorkspace(ws.root, ws.schema, ws.config.config, { fix: mutating });
    const session = await Session.open(ws, {
      op: 'lint',
      title: options.fix ? 'review and repair' : 'review',
      runId: newRunId('lint'),
      dryRun: options.dryRun,
      readOnly: !options.fix,
      ...(options.env ? { env: options.env } : {}),
    });
    const run = await runModelInSession(session, {
      model,
      operation: options.fix ? 'lint-fix' : 'lint',
      userMessage: reviewRequest(before, options.fix),
      budget: options.budget,
      ...(options.price ? { price: options.price } : {}),
      ...(options.listener ? { listener: options.listener } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const modelFindings = parseModelFindings(run.finalText);
    const changes = session.pageChanges();
    const touched = await session.revalidateTouched();
    if (changes.created.length > 0 || changes.updated.length > 0) {
      await session.refreshIndex();
      const entry = await session.appendLog('lint', 'model review repairs', [
        ...(changes.created.length ? [`created: ${changes.created.join(', ')}`] : []),
        ...(changes.updated.length ? [`updated: ${changes.updated.join(', ')}`] : []),
        `findings reported: ${modelFindings.length}`,
      ]);
      if (run.status === 'done') {
        const notice = await session.autoCommit(entry.split('\n')[0] ?? entry);
        if (notice) options.onNotice?.(notice);
      }
    }
    await session.finish(run.status === 'done' ? 'completed' : run.status === 'interrupted' ? 'interrupted' : 'stopped');
    const after = options.fix && !options.dryRun ? await lintWorkspace(ws.root, ws.schema, ws.config.config, { fix: false }) : before;
    const findings = sortFindings([...after.findings, ...modelFindings]);
    const report: LintAgentReport = {
      findings,
      ...countBySeverity(findings),
      changes: [...before.changes, ...changes.created.map((p) => `${p}: created by the model`), ...changes.updated.map((p) => `${p}: updated by the model`)],
      review: summariseRun(run, changes, touched, Date.now() - started, options.budget.maxTurns),
    };
    if (options.dryRun) report.diff = session.overlay?.unifiedDiff() ?? '';
    return report;
  } finally {
    await lock?.release();
  }
}

function reviewRequest(report: LintReport, fix: boolean): string {
  const lines = [
    `The deterministic checks found ${report.errors} error(s) and ${report.warnings} warning(s)${report.changes.length ? ` after ${report.changes.length} automatic repair(s)` : ''}:`,
    '',
  ];
  for (const f of report.findings.slice(0, REPORT_LIMIT)) {
    lines.push(`- [${f.severity}] ${f.rule} ${f.path}${f.line ? `:${f.line}` : ''} — ${f.message}`);
  }
  if (report.findings.length > REPORT_LIMIT) lines.push(`- … and ${report.findings.length - REPORT_LIMIT} more`);
  if (report.findings.length === 0) lines.push('(none)');
  lines.push(
    '',
    fix
      ? 'Review the wiki as "Workflow: lint" says, fix what you can with the tools, and end with one FINDING line per problem you found (fixed or not).'
      : 'Review the wiki as "Workflow: lint" says. Do not change anything; end with one FINDING line per problem you found.',
  );
  return lines.join('\n');
}

/** `FINDING <rule> <path> :: <message>` lines from the model's final message. */
export function parseModelFindings(text: string): Finding[] {
  const findings: Finding[] = [];
  for (const line of text.split('\n')) {
    const match = /^\s*(?:[-*]\s*)?FINDING\s+([a-z][a-z-]*)\s+(\S+)\s*::\s*(.+?)\s*$/.exec(line);
    if (!match) continue;
    const [, rule = '', path = '', message = ''] = match;
    findings.push({
      rule: `llm-${MODEL_RULES.has(rule) ? rule : 'other'}`,
      severity: 'warning',
      path: path.replace(/^`|`$/g, ''),
      message,
    });
  }
  return findings;
}
