import { addCost, totalTokens, type SharedBudget } from '../../agent/loop.js';
import { addUsage, type Usage } from '../../agent/types.js';
import type { RunBudget } from '../run/agent-run.js';
import type { IngestOptions, IngestReport, SourceOutcome } from './ingest-report.js';
import { ingestOne, type IngestItem, type ManifestCell } from './ingest-run.js';
import type { Session } from '../run/session.js';
import type { WorkspaceHandle } from '../run/workspace-handle.js';
import type { SharedWorkspace } from '../run/shared-workspace.js';

/** Outcomes after which no further source is started; the rest are left for the next run. */
const STOPS_THE_COMMAND: ReadonlySet<SourceOutcome['status']> = new Set(['interrupted', 'provider_error']);

/**
 * The command's own `--max-tokens` / `--max-cost`: every job's model calls draw on it, and
 * each job checks it before and after each call, so the jobs together stop at the budget.
 */
export class CommandBudget implements SharedBudget {
  private tokens = 0;
  private cost: number | undefined = 0;

  constructor(private readonly limits: Pick<RunBudget, 'maxTokens' | 'maxCost'>) {}

  spend(usage: Usage, cost: number | undefined): void {
    this.tokens += totalTokens(usage);
    this.cost = addCost(this.cost, cost);
  }

  exhausted(): 'budget_tokens' | 'budget_cost' | undefined {
    if (this.limits.maxTokens !== undefined && this.tokens >= this.limits.maxTokens) return 'budget_tokens';
    if (this.limits.maxCost !== undefined && this.cost !== undefined && this.cost >= this.limits.maxCost) return 'budget_cost';
    return undefined;
  }
}

/**
 * Up to `jobs` sources at once, each its own agent run, taken in order. A job that ends
 * its source takes the next; none is started once the command is interrupted, its budget
 * is spent or the provider fails — those are `pending`, picked up by the next run. A job
 * that throws stops the others after their current step, and the error is rethrown.
 */
export async function runIngestJobs(
  ws: WorkspaceHandle,
  shared: SharedWorkspace,
  todo: IngestItem[],
  manifest: ManifestCell,
  options: IngestOptions & { jobs: number },
  warningsOf: (rawPath: string) => string[],
  report: IngestReport,
  /** The command's budget, when it spans several calls (one per source under --review). */
  budget: CommandBudget = new CommandBudget(options.budget),
): Promise<Session | undefined> {
  const failure = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, failure.signal]) : failure.signal;
  // Each source runs within its own budget (ingest.maxTokensPerSource / maxCostPerSource).
  const { maxTokensPerSource, maxCostPerSource } = ws.config.config.ingest;
  const perSource: RunBudget = { ...options.budget, maxTokens: maxTokensPerSource, maxCost: maxCostPerSource };

  const outcomes: Array<SourceOutcome | undefined> = new Array<SourceOutcome | undefined>(todo.length);
  let nextIndex = 0;
  let stopped = false;
  let thrown: unknown;
  let lastSession: Session | undefined;

  const worker = async (): Promise<void> => {
    while (!stopped && nextIndex < todo.length) {
      if (signal.aborted || budget.exhausted() !== undefined) break;
      const index = nextIndex++;
      const item = todo[index] as IngestItem;
      try {
        const done = await ingestOne(ws, shared, item, manifest, { ...options, budget: perSource, signal, sharedBudget: budget, commandLimits: options.budget }, warningsOf(item.source.rawPath));
        outcomes[index] = done.outcome;
        lastSession = done.session;
        if (STOPS_THE_COMMAND.has(done.outcome.status)) stopped = true;
      } catch (error) {
        thrown ??= error;
        stopped = true;
        failure.abort(error);
      }
      if (options.dryRun) stopped = true; // one overlay per run: later sources would not see earlier ones
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.jobs, todo.length)) }, () => worker()));
  if (thrown !== undefined) throw thrown;

  for (const [index, item] of todo.entries()) {
    const outcome = outcomes[index];
    if (outcome === undefined) {
      if (!options.dryRun) report.pending.push(item.source.rawPath);
      continue;
    }
    report.ingested.push(outcome);
    report.totals = {
      sources: report.totals.sources + 1,
      usage: addUsage(report.totals.usage, outcome.usage),
      tokens: report.totals.tokens + outcome.tokens,
      cost: addCost(report.totals.cost, outcome.cost),
    };
    if (outcome.status !== 'done') report.ok = false;
    if (outcome.status === 'interrupted') report.interrupted = true;
  }
  if (report.pending.length > 0) report.ok = false;
  if (options.signal?.aborted) report.interrupted = true;
  return lastSession;
}
