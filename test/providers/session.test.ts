import { describe, expect, it } from 'vitest';
import { fakeServers } from '../helpers/use-fake-llm.js';
import type { Message } from '../../src/agent/types.js';
import type { WireApi } from '../helpers/fake-llm-server.js';
import { FIRST_TURN, baseUrlOf, modelFor, request } from './harness.js';

/**
 * Both providers, through their real SDKs, in JSON and SSE mode, against the scripted
 * server: the neutral conversation goes out in each wire format and comes back the same.
 */
const MODES: Array<{ api: WireApi; stream: boolean }> = [
  { api: 'anthropic', stream: false },
  { api: 'anthropic', stream: true },
  { api: 'openai', stream: false },
  { api: 'openai', stream: true },
];

const serve = fakeServers();

describe.each(MODES)('$api provider, stream=$stream', ({ api, stream }) => {
  it('plays a tool session: tool call → tool result → final text', async () => {
    const fake = await serve([
      { text: 'Let me read it.', toolCalls: [{ name: 'read_file', arguments: { path: 'raw/a.md' } }] },
      { text: 'The source is about attention.' },
    ]);
    const model = modelFor(api, baseUrlOf(api, fake), { stream });

    const first = await model.complete(request(FIRST_TURN));
    expect(first.text).toBe('Let me read it.');
    expect(first.stopReason).toBe('tool_use');
    expect(first.toolCalls).toHaveLength(1);
    const call = first.toolCalls[0]!;
    expect(call).toMatchObject({ name: 'read_file', arguments: { path: 'raw/a.md' }, rawArguments: '{"path":"raw/a.md"}' });
    expect(call.id).not.toBe('');

    const conversation: Message[] = [
      ...FIRST_TURN,
      { role: 'assistant', text: first.text, toolCalls: first.toolCalls },
      { role: 'tool', results: [{ callId: call.id, name: 'read_file', content: '# Attention\nQueries and keys.', isError: false }] },
    ];
    const second = await model.complete(request(conversation));
    expect(second).toMatchObject({ text: 'The source is about attention.', toolCalls: [], stopReason: 'end', model: 'fake-model' });

    expect(fake.requests).toHaveLength(2);
    const sent = fake.requests[1]!;
    expect(sent.stream).toBe(stream);
    expect(sent.toolResults).toEqual([{ callId: call.id, content: '# Attention\nQueries and keys.', isError: false }]);
    expect(sent.system).toBe('You maintain a wiki.');
    expect(sent.toolNames).toEqual(['read_file', 'write_file']);
    expect(sent.lastUserText).toBe('Ingest raw/a.md');
    expect(fake.remaining()).toBe(0);
    expect(fake.problems).toEqual([]);
  });

  it('returns several tool calls of one turn in order, and sends all their results back together', async () => {
    const fake = await serve([
      {
        toolCalls: [
          { name: 'read_file', arguments: { path: 'raw/a.md' } },
          { name: 'read_file', arguments: { path: 'raw/b.md' } },
          { name: 'write_file', arguments: { path: 'wiki/concepts/c.md', content: '---\ntitle: C\n---\nBody "quoted" ünïcode' } },
        ],
      },
      { text: 'ok' },
    ]);
    const model = modelFor(api, baseUrlOf(api, fake), { stream });
    const first = await model.complete(request(FIRST_TURN));
    expect(first.toolCalls.map((call) => call.arguments)).toEqual([
      { path: 'raw/a.md' },
      { path: 'raw/b.md' },
      { path: 'wiki/concepts/c.md', content: '---\ntitle: C\n---\nBody "quoted" ünïcode' },
    ]);
    expect(new Set(first.toolCalls.map((call) => call.id)).size).toBe(3);

    const results = first.toolCalls.map((call, index) => ({
      callId: call.id,
      name: call.name,
      content: index === 1 ? 'raw/b.md does not exist' : `result ${index}`,
      isError: index === 1,
    }));
    await model.complete(request([...FIRST_TURN, { role: 'assistant', text: '', toolCalls: first.toolCalls }, { role: 'tool', results }]));
    const sent = fake.requests[1]!;
    expect(sent.toolResults.map((result) => result.callId)).toEqual(first.toolCalls.map((call) => call.id));
    expect(sent.toolResults.map((result) => result.isError)).toEqual([false, true, false]);
  });

  it('normalises usage: input excludes cache reads and writes, which are counted on their own', async () => {
    const usage = { inputTokens: 50, outputTokens: 7, cacheReadTokens: 900, cacheWriteTokens: 30 };
    const fake = await serve([{ text: 'hi', usage }]);
    const response = await modelFor(api, baseUrlOf(api, fake), { stream }).complete(request(FIRST_TURN));
    expect(response.usage).toEqual(usage);
  });

  it('gives a tool call with malformed JSON arguments as arguments: undefined with the raw text kept', async () => {
    const raw = '{"path": "wiki/concepts/x.md", "content": "unterminated';
    const fake = await serve([{ fault: 'malformed-tool-json', name: 'write_file', raw }]);
    const response = await modelFor(api, baseUrlOf(api, fake), { stream }).complete(request(FIRST_TURN));
    expect(response.toolCalls).toHaveLength(1);
    expect(response.toolCalls[0]).toMatchObject({ name: 'write_file', arguments: undefined, rawArguments: raw });
    expect(response.stopReason).toBe('tool_use');
  });

  it('yields the tool calls even when the server reports them with a plain "stop"', async () => {
    const wireStopReason = api === 'anthropic' ? 'end_turn' : 'stop';
    const fake = await serve([{ toolCalls: [{ name: 'read_file', arguments: { path: 'raw/a.md' } }], wireStopReason }]);
    const response = await modelFor(api, baseUrlOf(api, fake), { stream }).complete(request(FIRST_TURN));
    expect(response.toolCalls.map((call) => call.name)).toEqual(['read_file']);
    expect(response.stopReason).toBe('tool_use');
  });

  it.each([
    { stopReason: 'max_tokens' as const, expected: 'max_tokens' },
    { stopReason: 'refusal' as const, expected: 'refusal' },
    { stopReason: 'end' as const, expected: 'end' },
  ])('maps the $stopReason stop reason', async ({ stopReason, expected }) => {
    const fake = await serve([{ text: 'partial answer', stopReason }]);
    const response = await modelFor(api, baseUrlOf(api, fake), { stream }).complete(request(FIRST_TURN));
    expect(response.stopReason).toBe(expected);
    expect(response.text).toBe('partial answer');
  });

  it('sends the configured model and output limit', async () => {
    const fake = await serve([{ text: 'ok' }]);
    await modelFor(api, baseUrlOf(api, fake), { stream, model: 'my-model' }).complete(request(FIRST_TURN, { maxOutputTokens: 333 }));
    const body = fake.requests[0]!.body;
    expect(body.model).toBe('my-model');
    expect(body.max_tokens).toBe(333);
  });
});
