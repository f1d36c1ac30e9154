import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/agent/events.js';
import { runAgent } from '../../src/agent/loop.js';
import { createTranscript, transcriptLine, transcriptPath } from '../../src/agent/transcript.js';
import { newRunId } from '../../src/state/history.js';
import { ScriptedModel, toolCall } from '../helpers/scripted-model.js';
import { fakeTool } from './fake-tools.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'wiki-transcript-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function readLines(file: string): Promise<Array<Record<string, unknown>>> {
  const text = await readFile(file, 'utf8');
  expect(text.endsWith('\n')).toBe(true);
  return text
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('transcript', () => {
  it('records every event of a run as one JSON line with an ISO timestamp', async () => {
    const file = transcriptPath(dir, newRunId());
    const transcript = await createTranscript(file);
    const events: AgentEvent[] = [];
    const model = new ScriptedModel([
      { text: 'reading', toolCalls: [toolCall('read_file', { path: 'raw/a.md' }), toolCall('read_file', { path: 'raw/b.md' })] },
      { text: 'done' },
    ]);
    await runAgent({
      model,
      system: 'sys',
      userMessage: 'go',
      tools: [fakeTool('read_file')],
      maxOutputTokens: 100,
      listener: (event) => events.push(event),
      transcript,
    });
    await transcript.close();

    const lines = await readLines(file);
    expect(lines.map((line) => line['type'])).toEqual(events.map((event) => event.type));
    for (const [index, line] of lines.entries()) {
      expect(new Date(String(line['time'])).toISOString()).toBe(line['time']);
      const { time: _time, ...rest } = line;
      expect(rest).toEqual(JSON.parse(JSON.stringify(events[index])));
    }
    expect(lines.filter((line) => line['type'] === 'tool_result')).toHaveLength(2);
    expect(lines.at(-1)).toMatchObject({ type: 'run_end', status: 'done', turns: 2 });
  });

  it('creates .wiki/runs and appends to an existing file, keeping write order', async () => {
    const file = transcriptPath(dir, 'r1');
    expect(file).toBe(path.join(dir, '.wiki', 'runs', 'r1.jsonl'));
    const first = await createTranscript(file);
    first.write({ type: 'note', n: 1 });
    await first.close();
    const second = await createTranscript(file);
    for (let n = 2; n <= 200; n += 1) second.write({ type: 'note', n });
    await second.close();
    const lines = await readLines(file);
    expect(lines.map((line) => line['n'])).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
  });

  it('refuses writes after close', async () => {
    const transcript = await createTranscript(path.join(dir, 'x.jsonl'));
    await transcript.close();
    expect(() => transcript.write({ type: 'late' })).toThrow(/already closed/);
  });

  it('fails to open where a file blocks the directory', async () => {
    await writeFile(path.join(dir, '.wiki'), 'not a directory');
    await expect(createTranscript(transcriptPath(dir, 'r'))).rejects.toThrow();
  });
});

describe('transcript event size cap', () => {
  const cases: Array<{ name: string; record: Record<string, unknown>; cut: boolean }> = [
    { name: 'a small event is written whole', record: { type: 'tool_result', content: 'x'.repeat(1000) }, cut: false },
    { name: 'a 10 MB write argument is cut', record: { type: 'tool_call', call: { arguments: { content: 'y'.repeat(10_000_000) }, rawArguments: 'z'.repeat(10_000_000) } }, cut: true },
    { name: 'many medium strings adding up past the cap are cut', record: { type: 'model_response', parts: Array.from({ length: 200 }, () => 'w'.repeat(1000)) }, cut: true },
    { name: 'characters that escape long in JSON count at their escaped size', record: { type: 'x', text: '\u0001'.repeat(20_000) }, cut: true },
  ];
  it.each(cases)('$name', async ({ record, cut }) => {
    const file = path.join(dir, 'cap.jsonl');
    const transcript = await createTranscript(file, { maxEventBytes: 64 * 1024 });
    transcript.write(record as { type: string });
    await transcript.close();
    const text = await readFile(file, 'utf8');
    expect(Buffer.byteLength(text, 'utf8')).toBeLessThanOrEqual(64 * 1024 + 1);
    const [line] = await readLines(file);
    expect(line?.type).toBe(record.type);
    expect(line?.truncated === true).toBe(cut);
    if (cut) expect(text).toMatch(/…\[truncated: \d+ chars in all\]/);
  });
});

describe('transcriptLine with many long strings', () => {
  it('cuts a response of 60 one-megabyte calls to one bounded line without serialising it whole first', () => {
    const MB = 1024 * 1024;
    const calls = Array.from({ length: 60 }, (_, i) => ({ id: `c${i}`, name: 'search_wiki', arguments: { query: 'q'.repeat(MB) }, rawArguments: 'r'.repeat(MB) }));
    const largest: number[] = [];
    const stringify = JSON.stringify;
    JSON.stringify = ((...args: Parameters<typeof JSON.stringify>) => {
      const out = stringify(...args);
      largest.push(out?.length ?? 0);
      return out;
    }) as typeof JSON.stringify;
    let line: string;
    try {
      line = transcriptLine({ type: 'model_response', toolCalls: calls }, 2 * MB);
    } finally {
      JSON.stringify = stringify;
    }
    expect(Buffer.byteLength(line)).toBeLessThanOrEqual(2 * MB + 1);
    expect(line).toContain('"truncated":true');
    expect(Math.max(...largest)).toBeLessThanOrEqual(2 * MB);
  });

  it('good work: a record that fits is written whole', () => {
    const record = { type: 'tool_call', call: { name: 'search_wiki', arguments: { query: 'okapi' } } };
    expect(transcriptLine(record, 2 * 1024 * 1024)).toBe(`${JSON.stringify(record)}\n`);
  });
});
