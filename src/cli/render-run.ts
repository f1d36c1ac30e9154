import type { IngestReport } from '../operations/ingest/ingest-report.js';
import type { QueryReport } from '../operations/query/query.js';
import { describeStatus, type RunOutcome } from '../operations/run/run-outcome.js';
import { formatCost, formatTokens, plural } from '../progress/format.js';
import { renderRunSummary, usageLines } from '../progress/summary.js';
import type { Colors } from './output.js';

/** The run summary (pages, turns, tokens, cost, duration), then why it stopped and any errors left. */
/** How the run's model is priced: a keyless local server has no list price. */
export interface Pricing {
  localServer: boolean;
}

export function renderOutcomeLines(outcome: RunOutcome, c: Colors, pricing?: Pricing, omitPages = false): string[] {
  const summary = renderRunSummary(
    {
      status: outcome.status,
      pagesCreated: outcome.created,
      pagesUpdated: outcome.updated,
      turns: outcome.turns,
      maxTurns: outcome.maxTurns,
      usage: outcome.usage,
      cost: outcome.cost,
      durationMs: outcome.durationMs,
      localServer: pricing?.localServer,
      omitPages,
    },
    c,
  );
  return [...summary.split('\n').map((line) => `  ${line}`), ...renderOutcomeProblems(outcome, c)];
}

/** Why a run stopped (when it did not finish), the writes refused and the errors left: what must never go unsaid. */
export function renderOutcomeProblems(outcome: RunOutcome, c: Colors): string[] {
  const lines: string[] = [];
  const why = describeStatus(outcome);
  if (why) lines.push(`  ${c.red('!')} ${why}`);
  const open = outcome.rejectedWrites.filter((r) => !r.rewritten);
  const rewritten = outcome.rejectedWrites.length - open.length;
  if (open.length > 0) {
    lines.push(`  ${c.yellow(`${open.length} write(s) rejected`)}${rewritten > 0 ? ` (and ${rewritten} more followed by an accepted write of the same page)` : ''}:`);
    for (const r of open.slice(0, 10)) lines.push(`    ${r.path}: ${r.reason}`);
    if (open.length > 10) lines.push(`    … and ${open.length - 10} more (see --json)`);
  } else if (rewritten > 0) {
    lines.push(`  ${c.dim(`${rewritten} write(s) rejected, each followed by an accepted write of the same page (see --json)`)}`);
  }
  for (const f of outcome.findings.filter((x) => x.severity === 'error')) lines.push(`  ${c.red('error')} ${f.path}: ${f.message}`);
  return lines;
}

export function renderIngest(report: IngestReport, c: Colors, pricing?: Pricing): string {
  const lines: string[] = [];
  for (const s of report.ingested) {
    lines.push(`${c.bold(s.source)}${s.copiedFrom ? c.dim(` (copied from ${s.copiedFrom})`) : ''}${s.state === 'changed' ? c.dim(' (changed)') : ''}`);
    for (const w of s.warnings) lines.push(`  ${c.yellow('warning')} ${w}`);
    lines.push(...renderOutcomeLines(s, c, pricing));
    if (s.staleMarked.length) lines.push(`  marked stale: ${s.staleMarked.join(', ')}`);
    if (s.following?.earlierKnown) {
      const open = s.following.staleClaims - s.following.settled;
      lines.push(`  citations moved: ${s.following.citationsMoved} · stale claims: ${open}${s.following.staleClaims ? ` (${s.following.settled} of ${s.following.staleClaims} settled)` : ''}${open ? ' — `wiki lint` lists them' : ''}`);
    }
  }
  for (const r of report.renamed ?? []) lines.push(`${c.green('→')} ${r.from} renamed to ${r.to}: same content, nothing re-ingested; ${r.pages.length} page(s) follow it`);
  if (report.totals.sources > 1) lines.push(renderIngestTotals(report.totals, c, pricing));
  for (const s of report.skipped) lines.push(`${c.red('✗')} ${s.source} skipped: ${s.reason}`);
  for (const u of report.unsupported) lines.push(`${c.dim('-')} ${u.path} skipped: ${u.reason}`);
  for (const source of report.upToDate) lines.push(`${c.dim('=')} ${source} is up to date (use --force to re-ingest)`);
  if (report.pending.length) lines.push(`${c.yellow('…')} stopped before ${report.pending.join(', ')}: run again to ingest ${report.pending.length === 1 ? 'it' : 'them'}`);
  for (const d of report.deletedSources) lines.push(`${c.yellow('-')} ${d.source} was deleted; marked stale: ${d.staleMarked.join(', ') || 'nothing'}`);
  if (report.diff !== undefined) lines.push('', report.diff || '(dry run: nothing would change)', c.dim('dry run: nothing was written'));
  if (report.ingested.length === 0 && (report.upToDate.length > 0 || (report.renamed?.length ?? 0) > 0)) lines.push('Nothing to do: every source is up to date.');
  return lines.join('\n');
}

