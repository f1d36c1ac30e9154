import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AgentEvent } from '../../src/agent/events.js';
import type { ToolCall, Usage } from '../../src/agent/types.js';
import { createProgressReporter, describeCall, withProgress } from '../../src/progress/reporter.js';
import { fakeOutput } from './fake-stream.js';

const call = (name: string, args: Record<string, unknown> | undefined, id = name): ToolCall => ({
  id,
  name,
  arguments: args,
  rawArguments: JSON.stringify(args ?? 'oops'),
});
const usage = (inputTokens: number, outputTokens: number, cacheReadTokens = 0): Usage => ({ inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens: 0 });

/** A short run: reads in turn 3, a rejected write, a successful write, then done. */
const RUN: AgentEvent[] = [
  { type: 'run_start', provider: 'anthropic', model: 'claude-sonnet-5-5', maxTurns: 40, tools: ['read_file', 'write_file'], system: 's', userMessage: 'u' },
  { type: 'turn_start', turn: 3, maxTurns: 40 },
  { type: 'model_response', turn: 3, text: '', toolCalls: [], stopReason: 'tool_use', usage: usage(10_000, 300) },
  { type: 'usage', total: usage(10_000, 300, 2000), cost: 0.0312 },
  { type: 'tool_call', turn: 3, call: call('read_file', { path: 'raw/paper.pdf', offset: 0 }) },
  { type: 'tool_call', turn: 3, call: call('search_wiki', { query: 'attention  heads' }) },
  { type: 'tool_result', turn: 3, result: { callId: 'read_file', name: 'read_file', content: 'ok', isError: false }, durationMs: 3, changed: [] },
  { type: 'tool_call', turn: 3, call: call('write_file', { path: 'wiki/concepts/attention.md', content: '---' }) },
  {
    type: 'tool_result',
    turn: 3,
    result: { callId: 'write_file', name: 'write_file', content: '\nrejected: link [[nope]] has no page\nmore detail', isError: true },
    durationMs: 5,
    changed: [],
  },
  { type: 'run_end', status: 'done', turns: 3, usage: usage(10_000, 300, 2000), cost: 0.0312 },
];

