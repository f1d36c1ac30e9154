import { afterEach, describe, expect, it } from 'vitest';
import { startFakeLlmServer, type FakeLlmServer } from '../helpers/fake-llm-server.js';
import { FIRST_TURN, modelFor, request } from './harness.js';

/** The scripted server itself: wire details the SDK tests do not show directly. */
let server: FakeLlmServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function post(url: string, body: unknown): Promise<{ status: number; text: string }> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, text: await response.text() };
}

function eventTypes(sse: string): string[] {
  return sse
    .split('\n')
    .filter((line) => line.startsWith('event: '))
    .map((line) => line.slice('event: '.length));
}

describe('fake LLM server', () => {
  it('streams Anthropic events in the API order', async () => {
    server = await startFakeLlmServer([{ text: 'Hello there, world', toolCalls: [{ name: 'read_file', arguments: { path: 'a' } }] }]);
    const { text } = await post(`${server.url}/v1/messages`, { model: 'm', max_tokens: 10, messages: [], stream: true });
    const types = eventTypes(text);
    expect(types[0]).toBe('message_start');
    expect(types.slice(-2)).toEqual(['message_delta', 'message_stop']);
    expect(types.filter((type) => type === 'content_block_start')).toHaveLength(2);
    expect(text).toContain('"type":"input_json_delta"');
    expect(text).toContain('"stop_reason":"tool_use"');
  });

  it('streams OpenAI chunks with a final usage chunk only when asked, then [DONE]', async () => {
    server = await startFakeLlmServer([{ text: 'hi' }, { text: 'hi' }]);
    const withUsage = await post(`${server.openaiBaseUrl}/chat/completions`, { model: 'm', messages: [], stream: true, stream_options: { include_usage: true } });
    const without = await post(`${server.openaiBaseUrl}/chat/completions`, { model: 'm', messages: [], stream: true });
    const datas = (sse: string) => sse.split('\n').filter((line) => line.startsWith('data: ')).map((line) => line.slice(6));
    expect(datas(withUsage.text).at(-1)).toBe('[DONE]');
    const usageChunk = JSON.parse(datas(withUsage.text).at(-2)!) as { choices: unknown[]; usage: { prompt_tokens: number } };
    expect(usageChunk.choices).toEqual([]);
    expect(usageChunk.usage.prompt_tokens).toBe(100);
    expect(without.text).not.toContain('"usage"');
  });

  it('lets a function script react to the tool results it receives', async () => {
    server = await startFakeLlmServer((sent) =>
      sent.toolResults.length === 0
        ? { toolCalls: [{ name: 'read_file', arguments: { path: 'raw/a.md' } }] }
        : { text: `got ${sent.toolResults[0]!.content}` },
    );
    const model = modelFor('openai', server.openaiBaseUrl, { stream: true });
    const first = await model.complete(request(FIRST_TURN));
    const second = await model.complete(
      request([
        ...FIRST_TURN,
        { role: 'assistant', text: '', toolCalls: first.toolCalls },
        { role: 'tool', results: [{ callId: first.toolCalls[0]!.id, name: 'read_file', content: 'A', isError: false }] },
      ]),
    );
    expect(second.text).toBe('got A');
  });

  it('answers 400 when the script runs out, and says so in problems', async () => {
    server = await startFakeLlmServer([]);
    const { status, text } = await post(`${server.url}/v1/messages`, { model: 'm', messages: [] });
    expect(status).toBe(400);
    expect(text).toContain('script exhausted');
    expect(server.problems).toEqual(['fake LLM server: script exhausted after 0 steps (request #0)']);
  });

  it('records unknown routes as problems', async () => {
    server = await startFakeLlmServer([]);
    const { status } = await post(`${server.url}/v1/v1/messages`, {});
    expect(status).toBe(404);
    expect(server.problems).toEqual(['unexpected POST /v1/v1/messages']);
  });

  it('gives a spawned CLI the environment for one provider and unsets the other', async () => {
    server = await startFakeLlmServer([]);
    expect(server.env('openai')).toEqual({
      OPENAI_BASE_URL: server.openaiBaseUrl,
      OPENAI_API_KEY: 'test-key',
      ANTHROPIC_BASE_URL: undefined,
      ANTHROPIC_API_KEY: undefined,
    });
  });
});
