import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { Session as InspectorSession } from 'node:inspector/promises';
import { runAgent } from '../src/agent/loop.js';
import type { ChatModel, ChatRequest, ChatResponse, ToolCall } from '../src/agent/types.js';
import { loadSettings } from '../src/config/settings.js';
import { runModelInSession } from '../src/operations/run/agent-run.js';
import { initWorkspace } from '../src/operations/workspace/init.js';
import { Session } from '../src/operations/run/session.js';
import { syntheticWiki, writeSyntheticWiki } from './measure/synthetic.js';

/**
 * Agent-loop overhead per turn, model time excluded: an ingest-like run against a wiki of
 * 1k and 10k pages (search_wiki, read_file, write_file of a new linked page, append_to_file,
 * a rewrite of the source page, one call a turn), through the real session, tools,
 * validation, history and transcript; beside it, in the same process, the same number of
 * turns of a loop with no tools. The model answers in-process at once, and the time
 * spent inside it is subtracted.
 */

const TURNS = 60;
const RUNS = 5;

const ZERO = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };

/** An in-process model replaying `reply(turn)`; counts the time spent in it. */
class InstantModel implements ChatModel {
  readonly provider = 'scripted' as const;
  readonly model = 'instant';
  modelMs = 0;
  private turn = 0;
  constructor(private readonly reply: (turn: number) => Pick<ChatResponse, 'text' | 'toolCalls' | 'stopReason'>) {}
  async complete(_request: ChatRequest): Promise<ChatResponse> {
    const started = performance.now();
    const response = { ...this.reply(this.turn++), usage: ZERO, model: this.model };
    this.modelMs += performance.now() - started;
    return response;
  }
}

function call(id: number, name: string, args: Record<string, unknown>): ToolCall {
  return { id: `call_${id}`, name, arguments: args, rawArguments: JSON.stringify(args) };
}

function pageText(title: string, links: string[], body: string): string {
  return ['---', `title: ${title}`, `summary: ${title} as the bench source describes it.`, `refs: [${links.join(', ')}]`, 'sources: [raw/bench-source.md]', 'created: 2026-01-01', 'updated: 2026-01-01', '---', '', body, ''].join('\n');
}

/** The ingest-like turn `turn` (one tool call), cycling through the five tools. */
function ingestTurn(turn: number, keys: string[], paths: string[]): ToolCall[] {
  const pick = (i: number): string => keys[(turn * 7919 + i * 104_729) % keys.length] ?? 'missing';
  const links = [pick(1), pick(2), pick(3)];
  switch (turn % 5) {
    case 0:
      return [call(turn, 'search_wiki', { query: `${pick(4).split('-')[0] ?? ''} ${pick(5).split('-')[1] ?? ''}` })];
    case 1:
      return [call(turn, 'read_file', { path: paths[(turn * 31) % paths.length] ?? 'schema.md' })];
    case 2:
      return [call(turn, 'write_file', { path: `wiki/concepts/bench-note-${turn}.md`, content: pageText(`Bench note ${turn}`, links, `Drawn from the source, see [[${links[0]}]] and [[${links[1]}]].`) })];
    case 3:
      return [call(turn, 'append_to_file', { path: `wiki/concepts/bench-note-${turn - 1}.md`, content: `\n## More\n\nAlso [[${links[2]}]].` })];
    default:
      return [call(turn, 'write_file', { path: 'wiki/sources/bench-source.md', content: pageText('Bench source', links, `Notes up to turn ${turn}: [[${links[0]}]].`) })];
  }
}

