import type { StopReason, ToolCall, ToolResult, Usage } from './types.js';
import type { ChangedFile } from './changes.js';

/** How a run ended. Everything except `done` means the work may be incomplete. */
export type AgentRunStatus =
  | 'done'
  | 'max_turns'
  | 'budget_tokens'
  | 'budget_cost'
  | 'interrupted'
  | 'refused'
  | 'provider_error';

/**
 * What the loop reports while it runs: to a listener (progress display) and to the
 * JSONL transcript. Plain object types (not interfaces) so they serialise as records.
 */
export type AgentEvent =
  | {
      type: 'run_start';
      provider: string;
      model: string;
      maxTurns: number;
      tools: string[];
      system: string;
      userMessage: string;
    }
  | { type: 'turn_start'; turn: number; maxTurns: number }
  | {
      type: 'model_response';
      turn: number;
      text: string;
      toolCalls: ToolCall[];
      stopReason: StopReason;
      usage: Usage;
    }
  | { type: 'tool_call'; turn: number; call: ToolCall }
  | { type: 'tool_result'; turn: number; result: ToolResult; durationMs: number; changed: ChangedFile[] }
  | { type: 'usage'; total: Usage; cost: number | undefined }
  | { type: 'trimmed'; turn: number; removedChars: number; mode: 'normal' | 'hard' }
  /** A context-overflow from the provider; the loop trims harder and retries once. */
  | { type: 'context_overflow'; turn: number; retrying: boolean; message: string }
  /** The model ended a round and the caller continued the conversation with this message (AgentOptions.followUp). */
  | { type: 'follow_up'; turn: number; message: string }
  | { type: 'run_end'; status: AgentRunStatus; turns: number; usage: Usage; cost: number | undefined; error?: string };

export type AgentEventType = AgentEvent['type'];

export type AgentListener = (event: AgentEvent) => void;
