/**
 * `npm run bench`: the performance figures the project reports, each beside a baseline
 * measured in the same run. `--only validator|access|lint-facts|ingest|loop|replay|search|serve|store|store-facts|vectors` runs one part;
 * `--sizes 1000,10000` limits the search wiki sizes (default 1k, 10k, 50k; `serve`, `store` and `vectors`: 10k).
 * `store` needs WIKI_DATABASE_URL (a database whose wiki_* tables it may drop); without it, it says so.
 */
import { pathToFileURL } from 'node:url';
import { runAccessBench, runLintFactsBench } from './bench-access-facts.js';
import { runSearchBench } from './bench-search.js';
import { runServeBench } from './bench-serve.js';
import { runStoreBench } from './bench-store.js';
import { runStoreFactsBench } from './bench-store-facts.js';
import { runVectorsBench } from './bench-vectors.js';
import { runJobsBench } from './bench-jobs.js';
import { runLoopBench } from './bench-loop.js';
import { runReplayBench } from './bench-replay.js';
import { runValidatorBench } from './bench-validator.js';

const PARTS = ['validator', 'access', 'lint-facts', 'ingest', 'loop', 'replay', 'search', 'serve', 'store', 'store-facts', 'vectors'] as const;

async function main(argv: string[]): Promise<void> {
  const only = valueOf(argv, '--only');
  const sizes = valueOf(argv, '--sizes')
    ?.split(',')
    .map((s) => Number(s.trim()))
    .filter((n) => Number.isInteger(n) && n > 0);
  if (only !== undefined && !(PARTS as readonly string[]).includes(only)) {
    throw new Error(`--only takes ${PARTS.join(', ')}, not ${only}`);
  }
  const runs = (part: (typeof PARTS)[number]): boolean => only === undefined || only === part;
  if (runs('validator')) {
    console.log('# Validator\n');
    await runValidatorBench();
    console.log('');
  }
  if (runs('access')) {
    console.log('# Who sees what: search filtering\n');
    await runAccessBench();
    console.log('');
  }
  if (runs('lint-facts')) {
    console.log('# Lint with facts (grounding)\n');
    await runLintFactsBench();
    console.log('');
  }
  if (runs('ingest')) {
    console.log('# Ingest --jobs\n');
    await runJobsBench();
    console.log('');
  }
  if (runs('loop')) {
    console.log('# Agent loop overhead\n');
    await runLoopBench();
    console.log('');
  }
  if (runs('replay')) {
    console.log('# A played run, replayed: request bytes and prompt cache\n');
    await runReplayBench();
    console.log('');
  }
  if (runs('search')) {
    console.log('# Search\n');
    await runSearchBench(sizes && sizes.length > 0 ? sizes : undefined);
    console.log('');
  }
  if (runs('serve')) {
    console.log('# wiki serve: warm search over HTTP\n');
    await runServeBench(sizes && sizes.length > 0 ? sizes : undefined);
    console.log('');
  }
  if (runs('store')) {
    console.log('# Search in Postgres: one database, many replicas\n');
    await runStoreBench(sizes && sizes.length > 0 ? sizes : undefined);
  }
  if (runs('store-facts')) {
    console.log('\n# Facts in Postgres against .wiki/facts.db\n');
    await runStoreFactsBench();
  }
  if (runs('vectors')) {
    console.log('# Search in Postgres: where the vectors are ranked\n');
    await runVectorsBench(sizes && sizes.length > 0 ? sizes : undefined);
  }
}

function valueOf(argv: string[], flag: string): string | undefined {
  const i = argv.indexOf(flag);
  return i >= 0 ? argv[i + 1] : undefined;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
