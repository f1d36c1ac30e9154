import { describe, expect, it } from 'vitest';
import { describeCall, trimContext, trimOptions } from '../../src/agent/context-trim.js';
import type { Message, ToolCall, ToolResult } from '../../src/agent/types.js';
import { toolCall } from '../helpers/scripted-model.js';

const WRITES = new Set(['write_file', 'append_to_file']);
/** The normal pass without its batching threshold: trims whatever may go. */
const EAGER = { ...trimOptions('normal', WRITES), trimAboveChars: 0 };

/** One turn: the assistant's calls and the tool message with their results. */
function turn(calls: Array<{ call: ToolCall; content: string; isError?: boolean }>): Message[] {
  const results: ToolResult[] = calls.map(({ call, content, isError }) => ({
    callId: call.id,
    name: call.name,
    content,
    isError: isError ?? false,
  }));
  return [
    { role: 'assistant', text: '', toolCalls: calls.map(({ call }) => call) },
    { role: 'tool', results },
  ];
}

function readTurn(path: string, size: number): Message[] {
  return turn([{ call: toolCall('read_file', { path }), content: 'x'.repeat(size) }]);
}

function toolResults(messages: Message[]): ToolResult[] {
  return messages.flatMap((message) => (message.role === 'tool' ? message.results : []));
}

/** Every call has exactly one result, in the message right after it, and vice versa. */
function expectPairingIntact(messages: Message[]): void {
  messages.forEach((message, index) => {
    if (message.role !== 'assistant' || message.toolCalls.length === 0) return;
    const next = messages[index + 1];
    expect(next?.role).toBe('tool');
    if (next?.role === 'tool') {
      expect(next.results.map((result) => result.callId)).toEqual(message.toolCalls.map((call) => call.id));
    }
  });
}

