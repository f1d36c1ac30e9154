import { describe, expect, it } from 'vitest';
import { runToolCalls, scheduleGroups } from '../../src/agent/tool-runner.js';
import { DEFAULT_TURN_LIMITS } from '../../src/agent/turn-limits.js';
import type { ToolCall } from '../../src/agent/types.js';
import type { Tool } from '../../src/agent/tool.js';
import { rawToolCall, toolCall } from '../helpers/scripted-model.js';
import { fakeTool, indexOfEntry, newTimeline } from './fake-tools.js';

function toolMap(...tools: Tool[]): Map<string, Tool> {
  return new Map(tools.map((tool) => [tool.definition.name, tool]));
}

describe('scheduleGroups', () => {
  const tools = toolMap(fakeTool('read'), fakeTool('write', { mutates: true }));
  const cases: Array<{ calls: string[]; groups: number[][] }> = [
    { calls: ['read', 'read', 'read'], groups: [[0, 1, 2]] },
    { calls: ['write', 'write'], groups: [[0], [1]] },
    { calls: ['read', 'read', 'write', 'read', 'read'], groups: [[0, 1], [2], [3, 4]] },
    { calls: ['write', 'read', 'write'], groups: [[0], [1], [2]] },
    // Calls that cannot run (unknown tool) never hold up or split the reads around them.
    { calls: ['read', 'nope', 'read'], groups: [[0, 1, 2]] },
  ];
  it.each(cases)('$calls → $groups', ({ calls, groups }) => {
    expect(scheduleGroups(calls.map((name) => toolCall(name, { path: 'x' })), tools)).toEqual(groups);
  });
});

