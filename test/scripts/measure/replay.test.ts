import { describe, expect, it } from 'vitest';
import { parseAnswer, replayFigures, replayScript } from '../../../scripts/measure/replay.js';
import type { RecordedRequest } from '../../helpers/fake-llm-record.js';

/** A request as the scripted server records it, reduced to what the replay reads. */
function request(index: number, toolResults: string[], lastUserText?: string): RecordedRequest {
  return {
    index,
    api: 'anthropic',
    path: '/v1/messages',
    headers: {},
    body: {},
    stream: false,
    system: '',
    toolNames: [],
    toolResults: toolResults.map((content, i) => ({ callId: `c${i}`, content, isError: false })),
    lastUserText,
    messageCount: 1,
  };
}

describe('parseAnswer: the relay plain-text answer form', () => {
  it('reads calls with string, JSON and block arguments, and what the model said beside them', () => {
    const answer = parseAnswer(
      ['=== say', 'Reading on.', '=== call read_file', 'path: raw/a.md', 'offset:= 24000', '=== call write_file', 'path: wiki/a.md', '--- content', '---', 'title: A', '---', '', 'Body.', ''].join('\n'),
    );
    expect(answer).toEqual({
      text: 'Reading on.',
      calls: [
        { name: 'read_file', arguments: { path: 'raw/a.md', offset: 24000 } },
        { name: 'write_file', arguments: { path: 'wiki/a.md', content: '---\ntitle: A\n---\n\nBody.\n' } },
      ],
    });
  });

  it('reads a final text, and refuses an answer with both calls and a final text', () => {
    expect(parseAnswer('=== text\nDone: three pages.\n\n')).toEqual({ text: 'Done: three pages.', calls: [] });
    expect(() => parseAnswer('=== call list_directory\npath: wiki\n=== text\nDone.')).toThrow(/either calls or a final text/);
  });
});

describe('replayScript', () => {
  const answers = [
    { text: '', calls: [{ name: 'read_file', arguments: { path: 'raw/a.md', offset: 24000 } }] },
    { text: 'Done.', calls: [] },
  ];

  it('reads on from the offset the tool reported, not the recorded one', () => {
    const replay = replayScript(answers);
    const first = replay.script(request(0, [], '[raw/a.md: characters 0-19950 of 30000, lines 1-400 of 600; next offset: 19950]\n…'));
    expect(first.toolCalls?.[0]?.arguments).toEqual({ path: 'raw/a.md', offset: 19950 });
  });

  it('reads on before the final answer while the tool still reports a next offset', () => {
    const replay = replayScript(answers);
    replay.script(request(0, [], '[raw/a.md: characters 0-10000 of 30000, lines 1-200 of 600; next offset: 10000]'));
    const extra = replay.script(request(1, ['[raw/a.md: characters 10000-20000 of 30000, lines 200-400 of 600; next offset: 20000]']));
    expect(extra.toolCalls?.[0]?.arguments).toEqual({ path: 'raw/a.md', offset: 20000 });
    const last = replay.script(request(2, ['[raw/a.md: characters 20000-30000 of 30000, lines 400-600 of 600; end of file]']));
    expect(last).toEqual({ text: 'Done.' });
    expect(replay.addedReads()).toBe(1);
  });
});

describe('replayFigures', () => {
  it('prices cache reads at 0.1× and cache writes at 1.25×', () => {
    const first = { system: [{ type: 'text', text: 's'.repeat(1000), cache_control: { type: 'ephemeral' } }], messages: [{ role: 'user', content: 'question' }] };
    const second = { ...first, messages: [{ role: 'user', content: 'question' }, { role: 'assistant', content: 'answer' }] };
    const figures = replayFigures([first, second]);
    const systemBytes = JSON.stringify({ type: 'text', text: 's'.repeat(1000) }).length;
    const question = 'user'.length + JSON.stringify({ text: 'question' }).length;
    const answer = 'assistant'.length + JSON.stringify({ text: 'answer' }).length;
    expect(figures.requests).toBe(2);
    expect(figures.cacheHitRatio).toBeCloseTo(systemBytes / (2 * systemBytes + 2 * question + answer), 6);
    // Past the first request: the second alone.
    expect(figures.laterTurnsHitRatio).toBeCloseTo(systemBytes / (systemBytes + question + answer), 6);
    // First: the system block written (1.25×), the message sent plain; second: the system block read (0.1×).
    expect(figures.cacheWeightedBytes).toBe(Math.round(systemBytes * 1.25 + systemBytes * 0.1 + 2 * question + answer));
  });

  it('gives the ceiling of the hit ratio: the bytes an earlier request had already sent as a prefix', () => {
    const system = { type: 'text', text: 's'.repeat(1000) };
    // No breakpoint at all: no cache serves anything, yet the second request repeats the first's prefix.
    const first = { system: [system], messages: [{ role: 'user', content: 'question' }] };
    const second = { system: [system], messages: [{ role: 'user', content: 'question' }, { role: 'assistant', content: 'answer' }] };
    const figures = replayFigures([first, second]);
    const firstBytes = JSON.stringify(system).length + 'user'.length + JSON.stringify({ text: 'question' }).length;
    const answer = 'assistant'.length + JSON.stringify({ text: 'answer' }).length;
    expect(figures.cacheHitRatio).toBe(0);
    expect(figures.cacheCeilingRatio).toBeCloseTo(firstBytes / (2 * firstBytes + answer), 6);
  });
});