describe('progress reporter without a terminal', () => {
  it('prints one plain line per tool call (and failures), no animation', () => {
    const { out, stderr, stdout } = fakeOutput({ tty: false });
    const progress = createProgressReporter(out, { maxTurns: 40, label: 'ingest raw/paper.pdf' });
    for (const event of RUN) progress.listener(event);
    progress.finish();
    expect(stderr.text.split('\n')).toEqual([
      'ingest raw/paper.pdf: claude-sonnet-5-5 (anthropic), up to 40 turns',
      'turn 3/40: read_file raw/paper.pdf',
      'turn 3/40: search_wiki "attention heads"',
      'turn 3/40: write_file wiki/concepts/attention.md',
      'turn 3/40: write_file failed: rejected: link [[nope]] has no page',
      '',
    ]);
    expect(stderr.text).not.toMatch(/[\r\x1b]/);
    expect(stdout.text).toBe('');
  });

  it('reports a context overflow', () => {
    const { out, stderr } = fakeOutput({ tty: false });
    const progress = createProgressReporter(out, { maxTurns: 10, label: 'query' });
    progress.listener({ type: 'context_overflow', turn: 7, retrying: true, message: 'too long' });
    expect(stderr.text).toBe('turn 7/10: context too long for the model; trimming and retrying\n');
  });

  it.each([
    ['--quiet', { quiet: true }],
    ['--json', { json: true }],
  ])('prints nothing with %s, even on a terminal', (_flag, flags) => {
    vi.useFakeTimers();
    try {
      const { out, stderr, stdout } = fakeOutput({ tty: true, ...flags });
      const progress = createProgressReporter(out, { maxTurns: 40, label: 'ingest' });
      for (const event of RUN) progress.listener(event);
      progress.note('a note');
      vi.advanceTimersByTime(1000);
      progress.finish();
      expect(stderr.text).toBe('');
      expect(stdout.text).toBe('');
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('progress reporter on a terminal', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** The visible text of the last redraw. */
  const lastFrame = (text: string): string => text.split('\r\x1b[2K').at(-1) ?? '';

  it('redraws one status line in place with turn, tool, tokens and cost', () => {
    const { out, stderr } = fakeOutput({ tty: true });
    const progress = createProgressReporter(out, { maxTurns: 40, label: 'ingest', columns: 200 });
    expect(lastFrame(stderr.text)).toBe('⠋ ingest · starting');
    for (const event of RUN.slice(0, 8)) progress.listener(event);
    expect(lastFrame(stderr.text)).toBe('⠋ ingest · turn 3/40 · write_file wiki/concepts/attention.md · 12.3k tokens ~$0.03');
    expect(stderr.text).not.toContain('\n');
    progress.finish();
  });

  it('animates the spinner on a timer and stops it in finish()', () => {
    const { out, stderr } = fakeOutput({ tty: true });
    const progress = createProgressReporter(out, { maxTurns: 40, label: 'lint', columns: 80, intervalMs: 80 });
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(80);
    expect(lastFrame(stderr.text)).toBe('⠙ lint · starting');
    vi.advanceTimersByTime(80);
    expect(lastFrame(stderr.text)).toBe('⠹ lint · starting');

    progress.finish();
    expect(vi.getTimerCount()).toBe(0);
    expect(stderr.text.endsWith('\r\x1b[2K')).toBe(true);
    const written = stderr.text.length;
    vi.advanceTimersByTime(1000);
    progress.listener({ type: 'turn_start', turn: 1, maxTurns: 40 });
    progress.finish();
    expect(stderr.text.length).toBe(written);
  });

  it('keeps the line within the terminal width so it never wraps', () => {
    const { out, stderr } = fakeOutput({ tty: true });
    const progress = createProgressReporter(out, { maxTurns: 40, label: 'ingest raw/a-very-long-source-name.pdf', columns: 40 });
    for (const event of RUN) progress.listener(event);
    vi.advanceTimersByTime(500);
    const frames = stderr.text.split('\r\x1b[2K').filter((f) => f !== '');
    expect(frames.length).toBeGreaterThan(5);
    for (const frame of frames) expect([...frame].length).toBeLessThan(40);
    expect(lastFrame(stderr.text)).toMatch(/…$/);
    progress.finish();
  });

  it('shortens the current tool first, so turn and tokens stay visible on a narrow terminal', () => {
    const { out, stderr } = fakeOutput({ tty: true });
    const progress = createProgressReporter(out, { maxTurns: 40, label: 'ingest', columns: 60 });
    for (const event of RUN.slice(0, 8)) progress.listener(event);
    const frame = lastFrame(stderr.text);
    expect(frame).toBe('⠋ ingest · turn 3/40 · write_file wi… · 12.3k tokens ~$0.03');
    expect([...frame].length).toBeLessThan(60);
    progress.finish();
  });

  it('prints a note on its own line and redraws the status after it', () => {
    const { out, stderr } = fakeOutput({ tty: true });
    const progress = createProgressReporter(out, { maxTurns: 40, label: 'ingest', columns: 80 });
    progress.note('fetched https://example.org/paper');
    expect(stderr.text).toBe('\r\x1b[2K⠋ ingest · starting\r\x1b[2Kfetched https://example.org/paper\n\r\x1b[2K⠋ ingest · starting');
    progress.finish();
  });
});

describe('withProgress', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it.each([
    ['the run returns', async () => 'report'],
    ['the run throws', async () => Promise.reject(new Error('provider down'))],
  ])('stops the spinner when %s', async (_case, run) => {
    vi.useFakeTimers();
    const { out } = fakeOutput({ tty: true });
    const outcome = withProgress(out, { maxTurns: 40, label: 'query', columns: 80 }, async (listener) => {
      expect(typeof listener).toBe('function');
      expect(vi.getTimerCount()).toBe(1);
      return run();
    });
    await outcome.catch(() => undefined);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('describeCall', () => {
  it.each([
    [call('read_file', { path: 'raw/a.md', offset: 200 }), 'read_file raw/a.md'],
    [call('list_directory', { path: 'wiki/concepts' }), 'list_directory wiki/concepts'],
    [call('search_wiki', { query: 'scaled\n dot product', limit: 5 }), 'search_wiki "scaled dot product"'],
    [call('fetch', { url: 'https://example.org/' }), 'fetch https://example.org/'],
    [call('write_file', undefined), 'write_file'],
    [call('custom', { count: 3 }), 'custom'],
    [call('read_file', { path: `raw/${'x'.repeat(200)}.md` }), `read_file raw/${'x'.repeat(75)}…`],
  ])('%#: %s', (c, expected) => {
    expect(describeCall(c)).toBe(expected);
  });
});
