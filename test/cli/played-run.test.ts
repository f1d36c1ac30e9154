import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PLAYED_RUN, replayPlayedRun, sourceLineCount, type ReplayOutcome } from '../../scripts/measure/replay-run.js';
import { linesShown as linesShownIn } from '../../scripts/measure/replay.js';
import { runCli } from '../helpers/cli.js';

/**
 * A run played by hand by someone standing in for a capable model (test/fixtures/played-run:
 * three ingests and a saved query), replayed through the built CLI: turn N answers with the
 * N-th recorded answer, reads of a raw file follow the offsets the tool reports.
 */

interface Baseline {
  laterTurnsHitRatio: number;
  totalBytes: number;
  largestBytes: number;
  cacheHitRatio: number;
  cacheWeightedBytes: number;
}

const SOURCES = ['raw/go-checksum-database.md', 'raw/go-subtests.md', 'raw/rust-async-await.md'];

function linesShown(outcome: ReplayOutcome, source: string): Set<number> {
  return linesShownIn(outcome.commands.flatMap((command) => command.bodies), source);
}

async function lineCount(source: string): Promise<number> {
  return sourceLineCount(PLAYED_RUN, source);
}

/** The text of a page the model wrote in ingest-1 and never read back there: the page holds it, no request needs it. */
const WRITTEN_PAGE_TEXT = 'Trust on first use (TOFU) is the model in which a client accepts whatever it receives';

function expectWrittenTextNotResent(outcome: ReplayOutcome): void {
  const ingest = outcome.commands.find((command) => command.recording === 'ingest-1');
  expect(ingest?.bodies.length).toBeGreaterThan(2);
  for (const body of ingest?.bodies ?? []) expect(JSON.stringify(body)).not.toContain(WRITTEN_PAGE_TEXT);
  expect(JSON.stringify(ingest?.bodies)).toContain('chars written to wiki/concepts/trust-on-first-use.md; read_file(path=');
}

function expectCompleted(outcome: ReplayOutcome): void {
  for (const command of outcome.commands) {
    expect(command.code, `${command.recording}: ${command.stderr.slice(-800)}`).toBe(0);
    expect(command.problems).toEqual([]);
    expect(command.settings.filter((setting) => !setting.applied)).toEqual([]);
  }
}

