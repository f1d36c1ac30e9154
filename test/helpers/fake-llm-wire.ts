/**
 * The neutral script types of the scripted model server (fake-llm-server.ts) and what the
 * two wire renderers (fake-llm-anthropic.ts, fake-llm-openai.ts) share.
 */
import type { StopReason } from '../../src/agent/types.js';

export interface FakeToolCall {
  /** Defaults to a generated id (`toolu_fake_…` / `call_fake_…`). */
  id?: string;
  name: string;
  /** An object is sent as JSON; a string is sent verbatim (malformed JSON included). */
  arguments: Record<string, unknown> | string;
}

export interface FakeUsage {
  /** Uncached input, as in the neutral Usage (OpenAI's prompt_tokens adds the cache counts). */
  inputTokens?: number;
  outputTokens?: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
}

/** One model reply, in neutral terms; the server renders it in whichever format was asked. */
export interface FakeTurn {
  text?: string;
  toolCalls?: FakeToolCall[];
  /** Default: `tool_use` when there are tool calls, else `end`. */
  stopReason?: StopReason;
  /** Sent verbatim as Anthropic `stop_reason` / OpenAI `finish_reason`, overriding `stopReason`. */
  wireStopReason?: string;
  /** Default: 100 input, 20 output, no cache. */
  usage?: FakeUsage;
  /** Model name reported back; default the server's `model` option. */
  model?: string;
}

export interface RenderContext {
  /** Request number, for unique ids. */
  n: number;
  model: string;
  /** Characters per streamed text or argument piece. */
  chunkSize: number;
}

export type SseEvent = { event?: string; data: string };

const DEFAULT_USAGE: Required<FakeUsage> = { inputTokens: 100, outputTokens: 20, cacheReadTokens: 0, cacheWriteTokens: 0 };

export function fullUsage(usage: FakeUsage | undefined): Required<FakeUsage> {
  return { ...DEFAULT_USAGE, ...usage };
}

export function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let start = 0; start < text.length; start += size) out.push(text.slice(start, start + size));
  return out;
}

export function argumentText(call: FakeToolCall): string {
  return typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
}

export function neutralStop(turn: FakeTurn): StopReason {
  return turn.stopReason ?? ((turn.toolCalls?.length ?? 0) > 0 ? 'tool_use' : 'end');
}

export const DEFAULT_ERROR_MESSAGES: Record<number, string> = {
  400: 'Invalid request.',
  401: 'Invalid API key.',
  403: 'Your API key does not have permission to use the specified resource.',
  404: 'Not found.',
  408: 'Request timed out.',
  413: 'Request exceeds the maximum allowed number of bytes.',
  429: 'Number of request tokens has exceeded your per-minute rate limit.',
  500: 'Internal server error.',
  503: 'Service unavailable.',
  529: 'Overloaded',
};
