import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, it } from 'vitest';
import { configSchema } from '../../src/config/schema.js';
import { Database } from '../../src/store/postgres/connection.js';
import { runCli } from '../helpers/cli.js';
import { startFakeLlmServer } from '../helpers/fake-llm-server.js';
import { describeWithPostgres, freshDatabase } from '../helpers/postgres.js';
import { freshWorkspace, writeStep } from './cron-fixtures.js';

/**
 * `wiki rm` on a replica of the Postgres store: the pages it deletes are deleted in the
 * database at once (a tool's deletion, stamped then), not left for a commit to prove.
 */
describeWithPostgres('wiki rm on the Postgres store', () => {
  it('writes the deletion of each page it removes to the database', async () => {
    const root = await freshWorkspace();
    await writeFile(path.join(root, 'raw/alpha.md'), '# Alpha\n\nAlpha ships sail north.\n');
    const server = await startFakeLlmServer([writeStep('source', 'alpha', { body: 'Alpha ships sail north. <!-- from: raw/alpha.md#L3 -->' }), { text: 'Done.' }]);
    const ingest = await runCli(['ingest', 'raw/alpha.md'], { cwd: root, env: server.env('anthropic') });
    await server.close();
    expect(ingest.code, ingest.stderr).toBe(0);
    const configFile = path.join(root, 'wiki.config.json');
    await writeFile(configFile, JSON.stringify({ ...(JSON.parse(await readFile(configFile, 'utf8')) as object), store: { kind: 'postgres' } }, null, 2));
    const env = { WIKI_DATABASE_URL: await freshDatabase() };
    for (const args of [['store', 'init'], ['store', 'sync']]) expect((await runCli(args, { cwd: root, env })).code).toBe(0);
    const rowOf = async () => {
      const db = await Database.connect(configSchema.parse({ store: { kind: 'postgres' } }), env);
      const [row] = await db.query<{ content: string | null }>('SELECT content FROM wiki_pages WHERE path = $1', ['wiki/sources/alpha.md']);
      await db.close();
      return row;
    };
    expect((await rowOf())?.content).toContain('Alpha ships sail north.');
    const removed = await runCli(['rm', 'raw/alpha.md'], { cwd: root, env });
    expect(removed.code, removed.stderr).toBe(0);
    expect(await rowOf()).toEqual({ content: null });
  });
});
