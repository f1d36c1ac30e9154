/**
 * Wire-format builders for the scripted model server (fake-llm-server.ts): Anthropic
 * Messages and OpenAI Chat Completions responses, as JSON bodies and as the exact event
 * sequences the real APIs stream. Pure functions; the server does the I/O.
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

function argumentText(call: FakeToolCall): string {
  return typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
}

function neutralStop(turn: FakeTurn): StopReason {
  return turn.stopReason ?? ((turn.toolCalls?.length ?? 0) > 0 ? 'tool_use' : 'end');
}

// ---------------------------------------------------------------- Anthropic

const ANTHROPIC_STOP: Record<StopReason, string> = {
  end: 'end_turn',
  tool_use: 'tool_use',
  max_tokens: 'max_tokens',
  refusal: 'refusal',
  pause: 'pause_turn',
};

function anthropicStop(turn: FakeTurn): string {
  return turn.wireStopReason ?? ANTHROPIC_STOP[neutralStop(turn)];
}

function anthropicToolId(context: RenderContext, index: number, call: FakeToolCall): string {
  return call.id ?? `toolu_fake_${context.n}_${index}`;
}

function anthropicUsage(usage: Required<FakeUsage>, outputTokens: number): Record<string, unknown> {
  return {
    input_tokens: usage.inputTokens,
    output_tokens: outputTokens,
    cache_creation_input_tokens: usage.cacheWriteTokens,
    cache_read_input_tokens: usage.cacheReadTokens,
    service_tier: 'standard',
  };
}

/** Tool input as the JSON body carries it: an object, or (for malformed arguments) the raw string. */
function anthropicInput(call: FakeToolCall): unknown {
  if (typeof call.arguments !== 'string') return call.arguments;
  try {
    return JSON.parse(call.arguments) as unknown;
  } catch {
    return call.arguments;
  }
}

export function anthropicMessage(turn: FakeTurn, context: RenderContext): Record<string, unknown> {
  const usage = fullUsage(turn.usage);
  const content: Array<Record<string, unknown>> = [];
  if (turn.text) content.push({ type: 'text', text: turn.text });
  (turn.toolCalls ?? []).forEach((call, index) => {
    content.push({ type: 'tool_use', id: anthropicToolId(context, index, call), name: call.name, input: anthropicInput(call) });
  });
  return {
    id: `msg_fake_${context.n}`,
    type: 'message',
    role: 'assistant',
    model: turn.model ?? context.model,
    content,
    stop_reason: anthropicStop(turn),
    stop_sequence: null,
    usage: anthropicUsage(usage, usage.outputTokens),
  };
}

function anthropicEvent(type: string, body: Record<string, unknown>): SseEvent {
  return { event: type, data: JSON.stringify({ type, ...body }) };
}

/** message_start … message_stop, as the Messages API streams them. */
export function anthropicStreamEvents(turn: FakeTurn, context: RenderContext): SseEvent[] {
  const usage = fullUsage(turn.usage);
  const events: SseEvent[] = [anthropicStart(turn, context), { event: 'ping', data: JSON.stringify({ type: 'ping' }) }];
  let index = 0;
  if (turn.text) {
    events.push(anthropicEvent('content_block_start', { index, content_block: { type: 'text', text: '' } }));
    for (const piece of pieces(turn.text, context.chunkSize)) {
      events.push(anthropicEvent('content_block_delta', { index, delta: { type: 'text_delta', text: piece } }));
    }
    events.push(anthropicEvent('content_block_stop', { index }));
    index += 1;
  }
  (turn.toolCalls ?? []).forEach((call, callIndex) => {
    const block = { type: 'tool_use', id: anthropicToolId(context, callIndex, call), name: call.name, input: {} };
    events.push(anthropicEvent('content_block_start', { index, content_block: block }));
    for (const piece of pieces(argumentText(call), context.chunkSize)) {
      events.push(anthropicEvent('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: piece } }));
    }
    events.push(anthropicEvent('content_block_stop', { index }));
    index += 1;
  });
  events.push(
    anthropicEvent('message_delta', {
      delta: { stop_reason: anthropicStop(turn), stop_sequence: null },
      usage: { output_tokens: usage.outputTokens },
    }),
  );
  events.push(anthropicEvent('message_stop', {}));
  return events;
}

export function anthropicStart(turn: FakeTurn, context: RenderContext): SseEvent {
  const usage = fullUsage(turn.usage);
  return anthropicEvent('message_start', {
    message: {
      id: `msg_fake_${context.n}`,
      type: 'message',
      role: 'assistant',
      model: turn.model ?? context.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: anthropicUsage(usage, 1),
    },
  });
}

const ANTHROPIC_ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  504: 'timeout_error',
  529: 'overloaded_error',
};

export function anthropicErrorBody(status: number, message: string, type?: string): Record<string, unknown> {
  return {
    type: 'error',
    error: { type: type ?? ANTHROPIC_ERROR_TYPES[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error'), message },
    request_id: 'req_fake',
  };
}

/** The `event: error` an Anthropic stream carries when the server fails mid-response. */
export function anthropicStreamError(message: string, type: string): SseEvent {
  return { event: 'error', data: JSON.stringify({ type: 'error', error: { type, message } }) };
}

// ---------------------------------------------------------------- OpenAI

const OPENAI_FINISH: Record<StopReason, string> = {
  end: 'stop',
  tool_use: 'tool_calls',
  max_tokens: 'length',
  refusal: 'stop',
  pause: 'stop',
};

function openAiFinish(turn: FakeTurn): string {
  return turn.wireStopReason ?? OPENAI_FINISH[neutralStop(turn)];
}

function openAiToolId(context: RenderContext, index: number, call: FakeToolCall): string {
  return call.id ?? `call_fake_${context.n}_${index}`;
}

export function openAiUsage(usage: FakeUsage | undefined): Record<string, unknown> {
  const full = fullUsage(usage);
  const prompt = full.inputTokens + full.cacheReadTokens + full.cacheWriteTokens;
  return {
    prompt_tokens: prompt,
    completion_tokens: full.outputTokens,
    total_tokens: prompt + full.outputTokens,
    prompt_tokens_details: {
      cached_tokens: full.cacheReadTokens,
      audio_tokens: 0,
      ...(full.cacheWriteTokens > 0 ? { cache_write_tokens: full.cacheWriteTokens } : {}),
    },
    completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  };
}

export function openAiCompletion(turn: FakeTurn, context: RenderContext): Record<string, unknown> {
  const refusal = neutralStop(turn) === 'refusal';
  const calls = (turn.toolCalls ?? []).map((call, index) => ({
    id: openAiToolId(context, index, call),
    type: 'function',
    function: { name: call.name, arguments: argumentText(call) },
  }));
  return {
    id: `chatcmpl-fake-${context.n}`,
    object: 'chat.completion',
    created: 1_780_000_000 + context.n,
    model: turn.model ?? context.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: refusal ? null : (turn.text ?? null),
          refusal: refusal ? (turn.text ?? 'I cannot help with that.') : null,
          ...(calls.length > 0 ? { tool_calls: calls } : {}),
          annotations: [],
        },
        logprobs: null,
        finish_reason: openAiFinish(turn),
      },
    ],
    usage: openAiUsage(turn.usage),
    service_tier: 'default',
    system_fingerprint: 'fp_fake',
  };
}

