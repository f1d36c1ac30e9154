import type { Tool, ToolOutcome, TurnBatch } from './tool.js';
import { mapLimited } from '../util/map-limited.js';
import { unlessAborted } from '../util/abort.js';
import { mergeChanges, type ChangedFile } from './changes.js';
import {
  nonObjectArgumentsMessage,
  notRunMessage,
  oversizedArgumentsMessage,
  overCallLimitMessage,
  overSearchLimitMessage,
  overResultBudgetMessage,
  stoppedMessage,
  toolThrewMessage,
  unknownToolMessage,
  unparsableArgumentsMessage,
} from './tool-errors.js';
import { DEFAULT_TURN_LIMITS, PARALLEL_TOOL_CALLS, SEARCH_TOOL, type TurnLimits } from './turn-limits.js';
import type { ToolCall, ToolResult } from './types.js';

export interface ToolRunHooks {
  signal?: AbortSignal;
  /** Per-turn caps (default DEFAULT_TURN_LIMITS). */
  limits?: TurnLimits;
  onCall?: (call: ToolCall) => void;
  onResult?: (result: ToolResult, durationMs: number, changed: ChangedFile[]) => void;
}

export interface ToolBatchOutcome {
  /** One result per call, in call order. */
  results: ToolResult[];
  changed: ChangedFile[];
  /** The signal fired: calls not yet started were skipped (each has a "not run" error result). */
  interrupted: boolean;
}

/**
 * Run every call of one turn. Consecutive read-only calls run together (a few at a time);
 * a mutating call waits for everything before it and runs alone, so writes happen in the
 * order the model asked for and a read issued after a write sees it. Calls past the
 * per-turn count are not run, and read results past the per-turn byte budget (counted in
 * call order, so the cut does not depend on timing) are withheld; both are answered with
 * an error saying what to do. A write's result is always returned and not counted: the
 * write happened, and its answer is short.
 * Once the signal fires, read-only calls still running are answered at once as stopped (a
 * slow read, a huge listing or a stalled search must not hold an interrupt up; their work is
 * abandoned), a write already running finishes (it is small and capped, and its history
 * entry must match the disk), and the rest are skipped. Never throws: every failure becomes
 * an error result addressed to the model.
 * A tool that sees its calls of the turn together (Tool.openTurn: write_file, whose pages may
 * link to each other) may hold a call until the turn's other calls have run; it is answered
 * then, still at its own place in the results.
 */
export async function runToolCalls(
  calls: readonly ToolCall[],
  tools: ReadonlyMap<string, Tool>,
  hooks: ToolRunHooks = {},
): Promise<ToolBatchOutcome> {
  const limits = hooks.limits ?? DEFAULT_TURN_LIMITS;
  const results: ToolResult[] = new Array<ToolResult>(calls.length);
  let changed: ChangedFile[] = [];
  let interrupted = false;
  let resultBytes = 0;

  const answerUnrun = (index: number, content: string): void => {
    const call = calls[index] as ToolCall;
    hooks.onCall?.(call);
    results[index] = resultOf(call, { content, isError: true });
    hooks.onResult?.(results[index], 0, []);
  };

  const runnable = calls.slice(0, limits.toolCallsPerTurn);
  // Searches past the per-turn count, in call order: answered at once, never run.
  const searchIndexes = runnable.flatMap((call, index) => (call.name === SEARCH_TOOL ? [index] : []));
  const overSearches = new Set(limits.searchesPerTurn === undefined ? [] : searchIndexes.slice(limits.searchesPerTurn));
  const batches = openTurnBatches(runnable, tools);
  /** Calls a turn-aware tool held: answered once the turn's other calls have run. */
  const held: number[] = [];
  const record = (index: number, outcome: ToolOutcome, durationMs: number): void => {
    const call = calls[index] as ToolCall;
    let result = resultOf(call, outcome);
    if (tools.get(call.name)?.mutates !== true) {
      const bytes = Buffer.byteLength(result.content, 'utf8');
      if (resultBytes + bytes > limits.toolResultBytesPerTurn) {
        result = resultOf(call, { content: overResultBudgetMessage(call.name, bytes, limits.toolResultBytesPerTurn), isError: true });
      } else {
        resultBytes += bytes;
      }
    }
    const callChanges = mergeChanges([], outcome.changed ?? []);
    results[index] = result;
    changed = mergeChanges(changed, callChanges);
    hooks.onResult?.(result, durationMs, callChanges);
  };
  for (const group of scheduleGroups(runnable, tools)) {
    if (hooks.signal?.aborted === true) {
      interrupted = true;
      for (const index of group) answerUnrun(index, notRunMessage(calls[index] as ToolCall));
      continue;
    }
    const outcomes = await mapLimited(group, PARALLEL_TOOL_CALLS, async (index) => {
      const call = calls[index] as ToolCall;
      hooks.onCall?.(call);
      if (hooks.signal?.aborted === true) {
        interrupted = true;
        return { index, outcome: { content: notRunMessage(call), isError: true }, durationMs: 0 };
      }
      if (overSearches.has(index)) {
        return { index, outcome: { content: overSearchLimitMessage(limits.searchesPerTurn ?? 0, searchIndexes.length), isError: true }, durationMs: 0 };
      }
      const started = performance.now();
      const outcome = await executeCall(call, tools, hooks.signal, { batch: batches.get(call.name), index });
      return { index, outcome, durationMs: Math.round(performance.now() - started) };
    });
    // Budget and merge in call order, not completion order, so the outcome is deterministic.
    for (const { index, outcome, durationMs } of outcomes) {
      if (outcome === undefined) held.push(index);
      else record(index, outcome, durationMs);
    }
  }
  if (held.length > 0) {
    if (hooks.signal?.aborted === true) interrupted = true;
    const settled = new Map<number, ToolOutcome>();
    for (const batch of settleOrder(batches)) {
      for (const [index, outcome] of await settleBatch(batch, hooks.signal)) settled.set(index, outcome);
    }
    for (const index of held) record(index, settled.get(index) ?? { content: notRunMessage(calls[index] as ToolCall), isError: true }, 0);
  }
  for (let index = runnable.length; index < calls.length; index += 1) {
    answerUnrun(index, overCallLimitMessage((calls[index] as ToolCall).name, limits.toolCallsPerTurn, calls.length));
  }
  return { results, changed, interrupted };
}

