import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionCreateParamsBase,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import type { CompletionUsage } from 'openai/resources/completions';
import type { ChatRequest, ChatResponse, Message, StopReason, ToolCall, Usage } from '../agent/types.js';
import { CappedArguments, DEFAULT_MAX_TOOL_ARGUMENT_CHARS, parseToolArguments } from './tool-arguments.js';

/**
 * Pure translation between the neutral conversation and OpenAI Chat Completions, as
 * spoken by OpenAI and by compatible local servers (Ollama, llama.cpp, vLLM, LM Studio).
 */

export interface OpenAiParamOptions {
  model: string;
  /**
   * OpenAI's own endpoint takes `max_completion_tokens` (its newer models reject
   * `max_tokens`); compatible servers widely know only `max_tokens`.
   */
  officialEndpoint: boolean;
}

/**
 * GPT-5 and the o-series reject `max_tokens` wherever they are reached, so the model's
 * name decides, not the base URL: gateways and proxies in front of OpenAI name the
 * model with a vendor prefix (`openai/gpt-5-mini`), which is looked through.
 */
export function requiresCompletionTokens(model: string): boolean {
  const name = model.toLowerCase().split('/').pop() ?? '';
  return /^(gpt-5|o\d)(?![a-z])/.test(name);
}

/** Request body without `stream`. */
export function toOpenAiParams(request: ChatRequest, options: OpenAiParamOptions): ChatCompletionCreateParamsBase {
  const messages: ChatCompletionMessageParam[] = [];
  if (request.system !== '') messages.push({ role: 'system', content: request.system });
  messages.push(...toOpenAiMessages(request.messages));
  const params: ChatCompletionCreateParamsBase = { model: options.model, messages };
  const openAiRules = options.officialEndpoint || requiresCompletionTokens(options.model);
  if (openAiRules) params.max_completion_tokens = request.maxOutputTokens;
  else params.max_tokens = request.maxOutputTokens;
  if (request.tools.length > 0) {
    params.tools = request.tools.map(
      (tool): ChatCompletionTool => ({
        type: 'function',
        function: { name: tool.name, description: tool.description, parameters: tool.parameters },
      }),
    );
    // Some compatible servers (llama.cpp) default to one call per turn; OpenAI allows
    // several by default, and some of its models reject the parameter.
    if (!openAiRules) params.parallel_tool_calls = true;
  }
  return params;
}

export function toOpenAiMessages(messages: readonly Message[]): ChatCompletionMessageParam[] {
  const wire: ChatCompletionMessageParam[] = [];
  for (const message of messages) {
    switch (message.role) {
      case 'user':
        wire.push({ role: 'user', content: message.content });
        break;
      case 'assistant':
        wire.push({
          role: 'assistant',
          content: message.text === '' ? null : message.text,
          tool_calls:
            message.toolCalls.length > 0
              ? message.toolCalls.map((call) => ({
                  id: call.id,
                  type: 'function' as const,
                  // Malformed arguments go back as `{}`: some servers re-parse them and would reject the whole request.
                  function: { name: call.name, arguments: call.arguments === undefined ? '{}' : call.rawArguments || '{}' },
                }))
              : undefined,
        });
        break;
      case 'tool':
        for (const result of message.results) {
          wire.push({ role: 'tool', tool_call_id: result.callId, content: toolResultText(result.content, result.isError) });
        }
        break;
    }
  }
  return wire;
}

/** Chat Completions has no error flag on tool results, so an error says so in its text. */
function toolResultText(content: string, isError: boolean): string {
  if (!isError || /^\s*error\b/i.test(content)) return content;
  return `Error: ${content}`;
}

export function fromOpenAiCompletion(completion: ChatCompletion, fallbackModel: string): ChatResponse | undefined {
  const choice = completion.choices[0];
  if (!choice) return undefined;
  const message = choice.message;
  const toolCalls: ToolCall[] = [];
  for (const [index, call] of (message.tool_calls ?? []).entries()) {
    if (call.type !== 'function') continue;
    toolCalls.push(toolCall(call.id, index, call.function.name, call.function.arguments ?? ''));
  }
  const refusal = message.refusal ?? '';
  return {
    text: message.content ?? refusal,
    toolCalls,
    stopReason: neutralStopReason(choice.finish_reason, toolCalls.length > 0, refusal !== ''),
    usage: neutralUsage(completion.usage),
    model: completion.model || fallbackModel,
  };
}

