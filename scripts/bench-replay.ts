import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { AnthropicCacheSimulator } from '../test/helpers/anthropic-cache.js';
import { PLAYED_RUN, PLAYED_RUN_3, PLAYED_RUN_4, PLAYED_RUN_5, PLAYED_RUN_6, PLAYED_RUN_7, PLAYED_RUN_15, PLAYED_RUN_AFTER, replayPlayedRun, type ReplayOutcome } from './measure/replay-run.js';
import type { ReplayFigures } from './measure/replay.js';

/**
 * Hand-played model runs replayed through the built CLI: test/fixtures/played-run (with
 * default settings, then with `"contextTokens": 20000` throughout) and
 * test/fixtures/played-run-after (its recorded settings: contextTokens 20000 from its second
 * command), and test/fixtures/played-run-3 and played-run-4 (default settings, then
 * contextTokens 20000). What the requests weigh, how much of them a prompt cache would serve, and whether
 * the commands run under contextTokens complete with every request inside it.
 * `node dist/scripts/bench-replay.js [--cli path/to/other/wiki.js] [--per-request]` measures
 * another build (e.g. an older commit's) on the same recording, and lists every request.
 */

const BOUNDED_TOKENS = 20_000;
/** The CLI's own estimate: about 4 bytes a token of JSON. */
const BYTES_PER_TOKEN = 4;

function describe(label: string, outcome: ReplayOutcome): void {
  const statuses = outcome.commands.map((c) => `${c.recording} exit ${c.code}${c.addedReads > 0 ? ` (+${c.addedReads} reads)` : ''}`).join(', ');
  console.log(`  ${label.padEnd(22)} ${figuresLine(outcome.figures)}   [${statuses}]`);
  for (const refused of outcome.commands.flatMap((c) => c.settings.filter((s) => !s.applied))) {
    console.log(`  ${''.padEnd(22)} (this build refused "config set ${refused.key} ${refused.value}": ${refused.refusal ?? 'no message'}; ran on its defaults)`);
  }
}

function figuresLine(f: ReplayFigures): string {
  return (
    `${String(f.requests).padStart(3)} requests  total ${kb(f.totalBytes)}  largest ${kb(f.largestBytes)}  ` +
    `cache-hit ${f.cacheHitRatio.toFixed(3)} (ceiling ${f.cacheCeilingRatio?.toFixed(3) ?? 'n/a'}; after each command's first request ${f.laterTurnsHitRatio.toFixed(3)})  cache-weighted input ${kb(f.cacheWeightedBytes)}`
  );
}

/** Requests over the budget, counted in the commands that ran under a contextTokens setting. */
function withinBudget(outcome: ReplayOutcome): string {
  const bounded = outcome.commands.filter((c) => c.contextTokens !== undefined);
  if (bounded.length === 0) return '  no command ran under a contextTokens setting';
  const over = bounded.reduce((sum, c) => sum + c.bodies.filter((body) => Buffer.byteLength(JSON.stringify(body)) > (c.contextTokens ?? 0) * BYTES_PER_TOKEN).length, 0);
  const limits = [...new Set(bounded.map((c) => c.contextTokens))].map((tokens) => `${tokens} (${kb((tokens ?? 0) * BYTES_PER_TOKEN).trim()})`).join(', ');
  const largest = Math.max(...bounded.flatMap((c) => c.bodies.map((body) => Buffer.byteLength(JSON.stringify(body)))));
  return `  under contextTokens ${limits} [${bounded.map((c) => c.recording).join(', ')}]: largest ${kb(largest).trim()}, ${over} request(s) over it; every command exited 0: ${outcome.commands.every((c) => c.code === 0)}`;
}

async function printBaseline(fixture: string): Promise<ReplayFigures | undefined> {
  const baseline = await readFile(path.join(fixture, 'baseline.json'), 'utf8').then(
    (text) => JSON.parse(text) as ReplayFigures & { measuredWith: string },
    () => undefined,
  );
  if (baseline) console.log(`  before (${baseline.measuredWith}):\n  ${''.padEnd(22)} ${figuresLine(baseline)}`);
  return baseline;
}

function perRequest(outcome: ReplayOutcome): void {
  const cache = new AnthropicCacheSimulator();
  for (const command of outcome.commands) {
    console.log(`    ${command.recording}`);
    command.bodies.forEach((body, index) => {
      const turn = cache.request(body);
      console.log(`      request ${index + 1}: ${kb(turn.inputBytes)} in, ${kb(turn.cachedBytes)} read from cache, ${kb(turn.writtenBytes)} written to it`);
    });
  }
}

function kb(bytes: number): string {
  return `${(bytes / 1000).toFixed(1)} KB`.padStart(9);
}

export async function runReplayBench(options: { cli?: string; perRequest?: boolean } = {}): Promise<void> {
  console.log('replay of the played runs (Anthropic wire; sizes are request-body bytes; cache simulated)');
  console.log('test/fixtures/played-run (3 ingests and a saved query, recorded with main at 10c4c62):');
  const baseline = await printBaseline(PLAYED_RUN);
  const plain = await replayPlayedRun({ cli: options.cli });
  describe('default settings', plain);
  if (baseline) console.log(`  cache-weighted input ×${(plain.figures.cacheWeightedBytes / baseline.cacheWeightedBytes).toFixed(2)} of before (target ≤ 0.70)`);
  if (options.perRequest) perRequest(plain);
  const bounded = await replayPlayedRun({ cli: options.cli, contextTokens: BOUNDED_TOKENS });
  describe(`contextTokens ${BOUNDED_TOKENS}`, bounded);
  if (options.perRequest) perRequest(bounded);
  console.log(withinBudget(bounded));
  console.log(`test/fixtures/played-run-after (2 ingests and a saved query, contextTokens ${BOUNDED_TOKENS} from the second ingest on):`);
  const afterBaseline = await printBaseline(PLAYED_RUN_AFTER);
  const after = await replayPlayedRun({ cli: options.cli, fixture: PLAYED_RUN_AFTER });
  describe('recorded settings', after);
  if (afterBaseline) console.log(`  cache-weighted input ×${(after.figures.cacheWeightedBytes / afterBaseline.cacheWeightedBytes).toFixed(2)} of before`);
  if (options.perRequest) perRequest(after);
  console.log(withinBudget(after));
  for (const [fixture, recorded] of [
    [PLAYED_RUN_3, 'main at c6fb73e'],
    [PLAYED_RUN_4, 'a build of 9028914'],
    [PLAYED_RUN_5, 'a build of 73850a5'],
    [PLAYED_RUN_6, 'a build of 73850a5'],
    [PLAYED_RUN_7, 'main at cd70e10'],
    [PLAYED_RUN_15, 'main at 5d992e8'],
  ] as const) {
    const extra = fixture === PLAYED_RUN_15 ? ' and a read-only lint review' : '';
    console.log(`test/fixtures/${path.basename(fixture)} (3 ingests and a saved query${extra}, recorded with ${recorded}, default settings):`);
    const plainRun = await replayPlayedRun({ cli: options.cli, fixture });
    describe('default settings', plainRun);
    if (options.perRequest) perRequest(plainRun);
    const boundedRun = await replayPlayedRun({ cli: options.cli, fixture, contextTokens: BOUNDED_TOKENS });
    describe(`contextTokens ${BOUNDED_TOKENS}`, boundedRun);
    if (options.perRequest) perRequest(boundedRun);
    console.log(withinBudget(boundedRun));
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const at = process.argv.indexOf('--cli');
  await runReplayBench({ cli: at >= 0 ? process.argv[at + 1] : undefined, perRequest: process.argv.includes('--per-request') });
}
