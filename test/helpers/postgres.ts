import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe } from 'vitest';

/**
 * A Postgres server for the tests of the database store. WIKI_PG_URL names one to use (a
 * superuser's URL: each test file makes its own database); otherwise one is started in a
 * temporary folder from the machine's `initdb` and `pg_ctl` (as the `postgres` user when
 * the tests run as root, which Postgres refuses to run as), on a Unix socket only, and
 * stopped after the file. Where neither is possible the tests are skipped with the reason;
 * CI sets WIKI_REQUIRE_POSTGRES=1 (in .ci/run), where that is a failure instead.
 */
const required = process.env.WIKI_REQUIRE_POSTGRES === '1';

interface Server {
  adminUrl: string;
  stop: () => void;
}

function binDir(): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) if (dir && existsSync(path.join(dir, 'initdb')) && existsSync(path.join(dir, 'pg_ctl'))) return dir;
  const versions = existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql').sort().reverse() : [];
  for (const version of versions) if (existsSync(`/usr/lib/postgresql/${version}/bin/initdb`)) return `/usr/lib/postgresql/${version}/bin`;
  return undefined;
}

function startServer(): Server | string {
  if (process.env.WIKI_PG_URL) return { adminUrl: process.env.WIKI_PG_URL, stop: () => undefined };
  const bin = binDir();
  if (!bin) return 'no initdb/pg_ctl on this machine (install Debian’s postgresql, or set WIKI_PG_URL)';
  const dir = mkdtempSync(path.join(os.tmpdir(), 'wiki-pg-'));
  const asRoot = process.getuid?.() === 0;
  const run = (command: string): void => {
    if (asRoot) execFileSync('su', ['postgres', '-s', '/bin/sh', '-c', command], { stdio: 'pipe' });
    else execFileSync('/bin/sh', ['-c', command], { stdio: 'pipe' });
  };
  const port = 20000 + Math.floor(Math.random() * 20000);
  try {
    if (asRoot) chownSync(dir, Number(execFileSync('id', ['-u', 'postgres']).toString().trim()), Number(execFileSync('id', ['-g', 'postgres']).toString().trim()));
    run(`'${bin}/initdb' -D '${dir}/data' -A trust -U postgres`);
    run(`'${bin}/pg_ctl' -D '${dir}/data' -o "-p ${port} -k '${dir}' -c listen_addresses=''" -l '${dir}/log' -w start`);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    return `could not start a Postgres server: ${(error as { stderr?: Buffer }).stderr?.toString().trim() || (error as Error).message}`;
  }
  return {
    adminUrl: `postgres://postgres@localhost/postgres?host=${encodeURIComponent(dir)}&port=${port}`,
    stop: () => {
      try {
        run(`'${bin}/pg_ctl' -D '${dir}/data' -m immediate -w stop`);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

const started = startServer();
export const postgresMissing: string | undefined = typeof started === 'string' ? started : undefined;
const server: Server | undefined = typeof started === 'string' ? undefined : started;
if (server) afterAll(() => server.stop());

/** `describe` for a suite that needs Postgres: skipped with its reason where none can be had (a failure under CI). */
export function describeWithPostgres(name: string, body: () => void): void {
  if (postgresMissing === undefined || required) {
    if (postgresMissing !== undefined) throw new Error(`Postgres is required here (WIKI_REQUIRE_POSTGRES=1): ${postgresMissing}`);
    describe(name, body);
    return;
  }
  console.warn(`skipped, Postgres unavailable: ${name}: ${postgresMissing}`);
  describe.skip(name, body);
}

/** A new empty database on the server; its URL. */
export async function freshDatabase(): Promise<string> {
  if (!server) throw new Error(`Postgres unavailable: ${postgresMissing}`);
  const { default: pg } = await import('pg');
  const name = `wiki_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: server.adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(server.adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A fresh database with this version's schema made (`wiki store init`), for tests that open indexes over it. */
export async function initialisedDatabase(): Promise<string> {
  const url = await freshDatabase();
  const { Database } = await import('../../src/store/postgres/connection.js');
  const { initSchema } = await import('../../src/store/postgres/schema.js');
  const db = await Database.connect({ store: { kind: 'postgres', url } }, {});
  try {
    await initSchema(db);
  } finally {
    await db.close();
  }
  return url;
}