describe('runToolCalls', () => {
  it('runs consecutive reads at the same time', async () => {
    const timeline = newTimeline();
    const tools = toolMap(fakeTool('read', { delayMs: 60, timeline }));
    const calls = ['a', 'b', 'c'].map((label) => toolCall('read', { path: label }));
    await runToolCalls(calls, tools);
    // Every read started before the first one finished: they overlapped.
    const firstEnd = timeline.entries.findIndex((entry) => entry.phase === 'end');
    expect(timeline.entries.slice(0, firstEnd).map((entry) => entry.label).sort()).toEqual(['a', 'b', 'c']);
  });

  it('runs writes one at a time, in call order, after the reads before them', async () => {
    const timeline = newTimeline();
    // The first write is the slowest: if writes overlapped, w2 would finish first.
    const delays: Record<string, number> = { r1: 40, w1: 50, w2: 5, r2: 5 };
    const delayMs = (args: Record<string, unknown>): number => delays[String(args['path'])] ?? 0;
    const tools = toolMap(fakeTool('read', { delayMs, timeline }), fakeTool('write', { mutates: true, delayMs, timeline }));
    const calls = [toolCall('read', { path: 'r1' }), toolCall('write', { path: 'w1' }), toolCall('write', { path: 'w2' }), toolCall('read', { path: 'r2' })];
    await runToolCalls(calls, tools);
    const at = (label: string, phase: 'start' | 'end'): number => indexOfEntry(timeline, label, phase);
    expect(at('r1', 'end')).toBeLessThan(at('w1', 'start'));
    expect(at('w1', 'end')).toBeLessThan(at('w2', 'start'));
    expect(at('w2', 'end')).toBeLessThan(at('r2', 'start'));
  });

  it('returns results in call order whatever order they finish in', async () => {
    const delayMs = (args: Record<string, unknown>): number => Number(String(args['path']).slice(1));
    const tools = toolMap(fakeTool('read', { delayMs }));
    const calls = ['d40', 'd1', 'd20'].map((path) => toolCall('read', { path }));
    const { results } = await runToolCalls(calls, tools);
    expect(results.map((result) => result.callId)).toEqual(calls.map((call) => call.id));
    expect(results.map((result) => result.content)).toEqual(['read ok: d40', 'read ok: d1', 'read ok: d20']);
  });

  const errorCases: Array<{ name: string; call: ToolCall; expected: RegExp[] }> = [
    {
      name: 'unknown tool lists the tool names',
      call: toolCall('delete_file', { path: 'wiki/a.md' }),
      expected: [/Unknown tool "delete_file"/, /read, write/],
    },
    {
      name: 'unparsable JSON quotes what was sent and the expected fields',
      call: rawToolCall('read', '{"path": "wiki/a.md"'),
      expected: [/not valid JSON/, /\{\\"path\\": \\"wiki\/a\.md\\"/, /path \(string, required\)/],
    },
    {
      name: 'arguments that are not an object',
      call: { id: 'c-array', name: 'read', arguments: [] as unknown as Record<string, unknown>, rawArguments: '[]' },
      expected: [/must be a JSON object/, /"\[\]"/],
    },
    {
      name: "arguments the tool's own check rejects",
      call: toolCall('read', { file: 'wiki/a.md' }),
      expected: [/missing string parameter\(s\) path/],
    },
    {
      name: 'a tool that throws',
      call: toolCall('explode', { path: 'x' }),
      expected: [/explode failed unexpectedly: disk on fire/],
    },
  ];
  it.each(errorCases)('$name → an error result, nothing thrown', async ({ call, expected }) => {
    const tools = toolMap(
      fakeTool('read'),
      fakeTool('write', { mutates: true }),
      fakeTool('explode', {
        run: () => {
          throw new Error('disk on fire');
        },
      }),
    );
    const { results } = await runToolCalls([call], tools);
    expect(results).toHaveLength(1);
    expect(results[0]?.isError).toBe(true);
    expect(results[0]?.callId).toBe(call.id);
    for (const pattern of expected) expect(results[0]?.content).toMatch(pattern);
  });

  it('quotes only a prefix of very long unparsable arguments', async () => {
    const raw = `{"path": "${'x'.repeat(5000)}`;
    const { results } = await runToolCalls([rawToolCall('read', raw)], toolMap(fakeTool('read')));
    expect(results[0]?.content.length).toBeLessThan(600);
    expect(results[0]?.content).toContain(`${raw.length} chars in all`);
  });

  it('merges the changes the tools report, created winning over later updates', async () => {
    const write = fakeTool('write', {
      mutates: true,
      run: (args) => ({
        content: 'ok',
        isError: false,
        changed: [{ path: String(args['path']), change: args['label'] === 'new' ? 'created' : 'updated' }],
      }),
    });
    const calls = [
      toolCall('write', { path: 'wiki/a.md', label: 'new' }),
      toolCall('write', { path: 'wiki/a.md', label: 'edit' }),
      toolCall('write', { path: 'wiki/b.md', label: 'edit' }),
    ];
    const { changed } = await runToolCalls(calls, toolMap(write));
    expect(changed).toEqual([
      { path: 'wiki/a.md', change: 'created' },
      { path: 'wiki/b.md', change: 'updated' },
    ]);
  });

  it('after an abort, finishes the running write and skips the rest with a "not run" result', async () => {
    const controller = new AbortController();
    const timeline = newTimeline();
    const slow = fakeTool('slow', {
      mutates: true,
      timeline,
      run: async () => {
        controller.abort();
        await new Promise((resolve) => setTimeout(resolve, 30));
        return { content: 'slow finished', isError: false };
      },
    });
    const write = fakeTool('write', { mutates: true, timeline });
    const calls = [toolCall('slow', { path: 's' }), toolCall('write', { path: 'w' })];
    const outcome = await runToolCalls(calls, toolMap(slow, write), { signal: controller.signal });
    expect(outcome.interrupted).toBe(true);
    expect(outcome.results.map((result) => [result.content, result.isError])).toEqual([
      ['slow finished', false],
      ['write was not run: the run was interrupted before this call started.', true],
    ]);
    expect(timeline.entries.some((entry) => entry.tool === 'write')).toBe(false);
  });

  it.each([
    { what: 'a read that never ends', run: () => new Promise<never>(() => undefined) },
    { what: 'a read that fails after the abort', run: () => new Promise<never>((_, reject) => setTimeout(() => reject(new Error('late')), 20)) },
  ])('an abort answers $what at once as stopped, and the reads beside it too', async ({ run }) => {
    const controller = new AbortController();
    const stuck = fakeTool('stuck', { run });
    const calls = [toolCall('stuck', { path: 'a' }), toolCall('stuck', { path: 'b' }), toolCall('write', { path: 'w' })];
    const pending = runToolCalls(calls, toolMap(stuck, fakeTool('write', { mutates: true })), { signal: controller.signal });
    setTimeout(() => controller.abort(), 5);
    const outcome = await pending;
    expect(outcome.interrupted).toBe(true);
    expect(outcome.results.map((result) => [result.content, result.isError])).toEqual([
      ['stuck was stopped: the run was interrupted while this call was running, so it has no result.', true],
      ['stuck was stopped: the run was interrupted while this call was running, so it has no result.', true],
      ['write was not run: the run was interrupted before this call started.', true],
    ]);
  });
});

describe('runToolCalls: per-turn limits', () => {
  const limits = { toolCallsPerTurn: 3, toolResultBytesPerTurn: 1000 };

  it('runs at most toolCallsPerTurn calls; the rest are answered as errors and never run', async () => {
    let runs = 0;
    const tools = toolMap(fakeTool('read', { run: () => ((runs += 1), { content: 'ok', isError: false }) }));
    const calls = Array.from({ length: 1500 }, (_, i) => toolCall('read', { path: `p${i}` }));
    const { results } = await runToolCalls(calls, tools, { limits });
    expect(runs).toBe(3);
    expect(results).toHaveLength(1500);
    expect(results.slice(0, 3).every((result) => !result.isError)).toBe(true);
    for (const result of results.slice(3)) {
      expect(result.isError).toBe(true);
      expect(result.content).toContain('at most 3 run per turn (limits.toolCallsPerTurn in wiki.config.json)');
    }
  });

  it('never runs more than a few read calls at once', async () => {
    let running = 0;
    let most = 0;
    const tools = toolMap(
      fakeTool('read', {
        run: async () => {
          running += 1;
          most = Math.max(most, running);
          await new Promise((resolve) => setImmediate(resolve));
          running -= 1;
          return { content: 'ok', isError: false };
        },
      }),
    );
    await runToolCalls(Array.from({ length: 64 }, (_, i) => toolCall('read', { path: `p${i}` })), tools);
    expect(most).toBeGreaterThan(1);
    expect(most).toBeLessThanOrEqual(8);
  });

  const budgetCases: Array<{ name: string; sizes: number[]; kinds?: string[]; withheld: number[] }> = [
    { name: 'under the budget: everything returned', sizes: [300, 300, 300], withheld: [] },
    { name: 'a result that would pass the budget is withheld; smaller later ones still fit', sizes: [600, 600, 300], withheld: [1] },
    { name: 'one result alone past the budget is withheld', sizes: [5000, 10, 10], withheld: [0] },
    // A write happened whatever the budget: its result always reaches the model.
    { name: 'write results are never withheld', sizes: [900, 900, 10], kinds: ['read', 'write', 'read'], withheld: [] },
  ];
  it.each(budgetCases)('$name', async ({ sizes, kinds, withheld }) => {
    const body = (args: Record<string, unknown>): { content: string; isError: boolean } => ({ content: 'x'.repeat(Number(args['size'])), isError: false });
    const tools = toolMap(fakeTool('read', { run: body }), fakeTool('write', { mutates: true, run: body }));
    const calls = sizes.map((size, i) => toolCall(kinds?.[i] ?? 'read', { path: `p${i}`, size }));
    const { results } = await runToolCalls(calls, tools, { limits: { ...limits, toolCallsPerTurn: 64 } });
    const cut = results.flatMap((result, i) => (result.isError ? [i] : []));
    expect(cut).toEqual(withheld);
    for (const i of withheld) {
      expect(results[i]?.content).toContain('limits.toolResultBytesPerTurn in wiki.config.json');
      expect(results[i]?.content).toContain('Call it again in your next turn');
    }
  });
});

describe('runToolCalls with a tool that sees its calls of the turn together', () => {
  /** A write tool that holds every call whose path starts with "hold", answering it when the batch settles. */
  function holdingWrite(seen: { turns: number[][]; settled: number }): Tool {
    const base = fakeTool('write', { mutates: true });
    return {
      ...base,
      openTurn(calls) {
        seen.turns.push(calls.map((call) => call.index));
        const held: number[] = [];
        return {
          async run(index, args) {
            if (String(args.path).startsWith('hold')) {
              held.push(index);
              return undefined;
            }
            return { content: `wrote ${String(args.path)}`, isError: false, changed: [{ path: String(args.path), change: 'created' }] };
          },
          async settle() {
            seen.settled += 1;
            return new Map(held.map((index) => [index, { content: `wrote held call ${index}`, isError: false }]));
          },
        };
      },
    };
  }

  it('answers a held call at its own place, after the calls that follow it ran, and once per call', async () => {
    const seen = { turns: [] as number[][], settled: 0 };
    const tools = toolMap(holdingWrite(seen), fakeTool('read'));
    const calls = [toolCall('write', { path: 'hold-a' }), toolCall('read', { path: 'x' }), toolCall('write', { path: 'b' })];
    const order: string[] = [];
    const outcome = await runToolCalls(calls, tools, { onResult: (result) => order.push(result.callId) });
    expect(seen.turns).toEqual([[0, 1, 2]]);
    expect(seen.settled).toBe(1);
    expect(outcome.results.map((result) => result.callId)).toEqual(calls.map((call) => call.id));
    expect(outcome.results.map((result) => result.content)).toEqual(['wrote held call 0', expect.any(String), 'wrote b']);
    // The held call is reported when it is decided: after the calls that followed it.
    expect(order).toEqual([calls[1]?.id, calls[2]?.id, calls[0]?.id]);
    expect(outcome.changed).toEqual([{ path: 'b', change: 'created' }]);
  });

  it('a call past the per-turn count is not shown to the batch, and a turn without the tool opens none', async () => {
    const seen = { turns: [] as number[][], settled: 0 };
    const tools = toolMap(holdingWrite(seen), fakeTool('read'));
    await runToolCalls([toolCall('write', { path: 'a' }), toolCall('write', { path: 'b' })], tools, {
      limits: { ...DEFAULT_TURN_LIMITS, toolCallsPerTurn: 1 },
    });
    await runToolCalls([toolCall('read', { path: 'x' })], tools);
    expect(seen.turns).toEqual([[0]]);
    expect(seen.settled).toBe(0);
  });
});
