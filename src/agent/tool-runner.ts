import type { Tool, ToolOutcome } from '../tools/types.js';
import { unlessAborted } from '../util/abort.js';
import { mergeChanges, type ChangedFile } from './changes.js';
import {
  nonObjectArgumentsMessage,
  notRunMessage,
  stoppedMessage,
  toolThrewMessage,
  unknownToolMessage,
  unparsableArgumentsMessage,
} from './tool-errors.js';
import type { ToolCall, ToolResult } from './types.js';

export interface ToolRunHooks {
  signal?: AbortSignal;
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
 * Run every call of one turn. Consecutive read-only calls run together; a mutating call
 * waits for everything before it and runs alone, so writes happen in the order the model
 * asked for and a read issued after a write sees it. Once the signal fires, read-only calls
 * still running are answered at once as stopped (a slow read, a huge listing or a stalled
 * search must not hold an interrupt up; their work is abandoned), a write already running
 * finishes (it is small and capped, and its history entry must match the disk), and the
 * rest are skipped. Never throws: every failure becomes an error result addressed to the model.
 */
export async function runToolCalls(
  calls: readonly ToolCall[],
  tools: ReadonlyMap<string, Tool>,
  hooks: ToolRunHooks = {},
): Promise<ToolBatchOutcome> {
  const results: ToolResult[] = new Array<ToolResult>(calls.length);
  let changed: ChangedFile[] = [];
  let interrupted = false;

  for (const group of scheduleGroups(calls, tools)) {
    if (hooks.signal?.aborted === true) {
      interrupted = true;
      for (const index of group) {
        const call = calls[index] as ToolCall;
        hooks.onCall?.(call);
        results[index] = resultOf(call, { content: notRunMessage(call), isError: true });
        hooks.onResult?.(results[index], 0, []);
      }
      continue;
    }
    const outcomes = await Promise.all(
      group.map(async (index) => {
        const call = calls[index] as ToolCall;
        hooks.onCall?.(call);
        const started = performance.now();
        const outcome = await executeCall(call, tools, hooks.signal);
        const result = resultOf(call, outcome);
        const callChanges = mergeChanges([], outcome.changed ?? []);
        hooks.onResult?.(result, Math.round(performance.now() - started), callChanges);
        return { index, result, callChanges };
      }),
    );
    // Merge in call order, not completion order, so the change list is deterministic.
    for (const { index, result, callChanges } of outcomes.sort((a, b) => a.index - b.index)) {
      results[index] = result;
      changed = mergeChanges(changed, callChanges);
    }
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

async function executeCall(call: ToolCall, tools: ReadonlyMap<string, Tool>, signal: AbortSignal | undefined): Promise<ToolOutcome> {
  const tool = tools.get(call.name);
  if (tool === undefined) return { content: unknownToolMessage(call, [...tools.keys()]), isError: true };
  if (call.arguments === undefined) return { content: unparsableArgumentsMessage(call, tool.definition), isError: true };
  if (typeof call.arguments !== 'object' || call.arguments === null || Array.isArray(call.arguments)) {
    return { content: nonObjectArgumentsMessage(call, tool.definition), isError: true };
  }
  try {
    const running = tool.run(call.arguments, signal);
    return tool.mutates ? await running : await unlessAborted(running, signal, () => ({ content: stoppedMessage(call), isError: true }));
  } catch (error) {
    return { content: toolThrewMessage(call, error), isError: true };
  }
}

function resultOf(call: ToolCall, outcome: ToolOutcome): ToolResult {
  return { callId: call.id, name: call.name, content: outcome.content, isError: outcome.isError };
}
