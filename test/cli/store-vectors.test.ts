import { expect, it } from 'vitest';
import { initWorkspace, runCli } from '../helpers/cli.js';
import { describeWithPostgres, freshDatabase } from '../helpers/postgres.js';

/** A workspace whose search is in Postgres, with `store.vectors` as given. */
async function postgresWorkspace(vectors?: string): Promise<string> {
  const root = await initWorkspace();
  expect((await runCli(['config', 'set', 'store.kind', 'postgres'], { cwd: root })).code).toBe(0);
  if (vectors) expect((await runCli(['config', 'set', 'store.vectors', vectors], { cwd: root })).code).toBe(0);
  return root;
}

describeWithPostgres('wiki store init and status: where the vectors are ranked', () => {
  it('store.vectors is auto by default and takes auto, pgvector or arrays only', async () => {
    const root = await initWorkspace();
    const shown = await runCli(['config', 'get', 'store.vectors'], { cwd: root });
    expect(shown.stdout.trim()).toMatch(/^"auto" +\(default\)$/);
    const wrong = await runCli(['config', 'set', 'store.vectors', 'faiss'], { cwd: root });
    expect(wrong.code).toBe(2);
  });

  it('on a server without pgvector, init and status say the vectors are arrays, --json too', async () => {
    const root = await postgresWorkspace();
    const env = { WIKI_DATABASE_URL: await freshDatabase() };
    const init = await runCli(['store', 'init', '--json'], { cwd: root, env });
    expect(init.code).toBe(0);
    expect(JSON.parse(init.stdout)).toMatchObject({ created: true, vectors: 'arrays (no pgvector on this server)' });
    const status = await runCli(['status', '--json'], { cwd: root, env });
    expect(JSON.parse(status.stdout).store).toMatchObject({ vectors: 'arrays (no pgvector on this server)' });
  });

  it('a configuration asking for pgvector on a server without it: exit 2 naming what to install, for init, sync, search and status alike', async () => {
    const root = await postgresWorkspace('pgvector');
    const env = { WIKI_DATABASE_URL: await freshDatabase() };
    const init = await runCli(['store', 'init'], { cwd: root, env });
    expect(init.code).toBe(2);
    expect(init.stderr).toMatch(/has no pgvector, and store\.vectors is pgvector — install it on the server \(Debian\/Ubuntu: `apt install postgresql-\d+-pgvector`/);
    expect(init.stderr).not.toMatch(/unexpected/i);
    // A schema made while the setting was auto keeps arrays; asking for pgvector afterwards is refused, not ignored.
    expect((await runCli(['config', 'set', 'store.vectors', 'auto'], { cwd: root })).code).toBe(0);
    expect((await runCli(['store', 'init'], { cwd: root, env })).code).toBe(0);
    expect((await runCli(['config', 'set', 'store.vectors', 'pgvector'], { cwd: root })).code).toBe(0);
    for (const args of [['store', 'sync'], ['search', 'alpha'], ['status']]) {
      const refused = await runCli(args, { cwd: root, env });
      expect(refused.code, args.join(' ')).toBe(2);
      expect(refused.stderr).toMatch(/has no pgvector/);
    }
  });

  it('a database of schema version 1 (before vectors were kept) is refused naming the rebuild, which then works', async () => {
    const root = await postgresWorkspace();
    const url = await freshDatabase();
    const env = { WIKI_DATABASE_URL: url };
    expect((await runCli(['store', 'init'], { cwd: root, env })).code).toBe(0);
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query('DROP TABLE wiki_vectors; UPDATE wiki_schema SET version = 1');
    await client.end();
    const refused = await runCli(['search', 'alpha'], { cwd: root, env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/has wiki schema version 1, this wiki needs \d+ — .*wiki store init --rebuild/);
    expect((await runCli(['store', 'init', '--rebuild'], { cwd: root, env })).code).toBe(0);
    const after = await runCli(['status'], { cwd: root, env });
    expect(after.code).toBe(0);
    expect(after.stdout).toMatch(/vectors: arrays \(no pgvector on this server\)/);
  });
});
