import type { JsonSchema, ToolDefinition } from './types.js';

/** What a tool hands back to the loop; errors go to the model, never thrown out of the loop. */
export interface ToolOutcome {
  content: string;
  isError: boolean;
  /** Files this call changed (workspace-relative), for run summaries and history. */
  changed?: Array<{ path: string; change: 'created' | 'updated' | 'appended' }>;
}

/** One of the five tools the model gets. */
export interface Tool {
  definition: ToolDefinition;
  /** Mutating tools run in order within a turn; read-only ones run in parallel. */
  mutates: boolean;
  /** `args` is already parsed JSON; the tool validates its own shape and returns an error outcome when wrong. */
  run(args: Record<string, unknown>, signal?: AbortSignal): Promise<ToolOutcome>;
  /**
   * For a tool whose calls of one answer may depend on each other (write_file: pages that
   * link to each other): told of every call of the turn before any runs, it runs this tool's
   * calls of the turn instead of `run` and may hold some until the others have run.
   */
  openTurn?(calls: readonly TurnCall[]): TurnBatch;
}

/** A call of the turn as a turn-aware tool is told of it: its place in the answer, tool and arguments. */
export interface TurnCall {
  index: number;
  name: string;
  args: Record<string, unknown> | undefined;
}

/** One turn's calls of a turn-aware tool (see Tool.openTurn). */
export interface TurnBatch {
  /** Run call `index` of the turn now: its answer, or `undefined` when it is held until `settle`. */
  run(index: number, args: Record<string, unknown>, signal?: AbortSignal): Promise<ToolOutcome | undefined>;
  /** Once the turn's other calls have run: the answer of every held call, by call index. Never throws. */
  settle(signal?: AbortSignal): Promise<ReadonlyMap<number, ToolOutcome>>;
  /** Tools whose batches settle before this one (an append waits for the pages write_file calls of its answer write). */
  readonly settlesAfter?: readonly string[];
}

export type { JsonSchema };
