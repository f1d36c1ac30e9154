import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { AnthropicCacheSimulator } from '../test/helpers/anthropic-cache.js';
import { PLAYED_RUN, replayPlayedRun, type ReplayOutcome } from './measure/replay-run.js';
import type { ReplayFigures } from './measure/replay.js';

/**
 * A hand-played model run (test/fixtures/played-run) replayed through the built CLI: what
 * the requests weigh, how much of them a prompt cache would serve, and whether a run kept
 * within `"contextTokens": 20000` completes with every request inside it.
 * `node dist/scripts/bench-replay.js [--cli path/to/other/wiki.js] [--per-request]` measures
 * another build (e.g. an older commit's) on the same recording, and lists every request.
 */

const BOUNDED_TOKENS = 20_000;
/** The CLI's own estimate: about 4 bytes a token of JSON. */
const BYTES_PER_TOKEN = 4;

function describe(label: string, outcome: ReplayOutcome): void {
  const f = outcome.figures;
  const statuses = outcome.commands.map((c) => `${c.recording} exit ${c.code}${c.addedReads > 0 ? ` (+${c.addedReads} reads)` : ''}`).join(', ');
  console.log(
    `  ${label.padEnd(22)} ${String(f.requests).padStart(3)} requests  total ${kb(f.totalBytes)}  largest ${kb(f.largestBytes)}  ` +
      `cache-hit ${f.cacheHitRatio.toFixed(3)} (after each command's first request ${f.laterTurnsHitRatio.toFixed(3)})  cache-weighted input ${kb(f.cacheWeightedBytes)}   [${statuses}]`,
  );
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
  console.log('replay of the played run (Anthropic wire; sizes are request-body bytes; cache simulated)');
  const baseline = JSON.parse(await readFile(path.join(PLAYED_RUN, 'baseline.json'), 'utf8')) as ReplayFigures & { measuredWith: string };
  console.log(
    `  before (${baseline.measuredWith}):\n  ${''.padEnd(22)} ${String(baseline.requests).padStart(3)} requests  total ${kb(baseline.totalBytes)}  largest ${kb(baseline.largestBytes)}  ` +
      `cache-hit ${baseline.cacheHitRatio.toFixed(3)} (after each command's first request ${baseline.laterTurnsHitRatio.toFixed(3)})  cache-weighted input ${kb(baseline.cacheWeightedBytes)}`,
  );
  const plain = await replayPlayedRun({ cli: options.cli });
  describe('default settings', plain);
  console.log(`  cache-weighted input ×${(plain.figures.cacheWeightedBytes / baseline.cacheWeightedBytes).toFixed(2)} of before (target ≤ 0.70)`);
  if (options.perRequest) perRequest(plain);
  const bounded = await replayPlayedRun({ cli: options.cli, contextTokens: BOUNDED_TOKENS });
  describe(`contextTokens ${BOUNDED_TOKENS}`, bounded);
  if (options.perRequest) perRequest(bounded);
  const limit = BOUNDED_TOKENS * BYTES_PER_TOKEN;
  const over = bounded.commands.flatMap((c) => c.bodies).filter((body) => Buffer.byteLength(JSON.stringify(body)) > limit).length;
  console.log(`  with contextTokens ${BOUNDED_TOKENS}: ${over} request(s) over ${kb(limit).trim()}; every command exited 0: ${bounded.commands.every((c) => c.code === 0)}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const at = process.argv.indexOf('--cli');
  await runReplayBench({ cli: at >= 0 ? process.argv[at + 1] : undefined, perRequest: process.argv.includes('--per-request') });
}
