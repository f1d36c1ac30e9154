import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { initWorkspace, runCli } from '../helpers/cli.js';
import { describeWithPostgres, freshDatabase } from '../helpers/postgres.js';
import { SCHEMA_VERSION } from '../../src/store/postgres/schema.js';

const PAGE = `---
title: Alpha particles
summary: Helium nuclei emitted in radioactive decay
---
Alpha particles are helium nuclei, stopped by a sheet of paper.
`;

async function postgresWorkspace(): Promise<string> {
  const root = await initWorkspace();
  await writeFile(path.join(root, 'wiki', 'alpha.md'), PAGE);
  const set = await runCli(['config', 'set', 'store.kind', 'postgres'], { cwd: root });
  expect(set.code).toBe(0);
  return root;
}

describe('wiki config: the store keys', () => {
  it('wiki store on a wiki whose index is in files says how to choose Postgres (exit 2)', async () => {
    const result = await runCli(['store', 'init'], { cwd: await initWorkspace() });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/store\.kind is files/);
  });

  it('knows store.kind (files by default) and store.url', async () => {
    const root = await initWorkspace();
    const kind = await runCli(['config', 'get', 'store.kind'], { cwd: root });
    expect(kind.code).toBe(0);
    expect(kind.stdout.trim()).toMatch(/^"files" +\(default\)$/);
    const url = await runCli(['config', 'set', 'store.url', 'postgres://wiki@db.example:5432/wiki'], { cwd: root });
    expect(url.code).toBe(0);
  });

  it('refuses a database URL with a password in the committed file, and leaves the file unchanged', async () => {
    const root = await initWorkspace();
    const before = await readFile(path.join(root, 'wiki.config.json'), 'utf8');
    const result = await runCli(['config', 'set', 'store.url', 'postgres://wiki:hunter2@db.example/wiki'], { cwd: root });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/without a password/);
    expect(result.stderr).not.toContain('hunter2');
    expect(await readFile(path.join(root, 'wiki.config.json'), 'utf8')).toBe(before);
  });
});

describeWithPostgres('wiki store and search on Postgres', () => {
  it('init, sync, then search and status answer from the database', async () => {
    const root = await postgresWorkspace();
    const env = { WIKI_DATABASE_URL: await freshDatabase() };
    const before = await runCli(['search', 'alpha'], { cwd: root, env });
    expect(before.code).toBe(2);
    expect(before.stderr).toMatch(/has no wiki schema — run `wiki store init`/);
    const init = await runCli(['store', 'init'], { cwd: root, env });
    expect(init.code).toBe(0);
    expect(init.stdout).toMatch(new RegExp(`created: wiki schema version ${SCHEMA_VERSION} in postgres://postgres@localhost/wiki_test_\\S+\nvectors: arrays \\(no pgvector on this server\\)\n`));
    const sync = await runCli(['store', 'sync', '--json'], { cwd: root, env });
    expect(sync.code).toBe(0);
    expect(JSON.parse(sync.stdout)).toMatchObject({ pages: 1, offered: 1, accepted: 1, store: { pages: 1 } });
    const again = await runCli(['store', 'sync', '--json'], { cwd: root, env });
    expect(JSON.parse(again.stdout)).toMatchObject({ pages: 1, offered: 0, accepted: 0 });
    const search = await runCli(['search', 'helium nuclei', '--json'], { cwd: root, env });
    expect(search.code).toBe(0);
    expect(JSON.parse(search.stdout).results[0]).toMatchObject({ key: 'alpha', title: 'Alpha particles' });
    const status = await runCli(['status'], { cwd: root, env });
    expect(status.stdout).toMatch(/^Search: +in Postgres postgres:\/\/postgres@localhost\/wiki_test_\S+ \(schema \d+\): 1 page\(s\), last write \S+; engine kept up to date; vectors: arrays \(no pgvector on this server\)$/m);
  });

  it('a schema of another version is refused by name, and `wiki store init --rebuild` is the migration', async () => {
    const root = await postgresWorkspace();
    const env = { WIKI_DATABASE_URL: await freshDatabase() };
    expect((await runCli(['store', 'init'], { cwd: root, env })).code).toBe(0);
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: env.WIKI_DATABASE_URL });
    await client.connect();
    await client.query('UPDATE wiki_schema SET version = 0');
    await client.end();
    const refused = await runCli(['search', 'alpha'], { cwd: root, env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(new RegExp(`has wiki schema version 0, this wiki needs ${SCHEMA_VERSION} — .*wiki store init --rebuild`));
    expect((await runCli(['store', 'init', '--rebuild'], { cwd: root, env })).code).toBe(0);
    expect((await runCli(['store', 'sync'], { cwd: root, env })).code).toBe(0);
    const found = await runCli(['search', 'helium', '--json'], { cwd: root, env });
    expect(JSON.parse(found.stdout).results[0]?.key).toBe('alpha');
  });

  it('an unreachable database is exit 2 naming it, for search and status alike, and no file index is made', async () => {
    const root = await postgresWorkspace();
    const env = { WIKI_DATABASE_URL: 'postgres://wiki:hunter2@127.0.0.1:1/teamwiki' };
    for (const args of [['search', 'alpha'], ['status'], ['store', 'sync']]) {
      const result = await runCli(args, { cwd: root, env });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^error: database postgres:\/\/wiki@127\.0\.0\.1:1\/teamwiki unreachable/m);
      expect(result.stderr).not.toContain('hunter2');
    }
    await expect(readFile(path.join(root, '.wiki', 'search', 'index.bin'))).rejects.toThrow();
  });
});