/** The command's total over its sources: tokens, cache reads, estimated cost, and the mean per source. */
function renderIngestTotals(totals: IngestReport['totals'], c: Colors, pricing?: Pricing): string {
  const cost = totals.cost === undefined ? c.dim(pricing?.localServer ? 'cost: unknown (local server)' : 'cost unknown') : `~${formatCost(totals.cost)} (~${formatCost(totals.cost / totals.sources)} a source)`;
  return `${c.bold('Total')}: ${plural(totals.sources, 'source')} · ${formatTokens(totals.tokens)} tokens · ${formatTokens(totals.usage.cacheReadTokens)} cached · ${cost}`;
}

/** How much of a query's result to print: the answer alone (--quiet), answer and citations (default), or everything (--explain). */
export interface QueryView {
  quiet: boolean;
  explain: boolean;
  pricing?: Pricing;
}

/**
 * The answer, then `cited: …` and what was filed ("created wiki/concepts/x.md"); problems
 * (a stopped run, refused writes, an answer citing nothing) always, then the run's tokens
 * and cost; the evidence chain and the run's turns and duration only with --explain;
 * --quiet prints the answer alone.
 */
export function renderQuery(report: QueryReport, c: Colors, view: QueryView = { quiet: false, explain: false }): string {
  if (view.quiet) return report.answer;
  if (report.state === 'nothing-in-wiki') {
    const lines = [c.yellow(report.answer), c.dim('no model was called; add sources with `wiki ingest`, or ask with other words')];
    if (report.notSaved) lines.push(c.yellow(`not saved: ${report.notSaved}`));
    for (const warning of report.warnings) lines.push(c.yellow(`warning: ${warning.message}`));
    return lines.join('\n');
  }
  const lines = [report.answer || c.dim('(no answer)'), ''];
  if (report.cited.length) lines.push(c.dim(`cited: ${report.cited.join(', ')}`));
  if (view.explain && report.evidence.chain.length) lines.push(c.dim('evidence chain:'), ...report.evidence.chain.map((line) => c.dim(`  ${line}`)));
  if (report.evidence.searchFailed) lines.push(c.yellow(`no evidence pack: ${report.evidence.searchFailed}`));
  const dryRun = report.diff !== undefined;
  if (report.saved) {
    const verb = report.saved.created ? 'created' : 'updated';
    lines.push(c.green(`${dryRun ? `would be ${verb}` : verb}: ${report.saved.path}${report.saved.by === 'wiki' ? ' (filed by wiki)' : ''}`));
  }
  if (report.notSaved) lines.push(c.yellow(`not saved: ${report.notSaved}`));
  if (report.uncited.length) lines.push(c.yellow(`cited pages that do not exist: ${report.uncited.join(', ')}`));
  if (!report.found && report.answer) lines.push(c.yellow(`found: false — the answer cites no page of the wiki for “${report.question}”`));
  for (const warning of report.warnings) lines.push(c.yellow(`warning: ${warning.message}`));
  // Tokens and cost after every run that called the model, as ingest and lint print them; the rest of the summary with --explain.
  const meta = view.explain
    ? renderOutcomeLines({ ...report, created: [], updated: [] }, c, view.pricing, true)
    : [...renderOutcomeProblems(report, c), ...(report.turns > 0 ? usageLines({ ...report, localServer: view.pricing?.localServer }, c).map((line) => c.dim(line)) : [])];
  lines.push(...meta.map((l) => l.trimStart()));
  if (dryRun) lines.push('', report.diff || '(dry run: nothing would change)', c.dim('dry run: nothing was written'));
  return lines.join('\n').replace(/\n+$/, '');
}
