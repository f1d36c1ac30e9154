import type { AgentRunStatus } from '../agent/events.js';
import type { Usage } from '../agent/types.js';
import type { Colors } from '../util/colors.js';
import { formatCost, formatDuration, formatTokens, plural } from './format.js';

export interface RunSummary {
  /** `incomplete`: the loop finished, but the operation's job was not done (see run-outcome.ts). */
  status: AgentRunStatus | 'incomplete';
  /** Workspace-relative paths of pages the run created / changed. */
  pagesCreated: string[];
  pagesUpdated: string[];
  turns: number;
  maxTurns: number;
  usage: Usage;
  /** Estimated USD; absent when the model's price is unknown. */
  cost?: number;
  durationMs: number;
  /** Named in "cost unknown for <model>". */
  model?: string;
  /** The run used a keyless local server: its cost is unknown because no list price applies. */
  localServer?: boolean;
  /** Leave out the page lists (a command that says what it filed in its own words). */
  omitPages?: boolean;
}

const STATUS_TEXT: Record<RunSummary['status'], string> = {
  done: 'done',
  max_turns: 'stopped at the turn limit',
  budget_tokens: 'stopped: token budget reached',
  budget_cost: 'stopped: cost budget reached',
  interrupted: 'interrupted',
  refused: 'the model refused',
  provider_error: 'failed: provider error',
  incomplete: 'incomplete',
};

/** Pages listed one per line up to this many; the rest are counted. */
const MAX_LISTED = 20;

/** The end-of-run summary: outcome, pages, turns, tokens, estimated cost, duration. */
export function renderRunSummary(summary: RunSummary, c: Colors): string {
  const lines: string[] = [];
  const outcome = STATUS_TEXT[summary.status];
  const mark = summary.status === 'done' ? c.green('✓') : summary.status === 'provider_error' ? c.red('✗') : c.yellow('!');
  const paint = summary.status === 'done' ? c.bold : summary.status === 'provider_error' ? c.red : c.yellow;
  lines.push(`${mark} ${paint(outcome)} · ${plural(summary.turns, 'turn')} of ${summary.maxTurns} · ${formatDuration(summary.durationMs)}`);

  if (!summary.omitPages) {
    lines.push(...pageList('Created', summary.pagesCreated, c.green('+'), c));
    lines.push(...pageList('Updated', summary.pagesUpdated, c.cyan('~'), c));
    if (summary.pagesCreated.length === 0 && summary.pagesUpdated.length === 0) lines.push(c.dim('No pages changed.'));
  }

  lines.push(...usageLines(summary, c));
  return lines.join('\n');
}

/** What the run used: its tokens, then its estimated cost (or why that is unknown). */
export function usageLines(summary: Pick<RunSummary, 'usage' | 'cost' | 'model' | 'localServer'>, c: Colors): string[] {
  const u = summary.usage;
  const tokens =
    `Tokens:  ${formatTokens(u.inputTokens)} input · ${formatTokens(u.outputTokens)} output · ` +
    `${formatTokens(u.cacheReadTokens)} cached · ${formatTokens(u.cacheWriteTokens)} cache writes`;
  if (summary.cost !== undefined) return [tokens, `Cost:    ~${formatCost(summary.cost)} ${c.dim('(estimated from list prices)')}`];
  if (summary.localServer) return [tokens, `Cost:    ${c.dim('unknown (local server)')}`];
  return [tokens, `Cost:    ${c.dim(`unknown for ${summary.model ?? 'this model'} (no price on file)`)}`];
}

function pageList(verb: string, pages: readonly string[], mark: string, c: Colors): string[] {
  if (pages.length === 0) return [];
  const lines = [`${verb} ${plural(pages.length, 'page')}:`];
  for (const page of pages.slice(0, MAX_LISTED)) lines.push(`  ${mark} ${page}`);
  if (pages.length > MAX_LISTED) lines.push(c.dim(`  … and ${pages.length - MAX_LISTED} more`));
  return lines;
}
