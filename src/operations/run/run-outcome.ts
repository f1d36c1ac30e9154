import type { AgentRunStatus } from '../../agent/events.js';
import { totalTokens } from '../../agent/loop.js';
import { emptyUsage, type Usage } from '../../agent/types.js';
import type { Finding } from '../../wiki/validate/finding.js';
import type { ModelRun, RejectedWrite, RunBudget } from './agent-run.js';

/** What one agent run did, in the shape commands render and `--json` prints. */
/** How a run ended: the loop's status, or `incomplete` when it finished without doing its job. */
export type OutcomeStatus = AgentRunStatus | 'incomplete';

export interface RunOutcome {
  status: OutcomeStatus;
  created: string[];
  updated: string[];
  turns: number;
  maxTurns: number;
  /** The run's token and cost budgets, when set. */
  maxTokens?: number;
  maxCost?: number;
  usage: Usage;
  tokens: number;
  cost: number | undefined;
  durationMs: number;
  /** Findings on the pages the run touched, after it finished. */
  findings: Finding[];
  transcript: string | undefined;
  /** Writes the tools refused: path and first reason. */
  rejectedWrites: RejectedWrite[];
  /** One line on why the run did not finish, when it did not. */
  error?: string;
  /** What raises the budget that stopped the run, when not the --max-tokens / --max-cost flag. */
  budgetSetting?: string;
  errorKind?: string;
  /** Exit code the error calls for (2 for configuration-like provider errors such as an unknown model). */
  errorExitCode?: number;
}

export function summariseRun(
  run: ModelRun,
  changes: { created: string[]; updated: string[] },
  findings: Finding[],
  durationMs: number,
  budget: Pick<RunBudget, 'maxTurns' | 'maxTokens' | 'maxCost'>,
): RunOutcome {
  const outcome: RunOutcome = {
    status: run.status,
    created: changes.created,
    updated: changes.updated,
    turns: run.turns,
    maxTurns: budget.maxTurns,
    maxTokens: budget.maxTokens,
    maxCost: budget.maxCost,
    usage: run.usage,
    tokens: totalTokens(run.usage),
    cost: run.cost,
    durationMs,
    findings,
    transcript: run.transcript,
    rejectedWrites: run.rejectedWrites,
  };
  if (run.error) {
    outcome.error = run.error.message;
    const kind = (run.error as { kind?: unknown }).kind;
    if (typeof kind === 'string') outcome.errorKind = kind;
    const code = (run.error as { exitCode?: unknown }).exitCode;
    if (typeof code === 'number') outcome.errorExitCode = code;
  }
  return outcome;
}

/** The outcome of an operation that had no need to call the model (nothing to work from). */
export function noModelOutcome(durationMs: number, budget: Pick<RunBudget, 'maxTurns' | 'maxTokens' | 'maxCost'>): RunOutcome {
  return {
    status: 'done',
    created: [],
    updated: [],
    turns: 0,
    maxTurns: budget.maxTurns,
    maxTokens: budget.maxTokens,
    maxCost: budget.maxCost,
    usage: emptyUsage(),
    tokens: 0,
    cost: 0,
    durationMs,
    findings: [],
    transcript: undefined,
    rejectedWrites: [],
  };
}

/** How the history records a run that ended with `status`. */
export function historyStatus(status: OutcomeStatus): 'completed' | 'interrupted' | 'stopped' {
  return status === 'done' ? 'completed' : status === 'interrupted' ? 'interrupted' : 'stopped';
}

/** Why a run stopped, in words, for anything but a normal finish. */
export function describeStatus(outcome: RunOutcome): string | undefined {
  switch (outcome.status) {
    case 'done':
      return undefined;
    case 'max_turns':
      return `stopped at the turn limit (${outcome.maxTurns}); raise it with --max-turns`;
    case 'budget_tokens':
      return outcome.maxTokens !== undefined && outcome.tokens > outcome.maxTokens
        ? `stopped: the last call went past the token budget (${outcome.tokens} tokens used of ${outcome.maxTokens}); raise it with ${outcome.budgetSetting ?? '--max-tokens'}`
        : `stopped: token budget reached (${outcome.tokens} tokens); raise it with ${outcome.budgetSetting ?? '--max-tokens'}`;
    case 'budget_cost':
      return outcome.maxCost !== undefined && (outcome.cost ?? 0) > outcome.maxCost
        ? `stopped: the last call went past the cost budget (~$${(outcome.cost ?? 0).toFixed(4)} spent of $${outcome.maxCost}); raise it with ${outcome.budgetSetting ?? '--max-cost'}`
        : `stopped: cost budget reached (~$${(outcome.cost ?? 0).toFixed(4)}); raise it with ${outcome.budgetSetting ?? '--max-cost'}`;
    case 'interrupted':
      return 'interrupted; pages written so far are kept and listed in the log';
    case 'refused':
      return 'the model refused the request';
    case 'provider_error':
      return `provider error: ${outcome.error ?? 'unknown'}`;
    case 'incomplete':
      return `incomplete: ${outcome.error ?? 'the run did not do its job'}; it will be retried by the next run`;
  }
}
