import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Usage } from '../../src/agent/types.js';
import { emptyUsageTotals, sumTranscriptUsage } from '../../src/usage/transcripts.js';

const u = (inputTokens: number, outputTokens: number, cacheReadTokens = 0, cacheWriteTokens = 0): Usage => ({
  inputTokens,
  outputTokens,
  cacheReadTokens,
  cacheWriteTokens,
});

const start = { type: 'run_start', provider: 'anthropic', model: 'claude-sonnet-5-5', maxTurns: 40, tools: [], system: 's', userMessage: 'm' };
const usageEvent = (total: Usage, cost?: number) => ({ type: 'usage', total, ...(cost === undefined ? {} : { cost }) });
const end = (usage: Usage, cost?: number) => ({ type: 'run_end', status: 'done', turns: 2, usage, ...(cost === undefined ? {} : { cost }) });

async function workspaceWithRuns(files: Record<string, Array<object | string>>): Promise<string> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'wiki-usage-'));
  const runs = path.join(root, '.wiki', 'runs');
  await mkdir(runs, { recursive: true });
  for (const [name, records] of Object.entries(files)) {
    const lines = records.map((r) => (typeof r === 'string' ? r : JSON.stringify({ time: '2026-11-21T10:00:00.000Z', ...r })));
    await writeFile(path.join(runs, name), `${lines.join('\n')}\n`);
  }
  return root;
}

describe('sumTranscriptUsage', () => {
  it('is all zeros when there are no runs', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'wiki-usage-'));
    expect(await sumTranscriptUsage(root)).toEqual(emptyUsageTotals());
  });

  it('takes a finished run from its run_end record', async () => {
    const root = await workspaceWithRuns({
      'a.jsonl': [start, usageEvent(u(100, 10), 0.001), usageEvent(u(300, 40, 50, 20), 0.004), end(u(300, 40, 50, 20), 0.004)],
    });
    expect(await sumTranscriptUsage(root)).toEqual({ runs: 1, tokens: u(300, 40, 50, 20), cost: 0.004, unpricedRuns: 0, skippedLines: 0 });
  });

  it('counts a killed run (no run_end) by its last usage record', async () => {
    const root = await workspaceWithRuns({ 'a.jsonl': [start, usageEvent(u(100, 10), 0.5), usageEvent(u(250, 30), 1.25)] });
    expect(await sumTranscriptUsage(root)).toMatchObject({ runs: 1, tokens: u(250, 30), cost: 1.25 });
  });

  it('sums several runs across files and within one file', async () => {
    const root = await workspaceWithRuns({
      'a.jsonl': [start, end(u(100, 10), 0.5), start, end(u(200, 20, 1000), 0.25)],
      'b.jsonl': [start, usageEvent(u(1, 2, 3, 4), 1), end(u(1, 2, 3, 4), 1)],
    });
    const totals = await sumTranscriptUsage(root);
    expect(totals).toMatchObject({ runs: 3, tokens: u(301, 32, 1003, 4), unpricedRuns: 0 });
    expect(totals.cost).toBeCloseTo(1.75, 10);
  });

  it('counts tokens but not cost for runs whose price was unknown', async () => {
    const root = await workspaceWithRuns({
      'priced.jsonl': [start, end(u(100, 10), 0.5)],
      'local.jsonl': [{ ...start, provider: 'openai', model: 'llama3.1:8b' }, usageEvent(u(5000, 500)), end(u(5000, 500))],
    });
    expect(await sumTranscriptUsage(root)).toEqual({ runs: 2, tokens: u(5100, 510), cost: 0.5, unpricedRuns: 1, skippedLines: 0 });
  });

  it('counts a run that failed before any model reply, with no tokens and no unknown cost', async () => {
    const root = await workspaceWithRuns({ 'a.jsonl': [start, { type: 'turn_start', turn: 1, maxTurns: 40 }, end(u(0, 0))] });
    expect(await sumTranscriptUsage(root)).toEqual({ runs: 1, tokens: u(0, 0), cost: 0, unpricedRuns: 0, skippedLines: 0 });
  });

  it('skips corrupt lines and keeps everything else', async () => {
    const root = await workspaceWithRuns({
      'a.jsonl': [
        start,
        'not json at all',
        '[1, 2, 3]',
        '{"no_type": true}',
        { type: 'usage', total: { inputTokens: 'many' }, cost: 1 },
        { type: 'usage', total: { inputTokens: -5, outputTokens: 1 }, cost: 1 },
        usageEvent(u(100, 10), 0.5),
        '{"type":"run_end","status":"done","usage":{"inputTok',
      ],
      'b.jsonl': [start, end(u(1, 1), 0.25)],
    });
    expect(await sumTranscriptUsage(root)).toEqual({ runs: 2, tokens: u(101, 11), cost: 0.75, unpricedRuns: 0, skippedLines: 6 });
  });

  it('reads only .jsonl files', async () => {
    const root = await workspaceWithRuns({ 'a.jsonl': [start, end(u(10, 1), 0.1)], 'notes.txt': [start, end(u(999, 999), 99)] });
    expect(await sumTranscriptUsage(root)).toMatchObject({ runs: 1, tokens: u(10, 1) });
  });
});
