import type {
  ContentBlockParam,
  Message as WireMessage,
  MessageCreateParamsBase,
  MessageParam,
  RawMessageStreamEvent,
  Tool as WireTool,
  Usage as WireUsage,
} from '@anthropic-ai/sdk/resources/messages';
import type { ChatRequest, ChatResponse, Message, StopReason, ToolCall, Usage } from '../agent/types.js';
import { CappedArguments, DEFAULT_MAX_TOOL_ARGUMENT_CHARS, isJsonObject, parseToolArguments } from './tool-arguments.js';

/**
 * Pure translation between the neutral conversation and the Anthropic Messages API:
 * request parameters out, a JSON message or a stream of events back.
 */

const EPHEMERAL = { type: 'ephemeral' } as const;

/** The API rejects empty text blocks; an empty turn is sent as this. */
const EMPTY_TEXT = '(empty)';

/**
 * Request body without `stream`. All four cache breakpoints: the system prompt (with the
 * tools before it, byte-stable across every run of a workspace; the last tool instead when
 * there is no system prompt), the first user message (the run's context and source, stable
 * for the whole run, so a trim further on still reads it from cache), the end of what the
 * previous request sent, and the last message. The provider looks for an earlier cache
 * entry only up to 20 blocks before a breakpoint; a turn of many calls adds more blocks
 * than that, so the previous request's end is marked where it can be found.
 */
export function toAnthropicParams(request: ChatRequest, model: string): MessageCreateParamsBase {
  const params: MessageCreateParamsBase = {
    model,
    max_tokens: request.maxOutputTokens,
    messages: toAnthropicMessages(request.messages),
  };
  if (request.system !== '') {
    params.system = [{ type: 'text', text: request.system, cache_control: EPHEMERAL }];
  }
  if (request.tools.length > 0) {
    const last = request.tools.length - 1;
    params.tools = request.tools.map(
      (tool, index): WireTool => ({
        name: tool.name,
        description: tool.description,
        input_schema: { ...tool.parameters, type: 'object' },
        cache_control: index === last && request.system === '' ? EPHEMERAL : undefined,
      }),
    );
  }
  return params;
}

/** Neutral messages as alternating user/assistant turns; tool results (and any user text after them) share one user turn. */
export function toAnthropicMessages(messages: readonly Message[]): MessageParam[] {
  const wire: Array<{ role: 'user' | 'assistant'; content: ContentBlockParam[] }> = [];
  const push = (role: 'user' | 'assistant', blocks: ContentBlockParam[]): void => {
    const previous = wire[wire.length - 1];
    if (previous && previous.role === role) previous.content.push(...blocks);
    else wire.push({ role, content: blocks });
  };
  for (const message of messages) {
    switch (message.role) {
      case 'user':
        push('user', [{ type: 'text', text: message.content.trim() === '' ? EMPTY_TEXT : message.content }]);
        break;
      case 'assistant': {
        const blocks: ContentBlockParam[] = [];
        if (message.text.trim() !== '') blocks.push({ type: 'text', text: message.text });
        for (const call of message.toolCalls) {
          blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: call.arguments ?? {} });
        }
        if (blocks.length === 0) blocks.push({ type: 'text', text: EMPTY_TEXT });
        push('assistant', blocks);
        break;
      }
      case 'tool':
        push(
          'user',
          message.results.map((result) => ({
            type: 'tool_result' as const,
            tool_use_id: result.callId,
            content: result.content,
            is_error: result.isError ? true : undefined,
          })),
        );
        break;
    }
  }
  // The previous request ended with the user turn before the last reply.
  const lastReply = wire.findLastIndex((turn) => turn.role === 'assistant');
  const previousEnd = lastReply > 1 ? wire[lastReply - 1] : undefined;
  for (const block of [wire[0]?.content.at(-1), previousEnd?.content.at(-1), wire[wire.length - 1]?.content.at(-1)]) {
    if (block && isCacheable(block)) (block as { cache_control?: typeof EPHEMERAL }).cache_control = EPHEMERAL;
  }
  return wire;
}

function isCacheable(block: ContentBlockParam): boolean {
  return block.type === 'text' || block.type === 'tool_result' || block.type === 'tool_use';
}

export function fromAnthropicMessage(message: WireMessage, fallbackModel: string): ChatResponse {
  const texts: string[] = [];
  const toolCalls: ToolCall[] = [];
  for (const block of message.content) {
    if (block.type === 'text') texts.push(block.text);
    else if (block.type === 'tool_use') toolCalls.push(toolCallFromInput(block.id, block.name, block.input));
  }
  return {
    text: joinTexts(texts),
    toolCalls,
    stopReason: neutralStopReason(message.stop_reason, toolCalls.length > 0),
    usage: neutralUsage(message.usage),
    model: message.model || fallbackModel,
  };
}

