import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/agent/events.js';
import { CONTINUE_MESSAGE, runAgent, type AgentOptions } from '../../src/agent/loop.js';
import { NORMAL_TRIM } from '../../src/agent/context-trim.js';
import type { Message, ToolResult } from '../../src/agent/types.js';
import { ProviderError } from '../../src/errors.js';
import type { Tool } from '../../src/agent/tool.js';
import { ScriptedModel, contextOverflow, rawToolCall, toolCall, type Script } from '../helpers/scripted-model.js';
import { fakeTool, indexOfEntry, newTimeline } from './fake-tools.js';

const readFile = fakeTool('read_file', { run: (args) => ({ content: `contents of ${String(args['path'])}`, isError: false }) });
const writeFile = fakeTool('write_file', {
  mutates: true,
  run: (args) => ({ content: `created ${String(args['path'])}`, isError: false, changed: [{ path: String(args['path']), change: 'created' }] }),
});

function agent(script: Script, overrides: Partial<AgentOptions> = {}): { model: ScriptedModel; events: AgentEvent[]; run: () => ReturnType<typeof runAgent> } {
  const model = new ScriptedModel(script);
  const events: AgentEvent[] = [];
  const options: AgentOptions = {
    model,
    system: 'You maintain a wiki.',
    userMessage: 'Ingest raw/a.md',
    tools: [readFile, writeFile],
    maxTurns: 10,
    maxOutputTokens: 1000,
    listener: (event) => events.push(event),
    ...overrides,
  };
  return { model, events, run: () => runAgent(options) };
}

function lastToolResults(messages: Message[]): ToolResult[] {
  const last = messages.at(-1);
  if (last?.role !== 'tool') throw new Error(`last message is ${last?.role ?? 'missing'}, not tool`);
  return last.results;
}

/** A model that asks for a read every time. */
const alwaysReads: Script = (_request, index) => ({ toolCalls: [toolCall('read_file', { path: `raw/${index}.md` })] });

describe('runAgent: stopping', () => {
  it('stops with done when the model asks for no tool, returning its text', async () => {
    const { model, run } = agent([
      { text: 'Reading.', toolCalls: [toolCall('read_file', { path: 'raw/a.md' })] },
      { text: 'All done.', stopReason: 'end' },
    ]);
    const result = await run();
    expect(result).toMatchObject({ status: 'done', finalText: 'All done.', turns: 2, toolCalls: 1 });
    expect(model.requests).toHaveLength(2);
    expect(result.usage).toEqual({ inputTokens: 200, outputTokens: 40, cacheReadTokens: 0, cacheWriteTokens: 0 });
  });

  it('treats a reply with tool calls as wanting them, even when it says "end" (local servers do)', async () => {
    const { run } = agent([{ toolCalls: [toolCall('read_file', { path: 'a' })], stopReason: 'end' }, { text: 'ok' }]);
    expect(await run()).toMatchObject({ status: 'done', turns: 2, toolCalls: 1 });
  });

  it('makes exactly maxTurns calls and ends with max_turns', async () => {
    const { model, run } = agent(alwaysReads, { maxTurns: 3 });
    const result = await run();
    expect(result.status).toBe('max_turns');
    expect(result.turns).toBe(3);
    expect(model.requests).toHaveLength(3);
    // The last turn's tools still ran, so the conversation ends paired.
    expect(lastToolResults(result.messages)).toHaveLength(1);
  });

  it('defaults to 40 turns', async () => {
    const { model, run } = agent(alwaysReads, { maxTurns: undefined });
    expect((await run()).status).toBe('max_turns');
    expect(model.requests).toHaveLength(40);
  });

  it('ends with refused on a refusal', async () => {
    const { run } = agent([{ text: 'I cannot help with that.', stopReason: 'refusal' }]);
    expect(await run()).toMatchObject({ status: 'refused', finalText: 'I cannot help with that.', turns: 1 });
  });

  it('on pause, calls again with the conversation as is and joins the text', async () => {
    const { model, run } = agent([{ text: 'Part one, ', stopReason: 'pause' }, { text: 'part two.' }]);
    const result = await run();
    expect(result).toMatchObject({ status: 'done', finalText: 'Part one, part two.', turns: 2 });
    const second = model.requests[1]?.messages ?? [];
    expect(second).toEqual([
      { role: 'user', content: 'Ingest raw/a.md' },
      { role: 'assistant', text: 'Part one, ', toolCalls: [] },
    ]);
  });

  it('after a reply cut off at max_tokens, asks once to continue and joins the text', async () => {
    const { model, run } = agent([{ text: 'The answer is ', stopReason: 'max_tokens' }, { text: 'forty-two.' }]);
    const result = await run();
    expect(result).toMatchObject({ status: 'done', finalText: 'The answer is forty-two.', turns: 2 });
    expect(model.requests[1]?.messages.at(-1)).toEqual({ role: 'user', content: CONTINUE_MESSAGE });
  });

  it('counts continuations as turns', async () => {
    const { model, run } = agent(() => ({ text: 'more ', stopReason: 'max_tokens' }), { maxTurns: 3 });
    expect((await run()).status).toBe('max_turns');
    const continues = (model.requests[2]?.messages ?? []).filter((m) => m.role === 'user' && m.content === CONTINUE_MESSAGE);
    expect(continues).toHaveLength(2);
  });
});

