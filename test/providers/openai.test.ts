import { afterEach, describe, expect, it } from 'vitest';
import type { Message } from '../../src/agent/types.js';
import { OpenAiStreamAccumulator, neutralUsage, toOpenAiMessages, toOpenAiParams } from '../../src/providers/openai-wire.js';
import { startFakeLlmServer, type FakeLlmServer } from '../helpers/fake-llm-server.js';
import { FIRST_TURN, modelFor, request } from './harness.js';

let server: FakeLlmServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

type Chunk = Parameters<OpenAiStreamAccumulator['add']>[0];

function chunk(delta: Record<string, unknown>, finish: string | null = null): Chunk {
  return { id: 'c', object: 'chat.completion.chunk', created: 0, model: 'local', choices: [{ index: 0, delta, finish_reason: finish }] } as Chunk;
}

describe('OpenAI request translation', () => {
  it('asks for usage in streams and allows parallel tool calls', async () => {
    server = await startFakeLlmServer([{ text: 'ok' }]);
    await modelFor('openai', server.openaiBaseUrl, { stream: true }).complete(request(FIRST_TURN));
    const body = server.requests[0]!.body;
    expect(body.stream).toBe(true);
    expect(body.stream_options).toEqual({ include_usage: true });
    expect(body.parallel_tool_calls).toBe(true);
    expect(body.tools).toEqual([
      { type: 'function', function: { name: 'read_file', description: 'Read a file', parameters: expect.objectContaining({ type: 'object' }) } },
      { type: 'function', function: { name: 'write_file', description: 'Write a page', parameters: expect.objectContaining({ type: 'object' }) } },
    ]);
    expect(server.requests[0]!.headers.authorization).toBe('Bearer test-key');
  });

  it('uses max_completion_tokens on OpenAI itself and max_tokens on compatible servers, which also get parallel calls switched on', () => {
    const official = toOpenAiParams(request(FIRST_TURN), { model: 'gpt', officialEndpoint: true });
    const local = toOpenAiParams(request(FIRST_TURN), { model: 'llama', officialEndpoint: false });
    expect(official).toMatchObject({ max_completion_tokens: 1024 });
    expect(official).not.toHaveProperty('max_tokens');
    expect(official).not.toHaveProperty('parallel_tool_calls');
    expect(local).toMatchObject({ max_tokens: 1024, parallel_tool_calls: true });
    expect(local).not.toHaveProperty('max_completion_tokens');
  });

  it.each([
    ['gpt-5', true],
    ['gpt-5-mini', true],
    ['o3', true],
    ['o4-mini', true],
    ['openai/gpt-5.1', true],
    ['OpenAI/O1-preview', true],
    ['gpt-4o', false],
    ['llama3.1', false],
    ['qwen2.5-coder', false],
    ['ollama/olmo2', false],
  ])('over a compatible base URL, model %s sends max_completion_tokens: %s', async (model, completionTokens) => {
    server = await startFakeLlmServer([{ text: 'ok' }]);
    await modelFor('openai', server.openaiBaseUrl, { model }).complete(request(FIRST_TURN));
    const body = server.requests[0]!.body;
    if (completionTokens) {
      expect(body).toMatchObject({ max_completion_tokens: 1024 });
      expect(body).not.toHaveProperty('max_tokens');
      expect(body).not.toHaveProperty('parallel_tool_calls');
    } else {
      expect(body).toMatchObject({ max_tokens: 1024, parallel_tool_calls: true });
      expect(body).not.toHaveProperty('max_completion_tokens');
    }
  });

  it('sends the system prompt first, tool calls with their raw arguments, and one tool message per result', () => {
    const messages: Message[] = [
      ...FIRST_TURN,
      {
        role: 'assistant',
        text: '',
        toolCalls: [
          { id: 'call_1', name: 'read_file', arguments: { path: 'raw/a.md' }, rawArguments: '{"path": "raw/a.md"}' },
          { id: 'call_2', name: 'write_file', arguments: undefined, rawArguments: '{"path": ' },
        ],
      },
      {
        role: 'tool',
        results: [
          { callId: 'call_1', name: 'read_file', content: 'text', isError: false },
          { callId: 'call_2', name: 'write_file', content: 'arguments are not valid JSON', isError: true },
        ],
      },
    ];
    const params = toOpenAiParams(request(messages), { model: 'gpt', officialEndpoint: true });
    expect(params.messages).toEqual([
      { role: 'system', content: 'You maintain a wiki.' },
      { role: 'user', content: 'Ingest raw/a.md' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path": "raw/a.md"}' } },
          { id: 'call_2', type: 'function', function: { name: 'write_file', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'text' },
      { role: 'tool', tool_call_id: 'call_2', content: 'Error: arguments are not valid JSON' },
    ]);
  });

  it('does not double an error prefix the loop already wrote', () => {
    const wire = toOpenAiMessages([{ role: 'tool', results: [{ callId: 'c', name: 'x', content: 'Error: bad path', isError: true }] }]);
    expect(wire).toEqual([{ role: 'tool', tool_call_id: 'c', content: 'Error: bad path' }]);
  });
});

describe('OpenAI responses', () => {
  it('returns parallel tool calls from one streamed turn with their ids', async () => {
    server = await startFakeLlmServer([
      {
        toolCalls: [
          { id: 'call_a', name: 'read_file', arguments: { path: 'raw/one-with-a-long-name.md' } },
          { id: 'call_b', name: 'read_file', arguments: { path: 'raw/two.md' } },
        ],
      },
    ]);
    const response = await modelFor('openai', server.openaiBaseUrl, { stream: true }).complete(request(FIRST_TURN));
    expect(response.toolCalls.map((call) => [call.id, call.arguments])).toEqual([
      ['call_a', { path: 'raw/one-with-a-long-name.md' }],
      ['call_b', { path: 'raw/two.md' }],
    ]);
  });

  it('counts cached prompt tokens as cache reads, not input', () => {
    expect(
      neutralUsage({ prompt_tokens: 1000, completion_tokens: 50, total_tokens: 1050, prompt_tokens_details: { cached_tokens: 800 } }),
    ).toEqual({ inputTokens: 200, outputTokens: 50, cacheReadTokens: 800, cacheWriteTokens: 0 });
    expect(neutralUsage(undefined)).toEqual({ inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 });
  });

  it('streams: accumulates argument pieces by index, even when calls interleave', () => {
    const stream = new OpenAiStreamAccumulator();
    stream.add(chunk({ role: 'assistant', content: '' }));
    stream.add(chunk({ tool_calls: [{ index: 0, id: 'c0', type: 'function', function: { name: 'read_file', arguments: '{"pa' } }] }));
    stream.add(chunk({ tool_calls: [{ index: 1, id: 'c1', type: 'function', function: { name: 'read_file', arguments: '' } }] }));
    stream.add(chunk({ tool_calls: [{ index: 1, function: { arguments: '{"path":"b"}' } }] }));
    stream.add(chunk({ tool_calls: [{ index: 0, function: { arguments: 'th":"a"}' } }] }));
    stream.add(chunk({}, 'tool_calls'));
    expect(stream.finished).toBe(true);
    expect(stream.result('m').toolCalls).toEqual([
      { id: 'c0', name: 'read_file', arguments: { path: 'a' }, rawArguments: '{"path":"a"}' },
      { id: 'c1', name: 'read_file', arguments: { path: 'b' }, rawArguments: '{"path":"b"}' },
    ]);
  });

  it('streams: separates whole calls that a server sends all at index 0, and names id-less calls', () => {
    const stream = new OpenAiStreamAccumulator();
    stream.add(chunk({ tool_calls: [{ index: 0, id: 'x1', function: { name: 'read_file', arguments: '{"path":"a"}' } }] }));
    stream.add(chunk({ tool_calls: [{ index: 0, id: 'x2', function: { name: 'read_file', arguments: '{"path":"b"}' } }] }));
    stream.add(chunk({ tool_calls: [{ index: 1, function: { name: 'list_directory', arguments: '' } }] }));
    stream.add(chunk({}, 'stop'));
    const response = stream.result('m');
    expect(response.toolCalls.map((call) => [call.id, call.name, call.arguments])).toEqual([
      ['x1', 'read_file', { path: 'a' }],
      ['x2', 'read_file', { path: 'b' }],
      ['call_2', 'list_directory', {}],
    ]);
    expect(response.stopReason).toBe('tool_use');
  });

  it('streams: a stream without a finish_reason is not finished', () => {
    const stream = new OpenAiStreamAccumulator();
    stream.add(chunk({ content: 'half an ans' }));
    expect(stream.finished).toBe(false);
  });

  it('maps finish_reason length to max_tokens, even with tool calls (their arguments are likely cut)', async () => {
    server = await startFakeLlmServer([{ toolCalls: [{ name: 'write_file', arguments: '{"path": "wiki/a.md", "content": "cut' }], wireStopReason: 'length' }]);
    const response = await modelFor('openai', server.openaiBaseUrl, { stream: true }).complete(request(FIRST_TURN));
    expect(response.stopReason).toBe('max_tokens');
    expect(response.toolCalls[0]!.arguments).toBeUndefined();
  });
});
