/**
 * Provider-neutral conversation model. The loop speaks only these types; each provider
 * translates them to its wire format and back.
 */
export type JsonSchema = Record<string, unknown>;

export interface ToolDefinition {
  name: string;
  description: string;
  /** JSON Schema (type: object) of the tool's arguments. */
  parameters: JsonSchema;
}

export interface ToolCall {
  id: string;
  name: string;
  /** Parsed arguments; `undefined` when the model sent arguments that are not valid JSON. */
  arguments: Record<string, unknown> | undefined;
  /** The arguments exactly as the model sent them (kept for error messages). */
  rawArguments: string;
  /**
   * The arguments were longer than one tool call may be: they were dropped while they
   * streamed in (`rawArguments` keeps their start), and the call is answered with an error.
   */
  oversized?: { chars: number; limit: number };
}

export interface ToolResult {
  callId: string;
  name: string;
  content: string;
  isError: boolean;
}

export type Message =
  | { role: 'user'; content: string }
  | { role: 'assistant'; text: string; toolCalls: ToolCall[] }
  | { role: 'tool'; results: ToolResult[] };

/**
 * Normalised token counts of one call (or a run's sum). `inputTokens` excludes cached
 * input: cache reads and cache writes are counted only in their own fields, so the four
 * add up to everything billed (Anthropic reports it this way; for OpenAI, subtract
 * `cached_tokens` from `prompt_tokens`).
 */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

export function emptyUsage(): Usage {
  return { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
}

export function addUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
    cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
  };
}

/**
 * Why the model stopped: `tool_use` (wants tools run), `end` (done), `max_tokens`
 * (output cut off), `refusal`, `pause` (server paused a long turn; call again to resume).
 */
export type StopReason = 'tool_use' | 'end' | 'max_tokens' | 'refusal' | 'pause';

export interface ChatRequest {
  system: string;
  messages: Message[];
  tools: ToolDefinition[];
  maxOutputTokens: number;
  signal?: AbortSignal;
}

export interface ChatResponse {
  text: string;
  toolCalls: ToolCall[];
  stopReason: StopReason;
  usage: Usage;
  /** Model name as reported by the server. */
  model: string;
}

/** One model call. Implementations throw ProviderError for failures the user must act on. */
export interface ChatModel {
  readonly provider: 'anthropic' | 'openai' | 'scripted';
  readonly model: string;
  /** The model's context window in tokens, as far as known (absent: unknown, no bound). */
  readonly contextWindow?: number;
  complete(request: ChatRequest): Promise<ChatResponse>;
}