describe('runAgent: tools', () => {
  it('sends every result of a turn back in one tool message, in call order', async () => {
    const delayMs = (args: Record<string, unknown>): number => (args['path'] === 'slow' ? 40 : 1);
    const read = fakeTool('read_file', { delayMs });
    const calls = [toolCall('read_file', { path: 'slow' }), toolCall('read_file', { path: 'fast' }), toolCall('write_file', { path: 'wiki/a.md' })];
    const { model, run } = agent([{ toolCalls: calls }, { text: 'done' }], { tools: [read, writeFile] });
    await run();
    const second = model.requests[1]?.messages ?? [];
    expect(second.map((message) => message.role)).toEqual(['user', 'assistant', 'tool']);
    expect(lastToolResults(second).map((result) => [result.callId, result.content])).toEqual([
      [calls[0]?.id, 'read_file ok: slow'],
      [calls[1]?.id, 'read_file ok: fast'],
      [calls[2]?.id, 'created wiki/a.md'],
    ]);
  });

  it('runs the reads of a turn in parallel and the writes in order', async () => {
    const timeline = newTimeline();
    const read = fakeTool('read_file', { delayMs: 50, timeline });
    const write = fakeTool('write_file', { mutates: true, delayMs: (args) => (args['path'] === 'w1' ? 40 : 1), timeline });
    const calls = [
      toolCall('read_file', { path: 'r1' }),
      toolCall('read_file', { path: 'r2' }),
      toolCall('read_file', { path: 'r3' }),
      toolCall('write_file', { path: 'w1' }),
      toolCall('write_file', { path: 'w2' }),
    ];
    const { run } = agent([{ toolCalls: calls }, { text: 'done' }], { tools: [read, write] });
    await run();
    const at = (label: string, phase: 'start' | 'end'): number => indexOfEntry(timeline, label, phase);
    // All three reads were running at once: each started before any of them ended.
    const firstReadEnd = Math.min(at('r1', 'end'), at('r2', 'end'), at('r3', 'end'));
    expect(Math.max(at('r1', 'start'), at('r2', 'start'), at('r3', 'start'))).toBeLessThan(firstReadEnd);
    const readSpan = [timeline.entries[at('r1', 'start')], timeline.entries[at('r3', 'end')]];
    expect((readSpan[1]?.at ?? 0) - (readSpan[0]?.at ?? 0)).toBeLessThan(2 * 50);
    // Writes: after all reads, one at a time, in the order asked.
    expect(Math.max(at('r1', 'end'), at('r2', 'end'), at('r3', 'end'))).toBeLessThan(at('w1', 'start'));
    expect(at('w1', 'end')).toBeLessThan(at('w2', 'start'));
  });

  it('feeds every kind of bad call back as an error result and keeps going', async () => {
    const explode = fakeTool('explode', {
      run: () => {
        throw new Error('disk on fire');
      },
    });
    const calls = [
      toolCall('delete_file', { path: 'wiki/a.md' }),
      rawToolCall('read_file', '{"path": "wiki/a.md"'),
      toolCall('read_file', { file: 'wiki/a.md' }),
      toolCall('explode', { path: 'x' }),
      toolCall('read_file', { path: 'wiki/ok.md' }),
    ];
    const { model, run } = agent([{ toolCalls: calls }, { text: 'fixed it' }], { tools: [readFile, writeFile, explode] });
    const result = await run();
    expect(result).toMatchObject({ status: 'done', finalText: 'fixed it', toolCalls: 5 });
    const results = lastToolResults(model.requests[1]?.messages ?? []);
    expect(results.map((r) => r.isError)).toEqual([true, true, true, true, false]);
    expect(results[0]?.content).toContain('read_file, write_file, explode');
    expect(results[1]?.content).toContain('not valid JSON');
    expect(results[1]?.content).toContain('wiki/a.md');
    expect(results[2]?.content).toContain('missing string parameter(s) path');
    expect(results[3]?.content).toContain('disk on fire');
    expect(results[4]?.content).toBe('contents of wiki/ok.md');
  });

  it('reports the files the run changed, once each', async () => {
    const { run } = agent([
      { toolCalls: [toolCall('write_file', { path: 'wiki/a.md' }), toolCall('write_file', { path: 'wiki/b.md' })] },
      { toolCalls: [toolCall('write_file', { path: 'wiki/a.md' })] },
      { text: 'done' },
    ]);
    expect((await run()).changed).toEqual([
      { path: 'wiki/a.md', change: 'created' },
      { path: 'wiki/b.md', change: 'created' },
    ]);
  });

  it('emits turn, response, tool and usage events in order', async () => {
    const { events, run } = agent([{ toolCalls: [toolCall('read_file', { path: 'a' })] }, { text: 'done' }]);
    await run();
    expect(events.map((event) => event.type)).toEqual([
      'run_start',
      'turn_start',
      'model_response',
      'usage',
      'tool_call',
      'tool_result',
      'turn_start',
      'model_response',
      'usage',
      'run_end',
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'run_end', status: 'done', turns: 2 });
  });
});

