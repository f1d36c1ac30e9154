import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Test files that need a fresh module graph of their own: the CLI tests (they start servers,
 * signal children and read the process's environment), those that replace a module, a
 * method, the clock or an environment variable for their own run, and those on a Postgres
 * cluster (test/helpers/postgres.ts starts one when the module loads and stops it after the
 * file: a module kept across files would hand the next file a stopped cluster).
 */
const ISOLATED = [
  'test/cli/**/*.test.ts',
  'test/store/**/*.test.ts',
  'test/mcp/postgres-store.test.ts',
  'test/mcp/postgres-pages.test.ts',
  'test/mcp/postgres-live-pages.test.ts',
  'test/serve/postgres-serve.test.ts',
  'test/git/auto-commit.test.ts',
  'test/operations/inspect/search.test.ts',
  'test/operations/lint/lint-reads.test.ts',
  'test/operations/run/session-delete.test.ts',
  'test/progress/reporter.test.ts',
  'test/search/live/live-index.test.ts',
];

const EVERY_FILE = {
  // Generous on purpose: a shared, loaded machine may run a CLI test ten times slower than a
  // laptop; a test fails on what it checks, never on how long the machine took.
  testTimeout: 300_000,
  hookTimeout: 300_000,
  pool: 'forks',
} as const;

export default defineConfig({
  test: {
    globalSetup: ['test/global-setup.ts'],
    // Vitest's default is one worker fewer than the cores: one on a 2-core machine, idle while
    // the CLI process it spawned runs. One worker per core keeps both busy.
    maxWorkers: Math.max(2, availableParallelism()),
    projects: [
      // The rest are functions over temp folders: one module graph per worker, not one per
      // file (loading it again cost about a quarter of a second of CPU a file).
      { test: { ...EVERY_FILE, name: 'shared', include: ['test/**/*.test.ts'], exclude: ISOLATED, isolate: false } },
      { test: { ...EVERY_FILE, name: 'isolated', include: ISOLATED } },
    ],
  },
});