function toolCall(id: string | undefined, index: number, name: string, raw: string): ToolCall {
  // Some local servers send no id; the loop needs one to pair the result with the call.
  return { id: id || `call_${index}`, name, arguments: parseToolArguments(raw), rawArguments: raw };
}

/** Tool calls decide over finish_reason: local servers report "stop" while asking for tools. */
export function neutralStopReason(finish: string | null | undefined, hasToolCalls: boolean, refused: boolean): StopReason {
  if (finish === 'length') return 'max_tokens';
  if (hasToolCalls) return 'tool_use';
  if (finish === 'content_filter' || refused) return 'refusal';
  return 'end';
}

/** `prompt_tokens` includes cached input; the neutral `inputTokens` does not. */
export function neutralUsage(usage: CompletionUsage | null | undefined): Usage {
  const details = usage?.prompt_tokens_details;
  const cacheRead = details?.cached_tokens ?? 0;
  const cacheWrite = details?.cache_write_tokens ?? 0;
  return {
    inputTokens: Math.max(0, (usage?.prompt_tokens ?? 0) - cacheRead - cacheWrite),
    outputTokens: usage?.completion_tokens ?? 0,
    cacheReadTokens: cacheRead,
    cacheWriteTokens: cacheWrite,
  };
}

interface PartialToolCall {
  id: string;
  name: string;
  arguments: CappedArguments;
}

/**
 * Builds a response from chunks. Tool calls are accumulated by `index`; a new `id` at an
 * index that already holds a different call starts a new call (servers that send every
 * call whole at index 0).
 */
export class OpenAiStreamAccumulator {
  #text = '';
  #refusal = '';
  #calls: PartialToolCall[] = [];
  #slotByIndex = new Map<number, number>();
  #finish: string | null = null;
  #usage: CompletionUsage | undefined;
  #model = '';

  /** @param maxArgumentChars longest tool-call arguments kept (see CappedArguments). */
  constructor(private readonly maxArgumentChars: number = DEFAULT_MAX_TOOL_ARGUMENT_CHARS) {}

  /** A finish_reason arrived: the model finished (the usage chunk may still follow). */
  get finished(): boolean {
    return this.#finish !== null;
  }

  add(chunk: ChatCompletionChunk): void {
    if (chunk.model) this.#model = chunk.model;
    if (chunk.usage) this.#usage = chunk.usage;
    const choice = chunk.choices[0];
    if (!choice) return;
    const delta = choice.delta;
    if (delta.content) this.#text += delta.content;
    if (delta.refusal) this.#refusal += delta.refusal;
    for (const piece of delta.tool_calls ?? []) this.#addToolCallPiece(piece);
    if (choice.finish_reason) this.#finish = choice.finish_reason;
  }

  #addToolCallPiece(piece: ChatCompletionChunk.Choice.Delta.ToolCall): void {
    const slot = this.#slotByIndex.get(piece.index);
    let call = slot === undefined ? undefined : this.#calls[slot];
    if (call === undefined || (piece.id && call.id && piece.id !== call.id)) {
      call = { id: piece.id ?? '', name: '', arguments: new CappedArguments(this.maxArgumentChars) };
      this.#slotByIndex.set(piece.index, this.#calls.push(call) - 1);
    }
    if (piece.id && !call.id) call.id = piece.id;
    const name = piece.function?.name;
    // Names normally come whole in the first piece; some servers repeat them in every piece.
    if (name && call.name !== name) call.name = call.name === '' ? name : call.name + name;
    if (piece.function?.arguments) call.arguments.append(piece.function.arguments);
  }

  result(fallbackModel: string): ChatResponse {
    const toolCalls = this.#calls.map((call, index): ToolCall => {
      const oversized = call.arguments.oversized;
      const parsed = toolCall(call.id, index, call.name, oversized === undefined ? call.arguments.text : '');
      return oversized === undefined ? parsed : { ...parsed, arguments: undefined, rawArguments: call.arguments.text, oversized };
    });
    return {
      text: this.#text === '' ? this.#refusal : this.#text,
      toolCalls,
      stopReason: neutralStopReason(this.#finish, toolCalls.length > 0, this.#refusal !== ''),
      usage: neutralUsage(this.#usage),
      model: this.#model || fallbackModel,
    };
  }
}