describe('runAgent: context trimming', () => {
  it('keeps the request bounded over 20 turns of large reads', async () => {
    const big = fakeTool('read_file', { run: (args) => ({ content: `${String(args['path'])}\n${'lorem ipsum '.repeat(1_000)}`, isError: false }) });
    const script: Script = (_request, index) => (index < 20 ? { toolCalls: [toolCall('read_file', { path: `wiki/${index}.md` })] } : { text: 'done' });
    const { model, events, run } = agent(script, { tools: [big, writeFile], maxTurns: 30 });
    const result = await run();
    expect(result.status).toBe('done');
    const sizes = model.requests.map((request) => JSON.stringify(request.messages).length);
    // Without trimming the last request would carry all 20 reads (~240,000 chars); with it,
    // never more than the two recent results plus what waits for the next (batched) trim.
    expect(Math.max(...sizes)).toBeLessThan(2 * 12_100 + NORMAL_TRIM.trimAboveChars + 12_100);
    const removed = events.flatMap((event) => (event.type === 'trimmed' ? [event.removedChars] : []));
    // Rare, large steps: far fewer trims than turns, each removing at least the threshold.
    expect(removed.length).toBeLessThanOrEqual(3);
    expect(Math.min(...removed)).toBeGreaterThanOrEqual(NORMAL_TRIM.trimAboveChars);
  });

  it('with contextTokens, every request and its reply stay within the window, in few trims', async () => {
    // Source windows (3,000 chars), each followed by a write of notes, as an ingest reads.
    const window = fakeTool('read_file', { run: (args) => ({ content: `[raw/a.md: characters ${String(args['offset'])}-…]\n${'lorem ipsum '.repeat(250)}`, isError: false }) });
    const script: Script = (_request, index) =>
      index >= 40 ? { text: 'done' } : index % 2 === 0 ? { toolCalls: [toolCall('read_file', { path: 'raw/a.md', offset: index * 1500 })] } : { toolCalls: [toolCall('write_file', { path: 'wiki/a.md', content: 'notes. '.repeat(300) })] };
    const contextTokens = 10_000;
    const { model, events, run } = agent(script, { tools: [window, writeFile], maxTurns: 50, maxOutputTokens: 8192, contextTokens });
    const result = await run();
    expect(result.status).toBe('done');
    for (const request of model.requests) {
      // The reply gets at most a quarter of a small window.
      expect(request.maxOutputTokens).toBe(2_500);
      const chars = request.system.length + JSON.stringify(request.tools).length + JSON.stringify(request.messages).length;
      expect(chars / 4 + request.maxOutputTokens).toBeLessThanOrEqual(contextTokens * 1.05);
    }
    // Few, large steps: far fewer trims than turns.
    expect(events.filter((event) => event.type === 'trimmed').length).toBeLessThanOrEqual(8);
  });

  it('without contextTokens, the reply keeps maxOutputTokens and nothing is trimmed for size', async () => {
    const { model, run } = agent([{ toolCalls: [toolCall('read_file', { path: 'a' })] }, { text: 'done' }], { tools: [readFile, writeFile], maxOutputTokens: 8192 });
    await run();
    expect(model.requests.map((request) => request.maxOutputTokens)).toEqual([8192, 8192]);
  });

  it('retries a context overflow once after trimming harder, and succeeds', async () => {
    const big = fakeTool('read_file', { run: () => ({ content: 'y'.repeat(2_000), isError: false }) });
    let overflowed = false;
    const script: Script = (request, index) => {
      if (index < 3) return { toolCalls: [toolCall('read_file', { path: `raw/${index}.md` })] };
      if (!overflowed) {
        overflowed = true;
        return contextOverflow();
      }
      return { text: `done after ${request.messages.length} messages` };
    };
    const { model, events, run } = agent(script, { tools: [big, writeFile] });
    const result = await run();
    expect(result.status).toBe('done');
    expect(result.turns).toBe(4);
    expect(model.requests).toHaveLength(5);
    // The retried request has only the last turn whole.
    const retried = model.requests[4]?.messages ?? [];
    const lengths = retried.flatMap((m) => (m.role === 'tool' ? m.results.map((r) => r.content.length) : []));
    expect(lengths[2]).toBe(2_000);
    expect(lengths[1]).toBeLessThan(200);
    expect(events.some((event) => event.type === 'trimmed' && event.mode === 'hard')).toBe(true);
    expect(events.some((event) => event.type === 'context_overflow' && event.retrying)).toBe(true);
  });

  it('gives up with provider_error on a second overflow', async () => {
    const big = fakeTool('read_file', { run: () => ({ content: 'y'.repeat(2_000), isError: false }) });
    const script: Script = (_request, index) =>
      index < 3 ? { toolCalls: [toolCall('read_file', { path: `raw/${index}.md` })] } : contextOverflow();
    const { model, run } = agent(script, { tools: [big, writeFile] });
    const result = await run();
    expect(result.status).toBe('provider_error');
    expect(model.requests).toHaveLength(5);
    expect(result.error).toBeInstanceOf(ProviderError);
    expect((result.error as ProviderError).kind).toBe('context-overflow');
    expect(result.error?.message).toMatch(/no longer fits the model's context window, even after trimming/);
  });

  it('does not retry an overflow when there is nothing left to trim', async () => {
    const { model, run } = agent([contextOverflow()]);
    const result = await run();
    expect(result.status).toBe('provider_error');
    expect(model.requests).toHaveLength(1);
  });
});

describe('runAgent: budgets', () => {
  // Each scripted reply uses 100 input + 20 output tokens.
  it('stops with budget_tokens once the run has used maxTokens', async () => {
    const { model, run } = agent(alwaysReads, { maxTokens: 300 });
    const result = await run();
    expect(result.status).toBe('budget_tokens');
    expect(result.turns).toBe(3);
    expect(model.requests).toHaveLength(3);
    // The tools of the last turn still ran: nothing the model asked for is left half-done.
    expect(lastToolResults(result.messages)).toHaveLength(1);
  });

  it('stops with budget_cost once the estimated cost reaches maxCost', async () => {
    const price = (usage: { inputTokens: number; outputTokens: number }): number => (usage.inputTokens + 2 * usage.outputTokens) / 1_000;
    const { run, events } = agent(alwaysReads, { maxCost: 0.3, price });
    const result = await run();
    expect(result.status).toBe('budget_cost');
    expect(result.turns).toBe(3);
    expect(result.cost).toBeCloseTo(0.42);
    expect(events.filter((e) => e.type === 'usage').map((e) => (e.type === 'usage' ? e.cost : 0))).toEqual([
      expect.closeTo(0.14),
      expect.closeTo(0.28),
      expect.closeTo(0.42),
    ]);
  });

  it('does not enforce maxCost when the price is unknown', async () => {
    const { run } = agent(alwaysReads, { maxCost: 0.01, price: () => undefined, maxTurns: 4 });
    const result = await run();
    expect(result.status).toBe('max_turns');
    expect(result.cost).toBeUndefined();
  });

  it('lets a run that finishes on the call that crosses the budget end as done', async () => {
    const { run } = agent([{ text: 'done' }], { maxTokens: 50 });
    expect((await run()).status).toBe('done');
  });
});

describe('runAgent: interruption and provider errors', () => {
  it('on abort, stops the current read at once and ends interrupted without calling the model again', async () => {
    const controller = new AbortController();
    const timeline = newTimeline();
    const slowRead = fakeTool('read_file', {
      timeline,
      run: async () => {
        controller.abort();
        await new Promise((resolve) => setTimeout(resolve, 30_000));
        return { content: 'read finished', isError: false };
      },
    });
    const write = fakeTool('write_file', { mutates: true, timeline });
    const { model, run } = agent(
      [{ toolCalls: [toolCall('read_file', { path: 'a' }), toolCall('write_file', { path: 'wiki/b.md' })] }, { text: 'never' }],
      { tools: [slowRead, write], signal: controller.signal },
    );
    const result = await run();
    expect(result.status).toBe('interrupted');
    expect(model.requests).toHaveLength(1);
    const results = lastToolResults(result.messages);
    expect(results[0]).toMatchObject({ content: expect.stringMatching(/read_file was stopped: the run was interrupted/), isError: true });
    expect(results[1]?.content).toMatch(/not run: the run was interrupted/);
    expect(timeline.entries.filter((entry) => entry.tool === 'write_file')).toEqual([]);
  });

  it('cancels a pending model request on abort', async () => {
    const controller = new AbortController();
    const { model, run } = agent([{ text: 'slow', delayMs: 3_600_000 }], { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    // The model would answer in an hour: the run ending at all shows the request was cancelled.
    const result = await run();
    expect(result.status).toBe('interrupted');
    expect(model.requests[0]?.hadSignal).toBe(true);
  });

  it('does not call the model at all when already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const { model, run } = agent([{ text: 'never' }], { signal: controller.signal });
    expect((await run()).status).toBe('interrupted');
    expect(model.requests).toHaveLength(0);
  });

  it('ends with provider_error and keeps the error object, without throwing', async () => {
    const failure = new ProviderError('auth', 'the API key was rejected (401)', 'check ANTHROPIC_API_KEY', 2);
    const { run, events } = agent([{ toolCalls: [toolCall('read_file', { path: 'a' })] }, { error: failure }]);
    const result = await run();
    expect(result.status).toBe('provider_error');
    expect(result.error).toBe(failure);
    expect(result.turns).toBe(1);
    expect(events.at(-1)).toMatchObject({ type: 'run_end', status: 'provider_error', error: 'the API key was rejected (401)' });
  });

  it('reports an unexpected error from the model the same way', async () => {
    const { run } = agent([{ error: new TypeError('cannot read properties of undefined') }]);
    const result = await run();
    expect(result.status).toBe('provider_error');
    expect(result.error).toBeInstanceOf(TypeError);
  });
});

describe('runAgent: request contents', () => {
  it('sends the system prompt, tool definitions and output limit on every call', async () => {
    const tools: Tool[] = [readFile, writeFile];
    const { model, run } = agent([{ toolCalls: [toolCall('read_file', { path: 'a' })] }, { text: 'done' }], { tools, maxOutputTokens: 777 });
    await run();
    for (const request of model.requests) {
      expect(request.system).toBe('You maintain a wiki.');
      expect(request.tools.map((tool) => tool.name)).toEqual(['read_file', 'write_file']);
      expect(request.maxOutputTokens).toBe(777);
    }
    expect(model.requests[0]?.messages).toEqual([{ role: 'user', content: 'Ingest raw/a.md' }]);
  });
});

describe('runAgent: oversized refused calls', () => {
  const refusingWrite = fakeTool('write_file', {
    mutates: true,
    required: ['path', 'content'],
    run: (args) =>
      String(args['content']).length > 1000
        ? { content: 'refused: over the page limit', isError: true }
        : { content: `created ${String(args['path'])}`, isError: false },
  });
  const cases = [
    { name: 'a refused call larger than the turn budget is stubbed in later requests', size: 200_000, kept: false },
    { name: 'a refused call within the budget is re-sent as the model wrote it', size: 5_000, kept: true },
    { name: 'a short accepted write is re-sent as written', size: 300, kept: true },
  ];
  it.each(cases)('$name', async ({ size, kept }) => {
    const content = 'q'.repeat(size);
    const { model, run } = agent([{ toolCalls: [toolCall('write_file', { path: 'wiki/a.md', content })] }, { text: 'done' }], {
      tools: [readFile, refusingWrite],
      turnLimits: { toolCallsPerTurn: 64, toolResultBytesPerTurn: 16 * 1024 },
    });
    await run();
    const resent = JSON.stringify(model.requests[1]?.messages);
    expect(resent.includes(content)).toBe(kept);
    if (!kept) expect(resent).toContain(`[trimmed: ${size.toLocaleString('en-US')} chars sent earlier]`);
  });

  it('an accepted page write is re-sent as a stub that says where the text is and how to see it', async () => {
    const content = 'page text. '.repeat(70);
    const { model, run } = agent([{ toolCalls: [toolCall('write_file', { path: 'wiki/b.md', content })] }, { toolCalls: [toolCall('read_file', { path: 'x' })] }, { text: 'done' }], {
      tools: [readFile, refusingWrite],
    });
    await run();
    for (const request of model.requests.slice(1)) {
      const resent = JSON.stringify(request.messages);
      expect(resent).not.toContain('page text. page text.');
      expect(resent).toContain(`[trimmed: ${content.length.toLocaleString('en-US')} chars written to wiki/b.md; read_file(path=\\"wiki/b.md\\") shows the page as it is now]`);
    }
  });
});

describe('runAgent: follow-up rounds', () => {
  it('continues the same conversation with the follow-up message, within the same turns, and joins every round’s last reply', async () => {
    const asked: Array<{ turns: number; changed: string[]; text: string }> = [];
    const { model, events, run } = agent(
      [
        { toolCalls: [toolCall('write_file', { path: 'wiki/a.md', content: 'x' })] },
        { text: 'Wrote a.' },
        { text: 'KEEP wiki/a.md:3 :: right as it is' },
      ],
      {
        followUp: async (round) => {
          asked.push({ turns: round.turns, changed: round.changed.map((c) => c.path), text: round.text });
          return asked.length === 1 ? 'Your changes left 1 new finding(s).' : undefined;
        },
      },
    );
    const result = await run();
    expect(result).toMatchObject({ status: 'done', turns: 3, finalText: 'Wrote a.\n\nKEEP wiki/a.md:3 :: right as it is', rounds: ['Wrote a.', 'KEEP wiki/a.md:3 :: right as it is'] });
    expect(asked).toEqual([
      { turns: 2, changed: ['wiki/a.md'], text: 'Wrote a.' },
      { turns: 3, changed: ['wiki/a.md'], text: 'KEEP wiki/a.md:3 :: right as it is' },
    ]);
    // The third request is the whole conversation so far plus the follow-up.
    expect(model.requests[2]?.messages.at(-2)).toMatchObject({ role: 'assistant', text: 'Wrote a.' });
    expect(model.requests[2]?.messages.at(-1)).toEqual({ role: 'user', content: 'Your changes left 1 new finding(s).' });
    expect(events.filter((e) => e.type === 'follow_up')).toHaveLength(1);
  });

  it('without a follow-up a run ends at its first answer, its rounds that answer alone', async () => {
    const { run } = agent([{ text: 'Done.' }]);
    expect(await run()).toMatchObject({ status: 'done', finalText: 'Done.', rounds: ['Done.'] });
  });
});