/** A tool_use input that is not an object (never sent by the real API) counts as malformed arguments. */
function toolCallFromInput(id: string, name: string, input: unknown): ToolCall {
  if (typeof input === 'string') return { id, name, arguments: parseToolArguments(input), rawArguments: input };
  return { id, name, arguments: isJsonObject(input) ? input : undefined, rawArguments: JSON.stringify(input) ?? '' };
}

export function neutralStopReason(reason: string | null | undefined, hasToolCalls: boolean): StopReason {
  switch (reason) {
    case 'tool_use':
      return 'tool_use';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'max_tokens';
    case 'refusal':
      return 'refusal';
    case 'pause_turn':
      return 'pause';
    default:
      return hasToolCalls ? 'tool_use' : 'end';
  }
}

type UsageFields = Pick<WireUsage, 'input_tokens' | 'output_tokens'> &
  Partial<Pick<WireUsage, 'cache_read_input_tokens' | 'cache_creation_input_tokens'>>;

/** Anthropic already counts `input_tokens` without cache reads and writes, as the neutral Usage does. */
export function neutralUsage(usage: UsageFields | null | undefined): Usage {
  return {
    inputTokens: usage?.input_tokens ?? 0,
    outputTokens: usage?.output_tokens ?? 0,
    cacheReadTokens: usage?.cache_read_input_tokens ?? 0,
    cacheWriteTokens: usage?.cache_creation_input_tokens ?? 0,
  };
}

function joinTexts(texts: string[]): string {
  return texts.filter((text) => text !== '').join('\n\n');
}

type StreamBlock = { kind: 'text'; text: string } | { kind: 'tool'; id: string; name: string; json: CappedArguments; initial: unknown } | { kind: 'other' };

/**
 * Builds a response from stream events. Tool input JSON is accumulated as text and parsed
 * strictly at the end, so malformed or truncated arguments become `arguments: undefined`
 * instead of being half-parsed into a call that looks valid.
 */
export class AnthropicStreamAccumulator {
  #blocks: StreamBlock[] = [];
  #model = '';
  #stopReason: string | null = null;
  #usage: Usage = neutralUsage(undefined);
  #started = false;
  #finished = false;

  /** @param maxArgumentChars longest tool-call arguments kept (see CappedArguments). */
  constructor(private readonly maxArgumentChars: number = DEFAULT_MAX_TOOL_ARGUMENT_CHARS) {}

  /** `message_stop` arrived: the response is whole. */
  get finished(): boolean {
    return this.#finished;
  }

  get started(): boolean {
    return this.#started;
  }

  add(event: RawMessageStreamEvent): void {
    switch (event.type) {
      case 'message_start':
        this.#started = true;
        this.#model = event.message.model;
        this.#usage = neutralUsage(event.message.usage);
        break;
      case 'content_block_start': {
        const block = event.content_block;
        this.#blocks[event.index] =
          block.type === 'text'
            ? { kind: 'text', text: block.text }
            : block.type === 'tool_use'
              ? { kind: 'tool', id: block.id, name: block.name, json: new CappedArguments(this.maxArgumentChars), initial: block.input }
              : { kind: 'other' };
        break;
      }
      case 'content_block_delta': {
        const block = this.#blocks[event.index];
        if (block?.kind === 'text' && event.delta.type === 'text_delta') block.text += event.delta.text;
        if (block?.kind === 'tool' && event.delta.type === 'input_json_delta') block.json.append(event.delta.partial_json);
        break;
      }
      case 'message_delta': {
        this.#stopReason = event.delta.stop_reason ?? this.#stopReason;
        // Counters in message_delta are running totals for the whole message; absent ones stay.
        const usage = event.usage;
        this.#usage = {
          inputTokens: usage.input_tokens ?? this.#usage.inputTokens,
          outputTokens: usage.output_tokens ?? this.#usage.outputTokens,
          cacheReadTokens: usage.cache_read_input_tokens ?? this.#usage.cacheReadTokens,
          cacheWriteTokens: usage.cache_creation_input_tokens ?? this.#usage.cacheWriteTokens,
        };
        break;
      }
      case 'message_stop':
        this.#finished = true;
        break;
      default:
        break;
    }
  }

  result(fallbackModel: string): ChatResponse {
    const texts: string[] = [];
    const toolCalls: ToolCall[] = [];
    for (const block of this.#blocks) {
      if (block?.kind === 'text') texts.push(block.text);
      if (block?.kind === 'tool') {
        const oversized = block.json.oversized;
        toolCalls.push(
          oversized !== undefined
            ? { id: block.id, name: block.name, arguments: undefined, rawArguments: block.json.text, oversized }
            : block.json.text === ''
              ? toolCallFromInput(block.id, block.name, block.initial)
              : { id: block.id, name: block.name, arguments: parseToolArguments(block.json.text), rawArguments: block.json.text },
        );
      }
    }
    return {
      text: joinTexts(texts),
      toolCalls,
      stopReason: neutralStopReason(this.#stopReason, toolCalls.length > 0),
      usage: this.#usage,
      model: this.#model || fallbackModel,
    };
  }
}
