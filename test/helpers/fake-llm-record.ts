/**
 * What the scripted model server (fake-llm-server.ts) records of each request: the body as
 * sent, plus a neutral digest (system prompt, tool names, latest tool results, last user
 * text) so assertions and function scripts read the same way for both wire formats.
 */
import type http from 'node:http';

export type WireApi = 'anthropic' | 'openai';

export interface RecordedToolResult {
  callId: string;
  content: string;
  /** Anthropic `is_error`; OpenAI has no flag, so: content starting with "Error". */
  isError: boolean;
}

export interface RecordedRequest {
  /** 0-based arrival order. */
  index: number;
  api: WireApi;
  path: string;
  /** Lower-case header names. */
  headers: Record<string, string>;
  /** The parsed JSON body exactly as the SDK sent it. */
  body: Record<string, unknown>;
  stream: boolean;
  /** Neutral digest of the body, for assertions and function scripts. */
  system: string;
  toolNames: string[];
  /** Tool results in the latest message(s) (empty on a first turn). */
  toolResults: RecordedToolResult[];
  /** Text of the last user message that carries text. */
  lastUserText: string | undefined;
  /** Messages in the request, in the wire format's own count. */
  messageCount: number;
}

export function record(index: number, api: WireApi, path: string, rawHeaders: http.IncomingHttpHeaders, body: Record<string, unknown>): RecordedRequest {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(rawHeaders)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  const messages = Array.isArray(body.messages) ? (body.messages as Array<Record<string, unknown>>) : [];
  const tools = Array.isArray(body.tools) ? (body.tools as Array<Record<string, unknown>>) : [];
  const digest = api === 'anthropic' ? anthropicDigest(body, messages, tools) : openAiDigest(messages, tools);
  return { index, api, path, headers, body, stream: body.stream === true, messageCount: messages.length, ...digest };
}

type Digest = Pick<RecordedRequest, 'system' | 'toolNames' | 'toolResults' | 'lastUserText'>;

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((block): block is { type: string; text: string } => typeof block === 'object' && block !== null && (block as { type?: unknown }).type === 'text')
    .map((block) => block.text)
    .join('\n');
}

function anthropicDigest(body: Record<string, unknown>, messages: Array<Record<string, unknown>>, tools: Array<Record<string, unknown>>): Digest {
  const last = messages[messages.length - 1];
  const blocks = last && last.role === 'user' && Array.isArray(last.content) ? (last.content as Array<Record<string, unknown>>) : [];
  const toolResults = blocks
    .filter((block) => block.type === 'tool_result')
    .map((block) => ({ callId: String(block.tool_use_id), content: textOf(block.content), isError: block.is_error === true }));
  const userTexts = messages.filter((message) => message.role === 'user').map((message) => textOf(message.content)).filter((text) => text !== '');
  return { system: textOf(body.system), toolNames: tools.map((tool) => String(tool.name)), toolResults, lastUserText: userTexts[userTexts.length - 1] };
}

function openAiDigest(messages: Array<Record<string, unknown>>, tools: Array<Record<string, unknown>>): Digest {
  const toolResults: RecordedToolResult[] = [];
  for (let i = messages.length - 1; i >= 0 && messages[i]?.role === 'tool'; i -= 1) {
    const message = messages[i] as Record<string, unknown>;
    const content = textOf(message.content);
    toolResults.unshift({ callId: String(message.tool_call_id), content, isError: /^\s*error\b/i.test(content) });
  }
  const system = messages.filter((message) => message.role === 'system' || message.role === 'developer').map((message) => textOf(message.content)).join('\n');
  const userTexts = messages.filter((message) => message.role === 'user').map((message) => textOf(message.content)).filter((text) => text !== '');
  const toolNames = tools.map((tool) => String((tool.function as Record<string, unknown> | undefined)?.name));
  return { system, toolNames, toolResults, lastUserText: userTexts[userTexts.length - 1] };
}

/** The text of the first user message of a recorded request body, for either wire format. */
export function firstUserText(body: Record<string, unknown>): string {
  const messages = (body.messages as Array<{ role: string; content: unknown }> | undefined) ?? [];
  return textOf(messages.find((message) => message.role === 'user')?.content);
}
