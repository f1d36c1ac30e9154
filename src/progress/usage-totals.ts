import type { Colors } from '../util/colors.js';
import type { UsageTotals } from '../usage/transcripts.js';
import { formatCost, formatTokens, plural } from './format.js';

/** One line for `wiki status`: runs, tokens by kind, estimated cost. */
export function renderUsageTotals(totals: UsageTotals, c: Colors): string {
  if (totals.runs === 0) return c.dim('no runs yet');
  const t = totals.tokens;
  const all = t.inputTokens + t.outputTokens + t.cacheReadTokens + t.cacheWriteTokens;
  const parts = [
    `${plural(totals.runs, 'run')}, ${formatTokens(all)} tokens`,
    `(${formatTokens(t.inputTokens)} input, ${formatTokens(t.outputTokens)} output, ` +
      `${formatTokens(t.cacheReadTokens)} cached, ${formatTokens(t.cacheWriteTokens)} cache writes)`,
  ];
  let cost: string;
  if (totals.unpricedRuns === 0) cost = `est. ~${formatCost(totals.cost)}`;
  else if (totals.unpricedRuns === totals.runs) cost = c.dim('cost unknown (models not in the price table)');
  else cost = `est. ~${formatCost(totals.cost)} ${c.dim(`+ ${plural(totals.unpricedRuns, 'run')} with unknown cost`)}`;
  const skipped = totals.skippedLines > 0 ? c.dim(` (${plural(totals.skippedLines, 'corrupt transcript line')} skipped)`) : '';
  return `${parts.join(' ')}, ${cost}${skipped}`;
}

/** `wiki status`: what one source's ingest costs on average, from the ingest runs on record. */
export function renderMeanPerSource(totals: UsageTotals, c: Colors): string {
  if (totals.runs === 0) return c.dim('no source ingested yet');
  const t = totals.tokens;
  const all = t.inputTokens + t.outputTokens + t.cacheReadTokens + t.cacheWriteTokens;
  const priced = totals.runs - totals.unpricedRuns;
  const cost = priced === 0 ? c.dim('cost unknown') : `est. ~${formatCost(totals.cost / priced)}${totals.unpricedRuns > 0 ? c.dim(` (over the ${plural(priced, 'priced ingest')})`) : ''}`;
  return `${formatTokens(all / totals.runs)} tokens (${formatTokens(t.cacheReadTokens / totals.runs)} cached), ${cost} — mean over ${plural(totals.runs, 'source ingest')}`;
}