/** Indexes of calls grouped into steps: runs of read-only calls, each mutating call alone. */
export function scheduleGroups(calls: readonly ToolCall[], tools: ReadonlyMap<string, Tool>): number[][] {
  const groups: Array<{ parallel: boolean; indexes: number[] }> = [];
  calls.forEach((call, index) => {
    const mutates = tools.get(call.name)?.mutates === true;
    const last = groups.at(-1);
    if (!mutates && last?.parallel === true) last.indexes.push(index);
    else groups.push({ parallel: !mutates, indexes: [index] });
  });
  return groups.map((group) => group.indexes);
}

/** A batch for every tool of the turn that wants to see its calls together (see Tool.openTurn). */
function openTurnBatches(calls: readonly ToolCall[], tools: ReadonlyMap<string, Tool>): Map<string, TurnBatch> {
  const turnCalls = calls.map((call, index) => ({ index, name: call.name, args: isArgumentObject(call.arguments) ? call.arguments : undefined }));
  const batches = new Map<string, TurnBatch>();
  for (const name of new Set(calls.map((call) => call.name))) {
    const tool = tools.get(name);
    if (tool?.openTurn !== undefined) batches.set(name, tool.openTurn(turnCalls));
  }
  return batches;
}

/** The batches in the order they settle: each after the tools it names in `settlesAfter`. */
function settleOrder(batches: ReadonlyMap<string, TurnBatch>): TurnBatch[] {
  const order: TurnBatch[] = [];
  const placed = new Set<string>();
  const place = (name: string, seen: Set<string>): void => {
    const batch = batches.get(name);
    if (batch === undefined || placed.has(name) || seen.has(name)) return;
    seen.add(name);
    for (const before of batch.settlesAfter ?? []) place(before, seen);
    placed.add(name);
    order.push(batch);
  };
  for (const name of batches.keys()) place(name, new Set());
  return order;
}

async function settleBatch(batch: TurnBatch, signal: AbortSignal | undefined): Promise<ReadonlyMap<number, ToolOutcome>> {
  try {
    return await batch.settle(signal);
  } catch {
    // Never thrown by contract; should it be, the held calls are answered as not run.
    return new Map();
  }
}

function isArgumentObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** One call's answer; `undefined` when a turn-aware tool held it (answered when its batch settles). */
async function executeCall(
  call: ToolCall,
  tools: ReadonlyMap<string, Tool>,
  signal: AbortSignal | undefined,
  turn?: { batch: TurnBatch | undefined; index: number },
): Promise<ToolOutcome | undefined> {
  const tool = tools.get(call.name);
  if (tool === undefined) return { content: unknownToolMessage(call, [...tools.keys()]), isError: true };
  if (call.oversized !== undefined) return { content: oversizedArgumentsMessage(call, call.oversized), isError: true };
  if (call.arguments === undefined) return { content: unparsableArgumentsMessage(call, tool.definition), isError: true };
  if (!isArgumentObject(call.arguments)) return { content: nonObjectArgumentsMessage(call, tool.definition), isError: true };
  try {
    const batch = turn?.batch;
    if (batch !== undefined && turn !== undefined) return await batch.run(turn.index, call.arguments, signal);
    const running = tool.run(call.arguments, signal);
    return tool.mutates ? await running : await unlessAborted(running, signal, () => ({ content: stoppedMessage(call), isError: true }));
  } catch (error) {
    return { content: toolThrewMessage(call, error), isError: true };
  }
}

function resultOf(call: ToolCall, outcome: ToolOutcome): ToolResult {
  return { callId: call.id, name: call.name, content: outcome.content, isError: outcome.isError };
}
