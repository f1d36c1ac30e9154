import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { initWorkspace } from '../src/operations/workspace/init.js';
import { benchHybrid, benchMiniSearch, type BenchResult } from './measure/bench-run.js';
import { syntheticWiki, writeSyntheticWiki } from './measure/synthetic.js';
import { timedNode } from './measure/timed-node.js';
import { packageRoot } from '../src/util/package-root.js';

/**
 * Search benchmark (`npm run bench`): deterministic synthetic wikis of 1k, 10k and 50k
 * pages; for each, the hybrid index and raw lexical-only MiniSearch, each in its own
 * process: full build, load of the persisted index, query p50/p95, one-page update, peak
 * memory. Then `wiki search` as a fresh process on each wiki with a persisted index.
 * Wall times depend on the machine; a calibration loop is printed so they can be scaled.
 */
const SELF = fileURLToPath(import.meta.url);
const FRESH_RUNS = 7;

async function measureInChild(system: string, root: string, queriesFile: string): Promise<BenchResult> {
  const result = await timedNode([SELF, '--child', system, root, queriesFile]);
  if (result.code !== 0) throw new Error(`${system} benchmark failed: ${result.stderr.trim()}`);
  return JSON.parse(result.stdout) as BenchResult;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** Milliseconds for a fixed loop of 10⁸ additions: a rough speed of this machine. */
function calibration(): number {
  const started = performance.now();
  let sum = 0;
  for (let i = 0; i < 1e8; i++) sum += i;
  if (sum < 0) console.log(sum);
  return performance.now() - started;
}

const ms = (value: number): string => `${value >= 100 ? value.toFixed(0) : value.toFixed(1)} ms`;
const timing = (t: { wallMs: number; cpuMs: number }): string => `${ms(t.wallMs)} (cpu ${ms(t.cpuMs)})`;

function report(results: BenchResult[]): void {
  const rows: Array<[string, (r: BenchResult) => string]> = [
    ['full build', (r) => timing(r.build)],
    ['save', (r) => timing(r.save)],
    ['load persisted', (r) => timing(r.load)],
    ['query p50', (r) => ms(r.queryP50Ms)],
    ['query p95', (r) => ms(r.queryP95Ms)],
    ['one-page update p50', (r) => ms(r.updateP50Ms)],
    ['one-page update max', (r) => ms(r.updateMaxMs)],
    ['rescan, no change', (r) => (r.rescanMs === undefined ? '—' : ms(r.rescanMs))],
    ['index on disk', (r) => `${(r.indexBytes / 1e6).toFixed(1)} MB`],
    ['peak memory (RSS)', (r) => `${r.peakRssMb.toFixed(0)} MB`],
  ];
  const [hybrid, raw] = results;
  if (!hybrid || !raw) return;
  console.log(`\n${hybrid.pages} pages            hybrid (3 lanes)                raw MiniSearch (lexical only)`);
  for (const [label, value] of rows) console.log(`  ${label.padEnd(22)}${value(hybrid).padEnd(32)}${value(raw)}`);
}

export async function runSearchBench(sizes = [1000, 10000, 50000]): Promise<void> {
  console.log(`calibration: 10^8 additions in ${calibration().toFixed(0)} ms (node ${process.version}, ${os.cpus().length} cpus)`);
  const cli = path.join(packageRoot(), 'dist', 'bundle', 'wiki.js');
  for (const size of sizes) {
    const dir = await mkdtemp(path.join(os.tmpdir(), `wiki-bench-${size}-`));
    const root = path.join(dir, 'wiki');
    try {
      const wiki = syntheticWiki(size);
      await initWorkspace(root);
      await writeSyntheticWiki(root, wiki);
      const queriesFile = path.join(dir, 'queries.json');
      await writeFile(queriesFile, JSON.stringify(wiki.queries));
      // Let every file's mtime age past the window in which an unchanged stat is doubted.
      await new Promise((resolve) => setTimeout(resolve, 2500));
      const results = [await measureInChild('hybrid', root, queriesFile), await measureInChild('minisearch', root, queriesFile)];
      report(results);
      const bare = [];
      const floor = [];
      const search = [];
      for (let i = 0; i < FRESH_RUNS; i++) {
        bare.push((await timedNode(['-e', ''])).ms);
        floor.push((await timedNode([cli, '--version'])).ms);
        const run = await timedNode([cli, '--root', root, 'search', wiki.queries[i] ?? 'query', '--json']);
        if (run.code !== 0) throw new Error(`wiki search failed: ${run.stderr.trim()}`);
        search.push(run.ms);
      }
      console.log(`  wiki search, fresh process (median of ${FRESH_RUNS}): ${ms(median(search))}; \`wiki --version\` alone: ${ms(median(floor))}; bare \`node -e ''\`: ${ms(median(bare))}`);
      console.log(`  wiki search above a bare node: ${ms(median(search) - median(bare))} (${(median(search) / median(bare)).toFixed(2)}× its time)`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
}

async function child(system: string, root: string, queriesFile: string): Promise<void> {
  const queries = JSON.parse(await readFile(queriesFile, 'utf8')) as string[];
  const result = system === 'hybrid' ? await benchHybrid(root, queries) : await benchMiniSearch(root, queries);
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const [flag, system, root, queriesFile] = process.argv.slice(2);
  const run =
    flag === '--child' && system && root && queriesFile
      ? child(system, root, queriesFile)
      : runSearchBench(process.argv.slice(2).map(Number).filter((n) => n > 0).length ? process.argv.slice(2).map(Number).filter((n) => n > 0) : undefined);
  run.catch((error: unknown) => {
    console.error(`bench: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  });
}