/** Chunk builder bound to one response: same id, created and model on every chunk. */
export function openAiChunker(turn: FakeTurn, context: RenderContext, includeUsage: boolean) {
  return (choices: unknown[], usage?: Record<string, unknown>): SseEvent => ({
    data: JSON.stringify({
      id: `chatcmpl-fake-${context.n}`,
      object: 'chat.completion.chunk',
      created: 1_780_000_000 + context.n,
      model: turn.model ?? context.model,
      system_fingerprint: 'fp_fake',
      choices,
      ...(includeUsage ? { usage: usage ?? null } : {}),
    }),
  });
}

export function openAiDeltaChoice(delta: Record<string, unknown>, finish: string | null = null): Record<string, unknown> {
  return { index: 0, delta, logprobs: null, finish_reason: finish };
}

/** The chunks of a streamed completion, ending with the usage chunk (when asked for) and `[DONE]`. */
export function openAiStreamEvents(turn: FakeTurn, context: RenderContext, includeUsage: boolean): SseEvent[] {
  const chunk = openAiChunker(turn, context, includeUsage);
  const events: SseEvent[] = [chunk([openAiDeltaChoice({ role: 'assistant', content: '', refusal: null })])];
  const refusal = neutralStop(turn) === 'refusal';
  for (const piece of pieces(turn.text ?? '', context.chunkSize)) {
    events.push(chunk([openAiDeltaChoice(refusal ? { refusal: piece } : { content: piece })]));
  }
  (turn.toolCalls ?? []).forEach((call, index) => {
    events.push(
      chunk([
        openAiDeltaChoice({
          tool_calls: [{ index, id: openAiToolId(context, index, call), type: 'function', function: { name: call.name, arguments: '' } }],
        }),
      ]),
    );
    for (const piece of pieces(argumentText(call), context.chunkSize)) {
      events.push(chunk([openAiDeltaChoice({ tool_calls: [{ index, function: { arguments: piece } }] })]));
    }
  });
  events.push(chunk([openAiDeltaChoice({}, openAiFinish(turn))]));
  if (includeUsage) events.push(chunk([], openAiUsage(turn.usage)));
  events.push({ data: '[DONE]' });
  return events;
}

const OPENAI_ERROR: Record<number, { type: string; code: string | null }> = {
  400: { type: 'invalid_request_error', code: null },
  401: { type: 'invalid_request_error', code: 'invalid_api_key' },
  403: { type: 'invalid_request_error', code: 'unsupported_country_region_territory' },
  404: { type: 'invalid_request_error', code: null },
  429: { type: 'requests', code: 'rate_limit_exceeded' },
  500: { type: 'server_error', code: null },
  503: { type: 'server_error', code: null },
};

export function openAiErrorBody(status: number, message: string, code?: string, type?: string): Record<string, unknown> {
  const known = OPENAI_ERROR[status] ?? { type: status >= 500 ? 'server_error' : 'invalid_request_error', code: null };
  return { error: { message, type: type ?? known.type, param: null, code: code ?? known.code } };
}

/** An error object in place of a chunk, as OpenAI-compatible servers send mid-stream. */
export function openAiStreamError(message: string, type: string): SseEvent {
  return { data: JSON.stringify({ error: { message, type, param: null, code: null } }) };
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
