import { afterEach, describe, expect, it } from 'vitest';
import type { Message } from '../../src/agent/types.js';
import { AnthropicStreamAccumulator, toAnthropicMessages, toAnthropicParams } from '../../src/providers/anthropic-wire.js';
import { startFakeLlmServer, type FakeLlmServer } from '../helpers/fake-llm-server.js';
import { FIRST_TURN, TOOLS, modelFor, request } from './harness.js';

let server: FakeLlmServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const CALL = { id: 'toolu_1', name: 'read_file', arguments: { path: 'raw/a.md' }, rawArguments: '{"path":"raw/a.md"}' };

describe('Anthropic request translation', () => {
  it('marks the system prompt (the tools come before it) and the last message for prompt caching', async () => {
    server = await startFakeLlmServer([{ text: 'ok' }]);
    await modelFor('anthropic', server.anthropicBaseUrl).complete(request(FIRST_TURN));
    const body = server.requests[0]!.body as {
      system: Array<Record<string, unknown>>;
      tools: Array<Record<string, unknown>>;
      messages: Array<{ content: Array<Record<string, unknown>> }>;
    };
    expect(body.system).toEqual([{ type: 'text', text: 'You maintain a wiki.', cache_control: { type: 'ephemeral' } }]);
    expect(body.tools.map((tool) => tool.cache_control)).toEqual([undefined, undefined]);
    expect(body.tools[0]).toEqual({ name: 'read_file', description: 'Read a file', input_schema: TOOLS[0]!.parameters });
    expect(body.messages.at(-1)!.content.at(-1)).toMatchObject({ cache_control: { type: 'ephemeral' } });
  });

  it('sends tool calls as tool_use blocks and their results, flagged is_error, in one user turn', () => {
    const messages: Message[] = [
      ...FIRST_TURN,
      { role: 'assistant', text: 'Reading.', toolCalls: [CALL, { ...CALL, id: 'toolu_2', arguments: { path: 'raw/b.md' } }] },
      {
        role: 'tool',
        results: [
          { callId: 'toolu_1', name: 'read_file', content: 'text', isError: false },
          { callId: 'toolu_2', name: 'read_file', content: 'no such file', isError: true },
        ],
      },
      { role: 'user', content: 'Keep going.' },
    ];
    const wire = toAnthropicMessages(messages);
    expect(wire).toHaveLength(3);
    expect(wire[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'text', text: 'Reading.' },
        { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'raw/a.md' } },
        { type: 'tool_use', id: 'toolu_2', name: 'read_file', input: { path: 'raw/b.md' } },
      ],
    });
    expect(wire[2]).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_1', content: 'text' },
        { type: 'tool_result', tool_use_id: 'toolu_2', content: 'no such file', is_error: true },
        { type: 'text', text: 'Keep going.', cache_control: { type: 'ephemeral' } },
      ],
    });
  });

  it('marks the end of what the previous request sent, however many blocks the last turn added', () => {
    const turn = (n: number): Message[] => [
      { role: 'assistant', text: '', toolCalls: Array.from({ length: 15 }, (_, i) => ({ ...CALL, id: `toolu_${n}_${i}` })) },
      { role: 'tool', results: Array.from({ length: 15 }, (_, i) => ({ callId: `toolu_${n}_${i}`, name: 'read_file', content: 'text', isError: false })) },
    ];
    const wire = toAnthropicMessages([...FIRST_TURN, ...turn(1), ...turn(2)]);
    const marked = wire.map((message) => (message.content as Array<{ cache_control?: unknown }>).flatMap((block, index) => (block.cache_control ? [index] : [])));
    // The first message, the end of the previous request (30 blocks back, past the API's 20-block look-back) and the last block.
    expect(marked).toEqual([[0], [], [14], [], [14]]);
  });

  it('marks the last tool when there is no system prompt', () => {
    const params = toAnthropicParams(request(FIRST_TURN, { system: '' }), 'claude-test');
    expect(params.tools?.map((tool) => ('cache_control' in tool ? tool.cache_control : undefined))).toEqual([undefined, { type: 'ephemeral' }]);
  });

  it('never sends an empty text block, which the API rejects', () => {
    const wire = toAnthropicMessages([...FIRST_TURN, { role: 'assistant', text: '', toolCalls: [] }, { role: 'user', content: '' }]);
    expect(wire[1]).toEqual({ role: 'assistant', content: [{ type: 'text', text: '(empty)' }] });
    expect(wire[2]!.content).toEqual([{ type: 'text', text: '(empty)', cache_control: { type: 'ephemeral' } }]);
  });

  it('sends a call whose arguments were malformed with an empty input, since the API wants an object', () => {
    const wire = toAnthropicMessages([
      ...FIRST_TURN,
      { role: 'assistant', text: '', toolCalls: [{ id: 'toolu_9', name: 'write_file', arguments: undefined, rawArguments: '{"pa' }] },
    ]);
    expect(wire[1]!.content).toEqual([
      { type: 'tool_use', id: 'toolu_9', name: 'write_file', input: {}, cache_control: { type: 'ephemeral' } },
    ]);
  });

  it('omits the system prompt and tools when there are none', () => {
    const params = toAnthropicParams(request(FIRST_TURN, { system: '', tools: [] }), 'claude-test');
    expect(params).not.toHaveProperty('system');
    expect(params).not.toHaveProperty('tools');
    expect(params.max_tokens).toBe(1024);
  });
});

describe('Anthropic responses', () => {
  it.each([
    { wire: 'pause_turn', neutral: 'pause' },
    { wire: 'stop_sequence', neutral: 'end' },
    { wire: 'model_context_window_exceeded', neutral: 'max_tokens' },
    { wire: 'refusal', neutral: 'refusal' },
  ])('maps stop_reason $wire to $neutral', async ({ wire, neutral }) => {
    server = await startFakeLlmServer([{ text: 'x', wireStopReason: wire }, { text: 'x', wireStopReason: wire }]);
    for (const stream of [false, true]) {
      const response = await modelFor('anthropic', server.anthropicBaseUrl, { stream }).complete(request(FIRST_TURN));
      expect(response.stopReason).toBe(neutral);
    }
  });

  it('sends the key and the API version headers', async () => {
    server = await startFakeLlmServer([{ text: 'ok' }]);
    await modelFor('anthropic', server.anthropicBaseUrl, { apiKey: 'sk-ant-test' }).complete(request(FIRST_TURN));
    const headers = server.requests[0]!.headers;
    expect(`${headers['x-api-key'] ?? ''} ${headers.authorization ?? ''}`).toContain('sk-ant-test');
    expect(headers['anthropic-version']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('streams: keeps the input counts of message_start when message_delta carries only output', () => {
    const stream = new AnthropicStreamAccumulator();
    stream.add({
      type: 'message_start',
      message: {
        id: 'm',
        type: 'message',
        role: 'assistant',
        model: 'claude-x',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 12, output_tokens: 1, cache_read_input_tokens: 300, cache_creation_input_tokens: 4 },
      },
    } as never);
    stream.add({ type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 9 } } as never);
    expect(stream.finished).toBe(false);
    stream.add({ type: 'message_stop' });
    expect(stream.finished).toBe(true);
    expect(stream.result('fallback')).toEqual({
      text: '',
      toolCalls: [],
      stopReason: 'end',
      usage: { inputTokens: 12, outputTokens: 9, cacheReadTokens: 300, cacheWriteTokens: 4 },
      model: 'claude-x',
    });
  });
});
