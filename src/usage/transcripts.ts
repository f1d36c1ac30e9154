import { createReadStream } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { addUsage, emptyUsage, type Usage } from '../agent/types.js';

/** Cumulative model usage over every run transcript in `.wiki/runs/`. */
export interface UsageTotals {
  /** Agent runs found (a `run_start`, or usage with no start left in a cut-off file). */
  runs: number;
  tokens: Usage;
  /** Sum of the estimated USD of every run whose cost was known. */
  cost: number;
  /** Runs whose tokens are counted but whose cost was unknown (model not in the price table). */
  unpricedRuns: number;
  /** Transcript lines that were not valid records (a run killed mid-write, a hand edit). */
  skippedLines: number;
}

interface RunTally {
  usage: Usage;
  cost: number | undefined;
}

export function emptyUsageTotals(): UsageTotals {
  return { runs: 0, tokens: emptyUsage(), cost: 0, unpricedRuns: 0, skippedLines: 0 };
}

/**
 * Sum usage from `<root>/.wiki/runs/*.jsonl` (only the runs in `onlyRuns`, when given). Each run's figures come from its last cumulative
 * record: `run_end` when the run finished, otherwise the last `usage` event (a run that was
 * killed still counts what it spent). Costs are the ones recorded at run time, so a later
 * price change does not rewrite history. Unreadable files and corrupt lines are skipped.
 */
export async function sumTranscriptUsage(root: string, onlyRuns?: ReadonlySet<string>, options: { skipEmptyRuns?: boolean } = {}): Promise<UsageTotals> {
  const dir = path.join(root, '.wiki', 'runs');
  let names: string[];
  try {
    names = (await readdir(dir)).filter((name) => name.endsWith('.jsonl') && (onlyRuns === undefined || onlyRuns.has(name.slice(0, -'.jsonl'.length)))).sort();
  } catch {
    return emptyUsageTotals();
  }
  let totals = emptyUsageTotals();
  for (const name of names) {
    try {
      totals = await addTranscript(totals, path.join(dir, name), options.skipEmptyRuns === true);
    } catch {
      // A transcript that vanished or cannot be read is left out rather than failing status.
    }
  }
  return totals;
}

/** `skipEmpty`: a run that spent no token (failed before the model answered) is not counted. */
async function addTranscript(totals: UsageTotals, file: string, skipEmpty: boolean): Promise<UsageTotals> {
  let result = { ...totals };
  let current: RunTally | undefined;
  let started = false;

  const flush = (): void => {
    if (current === undefined && !started) return;
    const tally = current ?? { usage: emptyUsage(), cost: 0 };
    if (skipEmpty && !hasTokens(tally.usage)) {
      current = undefined;
      started = false;
      return;
    }
    result = {
      ...result,
      runs: result.runs + 1,
      tokens: addUsage(result.tokens, tally.usage),
      cost: result.cost + (tally.cost ?? 0),
      unpricedRuns: result.unpricedRuns + (tally.cost === undefined && hasTokens(tally.usage) ? 1 : 0),
    };
    current = undefined;
    started = false;
  };

  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  for await (const line of lines) {
    if (line.trim() === '') continue;
    const record = parseRecord(line);
    if (record === undefined) {
      result.skippedLines += 1;
      continue;
    }
    if (record.type === 'run_start') {
      flush();
      started = true;
    } else if (record.type === 'usage' || record.type === 'run_end') {
      const usage = usageOf(record.type === 'usage' ? record['total'] : record['usage']);
      if (usage === undefined) {
        result.skippedLines += 1;
        continue;
      }
      const cost = record['cost'];
      current = { usage, cost: typeof cost === 'number' && Number.isFinite(cost) ? cost : undefined };
      if (record.type === 'run_end') {
        started = true;
        flush();
      }
    }
  }
  flush();
  return result;
}

function parseRecord(line: string): ({ type: string } & Record<string, unknown>) | undefined {
  try {
    const value: unknown = JSON.parse(line);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    const type = (value as Record<string, unknown>)['type'];
    return typeof type === 'string' ? { ...(value as Record<string, unknown>), type } : undefined;
  } catch {
    return undefined;
  }
}

function usageOf(value: unknown): Usage | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  const count = (key: string): number | undefined => {
    const n = v[key];
    if (n === undefined) return 0;
    return typeof n === 'number' && Number.isFinite(n) && n >= 0 ? n : undefined;
  };
  const usage = {
    inputTokens: count('inputTokens'),
    outputTokens: count('outputTokens'),
    cacheReadTokens: count('cacheReadTokens'),
    cacheWriteTokens: count('cacheWriteTokens'),
  };
  if (Object.values(usage).some((n) => n === undefined)) return undefined;
  return usage as Usage;
}

function hasTokens(usage: Usage): boolean {
  return usage.inputTokens + usage.outputTokens + usage.cacheReadTokens + usage.cacheWriteTokens > 0;
}