export interface LoopBenchRow {
  pages: number;
  toolsMsPerTurn: number;
  /** Process CPU time (all threads) per turn: steadier than wall time on a busy machine. */
  toolsCpuMsPerTurn: number;
  noToolsMsPerTurn: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/**
 * BENCH_LOOP_PROFILE=dir: a CPU profile of the timed loops only (setup and index builds
 * left out), one .cpuprofile per wiki size, for finding the loop's hot spots.
 */
const PROFILE_DIR = process.env.BENCH_LOOP_PROFILE;

async function measure(pages: number): Promise<LoopBenchRow> {
  const profiler = PROFILE_DIR ? new InspectorSession() : undefined;
  profiler?.connect();
  if (profiler) await profiler.post('Profiler.enable');
  const profiles: object[] = [];
  const root = await mkdtemp(path.join(os.tmpdir(), `wiki-loop-bench-${pages}-`));
  try {
    await initWorkspace(root);
    const wiki = syntheticWiki(pages);
    await writeSyntheticWiki(root, wiki);
    await writeFile(path.join(root, 'raw/bench-source.md'), `# Bench source\n\n${'A line of the source.\n'.repeat(200)}`);
    const settings = await loadSettings(root, { env: {} });
    const ws = { root, schema: settings.schema, config: settings.config };
    const keys = wiki.pages.map((p) => p.key);
    const paths = wiki.pages.map((p) => p.path);
    const budget = { maxTurns: TURNS + 1, maxOutputTokens: 1024 };

    const withTools: number[] = [];
    const noTools: number[] = [];
    const withToolsCpu: number[] = [];
    for (let run = 0; run < RUNS + 1; run++) {
      const session = await Session.open(ws, { op: 'ingest', title: 'bench', runId: `bench-${pages}-${run}`, dryRun: false, readOnly: false, env: {} });
      const model = new InstantModel((turn) => (turn < TURNS ? { text: '', toolCalls: ingestTurn(turn + run * TURNS, keys, paths), stopReason: 'tool_use' } : { text: 'done', toolCalls: [], stopReason: 'end' }));
      if (profiler && run > 0) await profiler.post('Profiler.start');
      const started = performance.now();
      const cpuStarted = process.cpuUsage();
      const result = await runModelInSession(session, { model, operation: 'ingest', userMessage: 'Ingest the source `raw/bench-source.md`.', budget });
      const elapsed = performance.now() - started - model.modelMs;
      const cpu = process.cpuUsage(cpuStarted);
      if (profiler && run > 0) profiles.push((await profiler.post('Profiler.stop')).profile);
      await session.finish('completed');
      if (result.status !== 'done') throw new Error(`bench run ended ${result.status}`);
      const rejected = result.rejectedWrites.length;
      if (rejected > 0) throw new Error(`bench writes were refused: ${JSON.stringify(result.rejectedWrites.slice(0, 2))}`);

      // The same number of turns, no tools: each reply is cut off and continued.
      const bare = new InstantModel((turn) => (turn < TURNS ? { text: 'part', toolCalls: [], stopReason: 'max_tokens' } : { text: 'done', toolCalls: [], stopReason: 'end' }));
      const bareStarted = performance.now();
      await runAgent({ model: bare, system: 'bench', userMessage: 'bench', tools: [], maxTurns: TURNS + 1, maxOutputTokens: 1024 });
      const bareElapsed = performance.now() - bareStarted - bare.modelMs;
      if (run === 0) continue; // warm-up: JIT, first search index load
      withTools.push(elapsed / (TURNS + 1));
      withToolsCpu.push((cpu.user + cpu.system) / 1000 / (TURNS + 1));
      noTools.push(bareElapsed / (TURNS + 1));
    }
    if (PROFILE_DIR) {
      for (const [i, profile] of profiles.entries()) await writeFile(path.join(PROFILE_DIR, `loop-${pages}-${i}.cpuprofile`), JSON.stringify(profile));
    }
    profiler?.disconnect();
    return { pages, toolsMsPerTurn: median(withTools), toolsCpuMsPerTurn: median(withToolsCpu), noToolsMsPerTurn: median(noTools) };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

export async function runLoopBench(sizes: number[] = [1000, 10_000]): Promise<LoopBenchRow[]> {
  const rows: LoopBenchRow[] = [];
  console.log(`loop bench: ${TURNS} turns a run (one tool call each), median of ${RUNS} runs, model time excluded`);
  for (const pages of sizes) {
    const row = await measure(pages);
    rows.push(row);
    const target = pages <= 1000 ? '≤ 5 ms' : '< 10 ms';
    console.log(`  ${String(pages).padStart(6)} pages  with tools ${row.toolsMsPerTurn.toFixed(2)} ms/turn (cpu ${row.toolsCpuMsPerTurn.toFixed(2)})  no tools ${row.noToolsMsPerTurn.toFixed(3)} ms/turn  (target ${target})`);
  }
  return rows;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const sizes = process.argv[2]?.split(',').map(Number).filter((n) => n > 0);
  await runLoopBench(sizes && sizes.length > 0 ? sizes : undefined);
}
