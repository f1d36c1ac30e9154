/**
 * Anthropic Messages API responses for the scripted model server: the JSON message, the
 * exact SSE event sequence the API streams, and error bodies. Pure functions.
 */
import type { StopReason } from '../../src/agent/types.js';
import { argumentText, fullUsage, neutralStop, pieces, type FakeToolCall, type FakeTurn, type FakeUsage, type RenderContext, type SseEvent } from './fake-llm-wire.js';

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
