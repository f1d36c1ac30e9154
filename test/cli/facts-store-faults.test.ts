import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, it } from 'vitest';
import { loadSqlite } from '../../src/facts/sqlite.js';
import { runCli, startCli, waitFor } from '../helpers/cli.js';
import { describeWithSqlite } from '../helpers/sqlite.js';
import { type ScriptStep } from '../helpers/fake-llm-server.js';
import { fakeServers, freshWorkspace, pageText, readJson, sourceOf, writeStep } from './cron-fixtures.js';

/**
 * The facts store (`.wiki/facts.db`) is derived data: a store cut off while being made is
 * treated as absent (never "no such table"), and `wiki facts rebuild` takes the workspace
 * lock, queueing behind a run that holds it, so it never swaps the store out from under one.
 */
const serve = fakeServers();

describeWithSqlite('a half-made facts store', () => {
  it('is treated as absent by status and lint, and rebuilt whole by facts rebuild', async () => {
    const root = await freshWorkspace();
    await writeFile(path.join(root, 'raw/bridge.md'), '# The bridge\n\nThe bridge opened in 1937.\n');
    await writeFile(path.join(root, 'wiki/sources/bridge.md'), pageText('source', 'bridge', { body: 'The bridge opened in 1937.' }));
    // What a disk filling up mid-creation left: one table of six.
    const open = await loadSqlite();
    await mkdir(path.join(root, '.wiki'), { recursive: true });
    const db = open(path.join(root, '.wiki/facts.db'));
    db.exec('CREATE TABLE facts (id TEXT PRIMARY KEY, text TEXT NOT NULL)');
    db.close();

    const status = await runCli(['status', '--json'], { cwd: root });
    expect(status.stderr).not.toMatch(/no such table/);
    expect(status.code).toBe(0);
    const lint = await runCli(['lint', '--no-llm'], { cwd: root });
    expect(lint.stderr).not.toMatch(/no such table/);

    const rebuilt = await runCli(['facts', 'rebuild', '--json'], { cwd: root });
    expect(rebuilt.code).toBe(0);
    expect(JSON.parse(rebuilt.stdout)).toMatchObject({ sources: { extracted: 1 } });
    const search = await runCli(['facts', 'search', 'bridge', '--json'], { cwd: root });
    expect((JSON.parse(search.stdout) as { facts: unknown[] }).facts).toHaveLength(1);
  });
});

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = (): void => undefined;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describeWithSqlite('wiki facts rebuild beside an ingest', () => {
  it('queues behind the ingest holding the lock; both succeed and the store is whole', async () => {
    const root = await freshWorkspace();
    await writeFile(path.join(root, 'raw/alpha.md'), '# Alpha\n\nAlpha is the first letter.\n');
    const gate = deferred();
    const server = await serve(async (request): Promise<ScriptStep> => {
      if (request.toolResults.length > 0) return { text: 'Done.' };
      await gate.promise; // the ingest holds the lock until the test lets it go
      return writeStep('source', sourceOf(request) ?? 'alpha');
    });
    const ingest = startCli(['ingest', 'raw/alpha.md'], { cwd: root, env: server.env('anthropic') });
    await waitFor(() => server.requests.length > 0, 'the ingest to call the model');
    const rebuild = startCli(['facts', 'rebuild'], { cwd: root });
    await waitFor(() => rebuild.stderr().includes('waiting for the workspace lock (ingest, pid'), 'the rebuild to queue for the lock');
    expect((await readJson<{ command: string }>(path.join(root, '.wiki/lock'))).command).toBe('ingest');

    gate.resolve();
    const ingested = await ingest.done;
    expect(ingested.stderr).not.toMatch(/database is locked/);
    expect(ingested.code).toBe(0);
    const rebuilt = await rebuild.done;
    expect(rebuilt.stderr).not.toMatch(/database is locked/);
    expect(rebuilt.code).toBe(0);
    // Which process exits first after the lock changes hands is the machine's business; what
    // matters is that the rebuild queued (above) and neither failed.
    const search = await runCli(['facts', 'search', 'first letter', '--json'], { cwd: root });
    expect(search.code).toBe(0);
    expect((JSON.parse(search.stdout) as { facts: unknown[] }).facts).toHaveLength(1);
  });
});