describe('the played run, replayed', () => {
  it('costs at most 0.7× what it did before (cache-weighted input), with fewer and smaller requests and no worse cache use', async () => {
    const baseline = JSON.parse(await readFile(path.join(PLAYED_RUN, 'baseline.json'), 'utf8')) as Baseline;
    const outcome = await replayPlayedRun();
    expectCompleted(outcome);
    const f = outcome.figures;
    console.info(
      `played run: ${f.requests} requests, ${f.totalBytes} bytes (before ${baseline.totalBytes}), largest ${f.largestBytes} (before ${baseline.largestBytes}), ` +
        `cache-hit ${f.cacheHitRatio.toFixed(3)} (before ${baseline.cacheHitRatio}), after first requests ${f.laterTurnsHitRatio.toFixed(3)} (before ${baseline.laterTurnsHitRatio}), cache-weighted ${f.cacheWeightedBytes} (before ${baseline.cacheWeightedBytes}, ×${(f.cacheWeightedBytes / baseline.cacheWeightedBytes).toFixed(2)})`,
    );
    expect(f.cacheWeightedBytes).toBeLessThanOrEqual(0.7 * baseline.cacheWeightedBytes);
    expect(f.totalBytes).toBeLessThan(baseline.totalBytes);
    expect(f.largestBytes).toBeLessThan(baseline.largestBytes);
    expect(f.cacheHitRatio).toBeGreaterThanOrEqual(baseline.cacheHitRatio);
    // Past each command's first request (new context and window, nothing cached yet), the prefix survives.
    expect(f.laterTurnsHitRatio).toBeGreaterThanOrEqual(0.8);
    // The cache serves all that any cache could: every miss is a byte no earlier request had sent.
    expect(f.cacheHitRatio).toBeGreaterThanOrEqual(f.cacheCeilingRatio - 0.005);
    // The fact ids nobody asked for are gone; every source line the model saw carries its number.
    const sent = JSON.stringify(outcome.commands.map((command) => command.bodies));
    expect(sent).not.toContain('[facts of these lines');
    expectWrittenTextNotResent(outcome);
    for (const source of SOURCES) {
      const total = await lineCount(source);
      const shown = linesShown(outcome, source);
      expect(shown.size, `${source}: lines shown`).toBe(total);
    }
  }, 300_000);

  it.each(['anthropic', 'openai'] as const)('with "contextTokens": 20000 every request stays within it and the run completes, reading every source whole (%s wire)', async (api) => {
    const outcome = await replayPlayedRun({ api, contextTokens: 20_000 });
    expectCompleted(outcome);
    const sizes = outcome.commands.flatMap((command) => command.bodies.map((body) => Buffer.byteLength(JSON.stringify(body))));
    console.info(`contextTokens 20000 (${api}): ${sizes.length} requests, largest ${Math.max(...sizes)} bytes`);
    expectWrittenTextNotResent(outcome);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(80_000);
    for (const body of outcome.commands.flatMap((command) => command.bodies)) {
      const reply = Number(body.max_tokens ?? body.max_completion_tokens ?? 0);
      expect(reply).toBeLessThanOrEqual(5_000);
    }
    for (const source of SOURCES) {
      const shown = linesShown(outcome, source);
      expect(shown.size, `${source}: lines shown`).toBe(await lineCount(source));
    }
  }, 300_000);

  it('with a window so small that windows must give way ("contextTokens": 13000, the smallest accepted), the run still completes within it and reads every source whole', async () => {
    const outcome = await replayPlayedRun({ contextTokens: 13_000 });
    expectCompleted(outcome);
    const sizes = outcome.commands.flatMap((command) => command.bodies.map((body) => Buffer.byteLength(JSON.stringify(body))));
    expect(Math.max(...sizes)).toBeLessThanOrEqual(52_000);
    // A window the model has written from gives way to a stub that says how to read it again.
    expect(JSON.stringify(outcome.commands.map((command) => command.bodies))).toMatch(/\[trimmed: result of read_file\(raw\/[a-z-]+\.md, offset=\d+\), [\d,]+ chars \(lines \d+-\d+\), already used — call again to see it\]/);
    for (const source of SOURCES) expect(linesShown(outcome, source).size).toBe(await lineCount(source));
  }, 300_000);
});

describe('contextTokens in wiki.config.json', () => {
  it('is shown by `wiki config` with its default for the provider in use, and validated when set', async () => {
    const root = (await replayPlayedRun({ commands: 0, keep: true })).root;
    const entry = async (env: Record<string, string>): Promise<{ value: unknown; source: string }> => {
      const result = await runCli(['config', 'get', 'contextTokens', '--json'], { cwd: root, env });
      expect(result.code, result.stderr).toBe(0);
      return JSON.parse(result.stdout) as { value: unknown; source: string };
    };
    expect(await entry({ ANTHROPIC_API_KEY: 'k' })).toMatchObject({ value: 200_000, source: 'default for anthropic' });
    expect(await entry({ OPENAI_API_KEY: 'k' })).toMatchObject({ value: 128_000, source: 'default for openai' });
    expect(await entry({ OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' })).toMatchObject({ value: 24_000, source: 'default for an OpenAI-compatible server' });
    expect((await runCli(['config', 'set', 'contextTokens', '20000'], { cwd: root })).code).toBe(0);
    expect(await entry({ ANTHROPIC_API_KEY: 'k' })).toMatchObject({ value: 20_000 });
    const tooSmall = await runCli(['config', 'set', 'contextTokens', '500'], { cwd: root });
    expect(tooSmall.code).toBe(2);
    expect(tooSmall.stderr).toMatch(/contextTokens/);
    await rm(root, { recursive: true, force: true });
  });
});
