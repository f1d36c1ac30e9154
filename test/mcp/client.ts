import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CLI } from '../helpers/cli.js';

/** The environment a client gives the server: the test's own, minus provider settings. */
export function serverEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !/^(ANTHROPIC_|OPENAI_|WIKI_)/.test(name)) env[name] = value;
  }
  env.NO_COLOR = '1';
  return env;
}

export interface McpSession {
  client: Client;
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
  /** Call a tool; the text of its single content block, and whether it is an error. */
  call(name: string, args?: Record<string, unknown>): Promise<{ text: string; isError: boolean }>;
  /** Call a tool that must succeed and parse its JSON answer. */
  json<T>(name: string, args?: Record<string, unknown>): Promise<T>;
  /** Every tool answer received, for checks over the whole session. */
  transcript: string[];
  close(): Promise<void>;
}

export interface ConnectOptions {
  /** Flags after `mcp`, e.g. ['--max-visibility', 'private']. */
  args?: string[];
  /** Variables added to the server's environment, e.g. { WIKI_USER: 'alice' }. */
  env?: Record<string, string>;
}

/** Start the built `wiki mcp` on a workspace and connect the SDK's own client to it. */
export async function connectWiki(root: string, options: ConnectOptions = {}): Promise<McpSession> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, '--root', root, 'mcp', ...(options.args ?? [])],
    env: { ...serverEnv(), ...(options.env ?? {}) },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const client = new Client({ name: 'wiki-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr, ...toolCalls(client) };
}

/** A connected client's tool calls, for any transport: the text of each answer, whether it is an error, its `_meta.outcome`. */
export function toolCalls(client: Client): {
  call(name: string, args?: Record<string, unknown>): Promise<{ text: string; isError: boolean; outcome: unknown }>;
  json<T>(name: string, args?: Record<string, unknown>): Promise<T>;
  transcript: string[];
  close(): Promise<void>;
} {
  const transcript: string[] = [];
  const call = async (name: string, args: Record<string, unknown> = {}): Promise<{ text: string; isError: boolean; outcome: unknown }> => {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    const text = result.content.map((block) => (block.type === 'text' ? block.text : JSON.stringify(block))).join('\n');
    transcript.push(text);
    return { text, isError: result.isError === true, outcome: result._meta?.outcome };
  };
  return {
    call,
    async json<T>(name: string, args: Record<string, unknown> = {}): Promise<T> {
      const { text, isError } = await call(name, args);
      if (isError) throw new Error(`${name} failed: ${text}`);
      return JSON.parse(text) as T;
    },
    transcript,
    close: () => client.close(),
  };
}
