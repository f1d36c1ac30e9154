import { ProviderError } from '../../src/errors.js';
import type {
  ChatModel,
  ChatRequest,
  ChatResponse,
  Message,
  StopReason,
  ToolCall,
  ToolDefinition,
  Usage,
} from '../../src/agent/types.js';

/**
 * An in-process ChatModel that plays a script. Every request is recorded as a deep copy
 * (later changes to the loop's conversation cannot rewrite history), and a step can
 * throw an error instead of replying, or take time and honour the request's signal.
 */

export interface ScriptedReply {
  text?: string;
  toolCalls?: ToolCall[];
  /** Default: `tool_use` when there are tool calls, else `end`. */
  stopReason?: StopReason;
  /** Default: 100 input and 20 output tokens. */
  usage?: Partial<Usage>;
  /** Wait this long before replying; an abort during the wait rejects like a cancelled request. */
  delayMs?: number;
}

export interface ScriptedFailure {
  error: Error;
  delayMs?: number;
}

export type ScriptStep = ScriptedReply | ScriptedFailure;

export interface RecordedRequest {
  system: string;
  messages: Message[];
  tools: ToolDefinition[];
  maxOutputTokens: number;
  hadSignal: boolean;
}

export type Script = ScriptStep[] | ((request: RecordedRequest, index: number) => ScriptStep | Promise<ScriptStep>);

let callCounter = 0;

/** A well-formed tool call; the id is unique unless given. */
export function toolCall(name: string, args: Record<string, unknown>, id?: string): ToolCall {
  callCounter += 1;
  return { id: id ?? `call_${callCounter}`, name, arguments: args, rawArguments: JSON.stringify(args) };
}

/** A tool call as the model sent it: `arguments` is undefined when `raw` is not a JSON object. */
export function rawToolCall(name: string, raw: string, id?: string): ToolCall {
  callCounter += 1;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    parsed = undefined;
  }
  const args = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  return { id: id ?? `call_${callCounter}`, name, arguments: args, rawArguments: raw };
}

export function contextOverflow(message = 'prompt is too long: 250000 tokens > 200000 maximum'): ScriptedFailure {
  return { error: new ProviderError('context-overflow', message) };
}

export class ScriptedModel implements ChatModel {
  readonly provider = 'scripted' as const;
  readonly model: string;
  readonly requests: RecordedRequest[] = [];
  private readonly script: Script;

  constructor(script: Script, options: { model?: string } = {}) {
    this.script = script;
    this.model = options.model ?? 'scripted-model';
  }

  async complete(request: ChatRequest): Promise<ChatResponse> {
    const index = this.requests.length;
    const recorded: RecordedRequest = {
      system: request.system,
      messages: structuredClone(request.messages),
      tools: structuredClone(request.tools),
      maxOutputTokens: request.maxOutputTokens,
      hadSignal: request.signal !== undefined,
    };
    this.requests.push(recorded);
    const step = await this.stepAt(structuredClone(recorded), index);
    if (step.delayMs !== undefined) await delay(step.delayMs, request.signal);
    throwIfAborted(request.signal);
    if ('error' in step) throw step.error;
    const toolCalls = step.toolCalls ?? [];
    return {
      text: step.text ?? '',
      toolCalls: structuredClone(toolCalls),
      stopReason: step.stopReason ?? (toolCalls.length > 0 ? 'tool_use' : 'end'),
      usage: { inputTokens: 100, outputTokens: 20, cacheReadTokens: 0, cacheWriteTokens: 0, ...step.usage },
      model: this.model,
    };
  }

  private async stepAt(request: RecordedRequest, index: number): Promise<ScriptStep> {
    if (typeof this.script === 'function') return this.script(request, index);
    const step = this.script[index];
    if (step === undefined) throw new Error(`scripted model: no step for call #${index + 1} (script has ${this.script.length})`);
    return step;
  }
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted === true) throw new ProviderError('aborted', 'the request was cancelled');
}

function delay(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    throwIfAborted(signal);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new ProviderError('aborted', 'the request was cancelled'));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
