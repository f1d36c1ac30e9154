import { appendFile, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pc from 'picocolors';
import { describe, expect, it } from 'vitest';
import { runAgent } from '../../../src/agent/loop.js';
import { createTranscript, transcriptPath } from '../../../src/agent/transcript.js';
import { newRunId } from '../../../src/state/history.js';
import { renderStatus } from '../../../src/cli/render-status.js';
import { loadConfig } from '../../../src/config/load.js';
import { initWorkspace } from '../../../src/operations/workspace/init.js';
import { workspaceStatus } from '../../../src/operations/inspect/status.js';
import { estimateCost, makePricer, priceFor } from '../../../src/usage/cost.js';
import { loadSchema } from '../../../src/wiki/schema-loader.js';
import { ScriptedModel, type ScriptStep } from '../../helpers/scripted-model.js';

const plain = pc.createColors(false);

async function freshWorkspace(): Promise<string> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'wiki-status-usage-'));
  await initWorkspace(root, { today: '2026-11-21' });
  return root;
}

/** One real agent run with its transcript in .wiki/runs/, as an operation would leave it. */
async function recordRun(root: string, steps: ScriptStep[], price?: ReturnType<typeof makePricer>): Promise<string> {
  const file = transcriptPath(root, newRunId());
  const transcript = await createTranscript(file);
  await runAgent({
    model: new ScriptedModel(steps),
    system: 'system',
    userMessage: 'ingest',
    tools: [],
    maxOutputTokens: 1000,
    transcript,
    ...(price === undefined ? {} : { price }),
  });
  await transcript.close();
  return file;
}

async function status(root: string) {
  return workspaceStatus(root, await loadSchema(root), await loadConfig(root, { env: {} }));
}

describe('wiki status: usage from run transcripts', () => {
  it('reports no runs in a new workspace', async () => {
    const root = await freshWorkspace();
    const report = await status(root);
    expect(report.usage).toMatchObject({ runs: 0, cost: 0, unpricedRuns: 0, skippedLines: 0 });
    expect(renderStatus(report, plain)).toMatch(/^Usage:\s+no runs yet$/m);
  });

  it('sums tokens and estimated cost over the transcripts real runs leave', async () => {
    const root = await freshWorkspace();
    const pricer = makePricer('anthropic', 'claude-sonnet-5-5');
    await recordRun(root, [{ text: 'a', usage: { inputTokens: 10_000, outputTokens: 2000, cacheReadTokens: 100_000, cacheWriteTokens: 8000 } }], pricer);
    await recordRun(root, [{ text: 'b', usage: { inputTokens: 1_000_000, outputTokens: 100_000, cacheReadTokens: 0, cacheWriteTokens: 0 } }], pricer);

    const report = await status(root);
    const tokens = { inputTokens: 1_010_000, outputTokens: 102_000, cacheReadTokens: 100_000, cacheWriteTokens: 8000 };
    expect(report.usage).toMatchObject({ runs: 2, tokens, unpricedRuns: 0, skippedLines: 0 });
    const price = priceFor('anthropic', 'claude-sonnet-5-5');
    if (!price) throw new Error('default model must be priced');
    expect(report.usage.cost).toBeCloseTo(estimateCost(tokens, price), 10);

    const line = renderStatus(report, plain).split('\n').find((l) => l.startsWith('Usage:'));
    // 2.02 input + 1.02 output + 0.01 cached + 0.02 cache writes
    expect(line).toBe('Usage:    2 runs, 1.22M tokens (1.01M input, 102k output, 100k cached, 8k cache writes), est. ~$3.07');
  });

  it('says which runs have no known cost, and skips corrupt transcript lines', async () => {
    const root = await freshWorkspace();
    await recordRun(root, [{ text: 'a', usage: { inputTokens: 1000, outputTokens: 100 } }], makePricer('openai', 'gpt-5.5'));
    const local = await recordRun(root, [{ text: 'b', usage: { inputTokens: 500, outputTokens: 50 } }], makePricer('openai', 'llama3.1:8b'));
    await appendFile(local, '{"type":"usage","total":{"inputTok\n\u0000garbage\n');

    const report = await status(root);
    expect(report.usage).toMatchObject({ runs: 2, unpricedRuns: 1, skippedLines: 2 });
    expect(report.usage.tokens.inputTokens).toBe(1500);
    expect(report.usage.cost).toBeCloseTo((1000 * 5 + 100 * 30) / 1_000_000, 10);
    const line = renderStatus(report, plain).split('\n').find((l) => l.startsWith('Usage:'));
    expect(line).toContain('+ 1 run with unknown cost');
    expect(line).toContain('2 corrupt transcript lines skipped');
  });

  it('shows tokens only when no run had a known price', async () => {
    const root = await freshWorkspace();
    await recordRun(root, [{ text: 'a', usage: { inputTokens: 1000, outputTokens: 100 } }]);
    const line = renderStatus(await status(root), plain).split('\n').find((l) => l.startsWith('Usage:'));
    expect(line).toMatch(/^Usage:\s+1 run, 1.1k tokens .*cost unknown/);
  });
});
