import type { JsonSchema, ToolDefinition } from '../agent/types.js';

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
}

export type { JsonSchema };
