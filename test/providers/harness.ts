import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChatModel, ChatRequest, Message, ToolDefinition } from '../../src/agent/types.js';
import { ProviderError } from '../../src/errors.js';
import { AnthropicChatModel } from '../../src/providers/anthropic.js';
import { OpenAiChatModel } from '../../src/providers/openai.js';
import type { ProviderSettings } from '../../src/providers/settings.js';
import type { WireApi } from '../helpers/fake-llm-server.js';

export const TOOLS: ToolDefinition[] = [
  {
    name: 'read_file',
    description: 'Read a file',
    parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  },
  {
    name: 'write_file',
    description: 'Write a page',
    parameters: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } }, required: ['path', 'content'] },
  },
];

export function request(messages: Message[], extra: Partial<ChatRequest> = {}): ChatRequest {
  return { system: 'You maintain a wiki.', messages, tools: TOOLS, maxOutputTokens: 1024, ...extra };
}

export const FIRST_TURN: Message[] = [{ role: 'user', content: 'Ingest raw/a.md' }];

/** A real-SDK model pointed at `baseUrl`; fast retries and timeouts unless overridden. */
export function modelFor(api: WireApi, baseUrl: string, overrides: Partial<ProviderSettings> = {}): ChatModel {
  const settings: ProviderSettings = {
    model: api === 'anthropic' ? 'claude-test' : 'gpt-test',
    apiKey: 'test-key',
    baseUrl,
    timeoutMs: 5_000,
    maxRetries: 2,
    stream: false,
    keyIsPlaceholder: false,
    ...overrides,
  };
  return api === 'anthropic' ? new AnthropicChatModel(settings) : new OpenAiChatModel(settings);
}

export function baseUrlOf(api: WireApi, server: { anthropicBaseUrl: string; openaiBaseUrl: string }): string {
  return api === 'anthropic' ? server.anthropicBaseUrl : server.openaiBaseUrl;
}

/** The ProviderError a call rejects with (fails the test if it resolves or throws something else). */
export async function providerError(promise: Promise<unknown>): Promise<ProviderError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ProviderError) return error;
    throw new Error(`expected a ProviderError, got ${String(error)}`, { cause: error });
  }
  throw new Error('expected the call to fail');
}

/** A port nothing listens on: bound once, then released. */
export async function closedPort(): Promise<number> {
  const server = http.createServer();
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
