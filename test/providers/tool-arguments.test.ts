import { describe, expect, it } from 'vitest';
import { runToolCalls } from '../../src/agent/tool-runner.js';
import { AnthropicStreamAccumulator } from '../../src/providers/anthropic-wire.js';
import { OpenAiStreamAccumulator } from '../../src/providers/openai-wire.js';
import { CappedArguments, maxToolArgumentChars } from '../../src/providers/tool-arguments.js';
import { fakeTool } from '../agent/fake-tools.js';

/** Streamed tool-call arguments are kept only up to a limit, so a huge write costs no more memory than one at the limit. */
const LIMIT = 1000;
const pieces = (total: number, size = 100): string[] => {
  const json = JSON.stringify({ path: 'wiki/concepts/a.md', content: 'x'.repeat(Math.max(0, total - 45)) });
  return Array.from({ length: Math.ceil(json.length / size) }, (_, i) => json.slice(i * size, (i + 1) * size));
};

function viaAnthropic(parts: string[]) {
  const stream = new AnthropicStreamAccumulator(LIMIT);
  stream.add({ type: 'message_start', message: { model: 'm', usage: { input_tokens: 1, output_tokens: 1 } } } as never);
  stream.add({ type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 't1', name: 'write_file', input: {} } } as never);
  for (const part of parts) stream.add({ type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: part } } as never);
  stream.add({ type: 'message_stop' } as never);
  return stream.result('m').toolCalls[0];
}

function viaOpenAi(parts: string[]) {
  const stream = new OpenAiStreamAccumulator(LIMIT);
  parts.forEach((part, i) =>
    stream.add({ model: 'm', choices: [{ index: 0, delta: { tool_calls: [{ index: 0, ...(i === 0 ? { id: 't1', function: { name: 'write_file', arguments: part } } : { function: { arguments: part } }) }] }, finish_reason: null }] } as never),
  );
  stream.add({ model: 'm', choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] } as never);
  return stream.result('m').toolCalls[0];
}

describe('streamed tool-call arguments past the limit', () => {
  const cases = [
    { wire: 'anthropic', accumulate: viaAnthropic },
    { wire: 'openai', accumulate: viaOpenAi },
  ];
  it.each(cases)('$wire: within the limit the call is whole', ({ accumulate }) => {
    const call = accumulate(pieces(900));
    expect(call?.oversized).toBeUndefined();
    expect(call?.arguments?.['path']).toBe('wiki/concepts/a.md');
  });

  it.each(cases)('$wire: past it the arguments are dropped, their length counted, and the call is answered with an error', async ({ accumulate }) => {
    const parts = pieces(50_000);
    const call = accumulate(parts);
    const sent = parts.join('').length;
    expect(call?.oversized).toEqual({ chars: sent, limit: LIMIT });
    expect(call?.arguments).toBeUndefined();
    expect(call?.rawArguments.length).toBeLessThanOrEqual(200);
    let ran = false;
    const write = fakeTool('write_file', { mutates: true, run: () => ((ran = true), { content: 'written', isError: false }) });
    const { results } = await runToolCalls([call!], new Map([['write_file', write]]));
    expect(ran).toBe(false);
    expect(results[0]?.isError).toBe(true);
    expect(results[0]?.content).toContain(`were ${sent} characters, past the ${LIMIT}-character limit for one tool call`);
    expect(results[0]?.content).toContain('limits.pageWriteBytes');
  });

  it('the limit follows limits.pageWriteBytes with room for JSON escapes', () => {
    expect(maxToolArgumentChars(1024 * 1024)).toBeGreaterThanOrEqual(4 * 1024 * 1024);
    const capped = new CappedArguments(10);
    for (const part of ['12345', '67890', 'abc']) capped.append(part);
    expect(capped.oversized).toEqual({ chars: 13, limit: 10 });
  });
});
