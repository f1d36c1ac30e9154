/**
 * OpenAI Chat Completions responses for the scripted model server: the JSON completion,
 * the chunk sequence it streams (with the usage chunk when asked for), and error bodies.
 * Pure functions.
 */
import type { StopReason } from '../../src/agent/types.js';
import { argumentText, fullUsage, neutralStop, pieces, type FakeToolCall, type FakeTurn, type FakeUsage, type RenderContext, type SseEvent } from './fake-llm-wire.js';

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