describe('trimContext', () => {
  it('replaces long results older than the last two turns by a stub that says how to get them back', () => {
    const messages: Message[] = [
      { role: 'user', content: 'ingest raw/a.md' },
      ...readTurn('wiki/x.md', 12_345),
      ...readTurn('wiki/y.md', 3_000),
      ...readTurn('wiki/z.md', 4_000),
    ];
    const { messages: trimmed, removedChars, trimmedItems } = trimContext(messages, EAGER);
    const contents = toolResults(trimmed).map((result) => result.content);
    expect(contents[0]).toBe('[trimmed: result of read_file(wiki/x.md), 12,345 chars, already used — call again to see it]');
    expect(contents[1]).toHaveLength(3_000);
    expect(contents[2]).toHaveLength(4_000);
    expect(removedChars).toBe(12_345 - (contents[0] ?? '').length);
    expect(trimmedItems).toBe(1);
    expect(trimmed).toHaveLength(messages.length);
    expectPairingIntact(trimmed);
  });

  it('keeps short results, error results and write results however old', () => {
    const write = toolCall('write_file', { path: 'wiki/a.md', content: 'c'.repeat(900) });
    const messages: Message[] = [
      { role: 'user', content: 'go' },
      ...turn([
        { call: toolCall('read_file', { path: 'short.md' }), content: 'short' },
        { call: toolCall('read_file', { path: 'wiki/bad.md' }), content: 'E'.repeat(800), isError: true },
        { call: write, content: 'W'.repeat(700) },
        { call: toolCall('append_to_file', { path: 'wiki/log.md', content: 'entry' }), content: 'A'.repeat(600) },
      ]),
      ...readTurn('r1', 10),
      ...readTurn('r2', 10),
    ];
    const { messages: trimmed, removedChars } = trimContext(messages, EAGER);
    expect(removedChars).toBe(0);
    expect(trimmed).toEqual(messages);
  });

  it('does nothing while there are no more turns than it keeps', () => {
    const messages: Message[] = [{ role: 'user', content: 'go' }, ...readTurn('a', 5_000), ...readTurn('b', 5_000)];
    expect(trimContext(messages, EAGER)).toEqual({ messages, removedChars: 0, trimmedItems: 0 });
  });

  it('is idempotent: a second pass removes nothing more', () => {
    const messages: Message[] = [{ role: 'user', content: 'go' }, ...readTurn('a', 5_000), ...readTurn('b', 5_000), ...readTurn('c', 5_000)];
    const once = trimContext(messages, EAGER);
    const twice = trimContext(once.messages, EAGER);
    expect(twice.removedChars).toBe(0);
    expect(twice.messages).toEqual(once.messages);
  });

  it('does not change its input', () => {
    const messages: Message[] = [{ role: 'user', content: 'go' }, ...readTurn('a', 5_000), ...readTurn('b', 10), ...readTurn('c', 10)];
    const before = structuredClone(messages);
    trimContext(messages, trimOptions('hard', WRITES));
    expect(messages).toEqual(before);
  });

  it('in hard mode keeps only the last turn whole and shortens the content of earlier writes', () => {
    const write = toolCall('write_file', { path: 'wiki/a.md', content: 'c'.repeat(5_000) });
    const messages: Message[] = [
      { role: 'user', content: 'go' },
      ...turn([{ call: write, content: 'created wiki/a.md' }]),
      ...readTurn('wiki/b.md', 1_000),
      ...readTurn('wiki/c.md', 1_000),
    ];
    const normal = trimContext(messages, EAGER);
    expect(normal.removedChars).toBe(0);

    const hard = trimContext(messages, trimOptions('hard', WRITES));
    const contents = toolResults(hard.messages).map((result) => result.content);
    expect(contents[0]).toBe('created wiki/a.md');
    expect(contents[1]).toMatch(/^\[trimmed: result of read_file\(wiki\/b\.md\), 1,000 chars/);
    expect(contents[2]).toHaveLength(1_000);
    const firstAssistant = hard.messages[1];
    expect(firstAssistant?.role === 'assistant' && firstAssistant.toolCalls[0]?.arguments).toEqual({
      path: 'wiki/a.md',
      content: '[trimmed: 5,000 chars sent earlier]',
    });
    expect(firstAssistant?.role === 'assistant' && JSON.parse(firstAssistant.toolCalls[0]?.rawArguments ?? '')).toEqual({
      path: 'wiki/a.md',
      content: '[trimmed: 5,000 chars sent earlier]',
    });
    expect(hard.removedChars).toBeGreaterThan(5_000);
    expectPairingIntact(hard.messages);
  });

  it('keeps pairing when several calls of one turn are trimmed', () => {
    const messages: Message[] = [
      { role: 'user', content: 'go' },
      ...turn(['a', 'b', 'c'].map((path) => ({ call: toolCall('read_file', { path }), content: path.repeat(2_000) }))),
      { role: 'user', content: 'continue' },
      ...readTurn('d', 10),
      ...readTurn('e', 10),
    ];
    const { messages: trimmed, trimmedItems } = trimContext(messages, EAGER);
    expect(trimmedItems).toBe(3);
    expect(trimmed.map((message) => message.role)).toEqual(messages.map((message) => message.role));
    expectPairingIntact(trimmed);
  });
});

describe('trimContext: cache-aware, source-complete', () => {
  const writeTurn = (path: string): Message[] =>
    turn([{ call: toolCall('write_file', { path, content: 'notes' }), content: `updated ${path}` }]);

  it('waits until enough can go at once, then trims it all in one step', () => {
    const options = { ...trimOptions('normal', WRITES), trimAboveChars: 30_000 };
    const small: Message[] = [{ role: 'user', content: 'go' }, ...readTurn('wiki/a.md', 12_000), ...readTurn('wiki/b.md', 12_000), ...readTurn('wiki/c.md', 12_000)];
    expect(trimContext(small, options).removedChars).toBe(0);
    const large: Message[] = [...small, ...readTurn('wiki/d.md', 12_000), ...readTurn('wiki/e.md', 12_000)];
    const { messages, trimmedItems } = trimContext(large, options);
    expect(trimmedItems).toBe(3);
    expect(toolResults(messages).map((result) => result.content.length).slice(3)).toEqual([12_000, 12_000]);
  });

  it('never trims a source window that no write has followed yet, and trims it once one has', () => {
    const reads: Message[] = [
      { role: 'user', content: 'ingest raw/big.md' },
      ...readTurn('raw/big.md', 20_000),
      ...readTurn('raw/big.md', 20_000),
      ...readTurn('raw/big.md', 20_000),
      ...readTurn('wiki/other.md', 20_000),
      ...readTurn('wiki/more.md', 20_000),
      ...readTurn('wiki/last.md', 20_000),
    ];
    const before = toolResults(trimContext(reads, EAGER).messages).map((result) => result.content.length);
    expect(before.slice(0, 3)).toEqual([20_000, 20_000, 20_000]);
    expect(before[3]).toBeLessThan(200);
    expect(before.slice(4)).toEqual([20_000, 20_000]);
    const written = [...reads, ...writeTurn('wiki/sources/big.md'), ...readTurn('wiki/x.md', 10)];
    const after = toolResults(trimContext(written, EAGER).messages).map((result) => result.content.length);
    expect(after.slice(0, 3).every((n) => n < 200)).toBe(true);
  });

  it('drops unwritten source windows too when the context overflowed', () => {
    const reads: Message[] = [{ role: 'user', content: 'go' }, ...readTurn('raw/a.md', 5_000), ...readTurn('raw/a.md', 5_000)];
    const hard = trimContext(reads, trimOptions('hard', WRITES));
    expect(toolResults(hard.messages)[0]?.content).toMatch(/^\[trimmed: result of read_file\(raw\/a\.md\)/);
  });
});

describe('describeCall', () => {
  const cases: Array<{ call: ToolCall; text: string }> = [
    { call: toolCall('read_file', { path: 'raw/a.md', offset: 2000, limit: 500 }), text: 'read_file(raw/a.md, offset=2000, limit=500)' },
    { call: toolCall('search_wiki', { query: 'attention heads' }), text: 'search_wiki(attention heads)' },
    { call: toolCall('list_directory', { path: 'wiki' }), text: 'list_directory(wiki)' },
    { call: toolCall('read_file', { path: 'p'.repeat(100) }), text: `read_file(${'p'.repeat(60)}…)` },
    { call: { id: '1', name: 'read_file', arguments: undefined, rawArguments: '{' }, text: 'read_file()' },
  ];
  it.each(cases)('$text', ({ call, text }) => {
    expect(describeCall(call)).toBe(text);
  });
});
