import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startFakeLlmServer, type FakeLlmServer } from '../helpers/fake-llm-server.js';
import { freshWorkspace, simpleIngest } from './cron-fixtures.js';

/**
 * `wiki undo` picks the last run that changed pages (not a no-op `ingest --force` that only
 * rewrote .wiki/sources.json), `wiki undo --list` shows what each recent run changed, and
 * every run goes by one id: its transcript, its history folder and its log entry.
 */

const RUN_ID = /^\d{8}-\d{6}-[0-9a-f]{6}$/;

let server: FakeLlmServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function workspaceWithTwoRuns(): Promise<string> {
  const root = await freshWorkspace();
  await writeFile(path.join(root, 'raw/alpha.md'), '# Alpha\n\nAlpha is the first letter.\n');
  server = await startFakeLlmServer([...simpleIngest('alpha'), { text: 'Nothing new in raw/alpha.md.' }]);
  const first = await runCli(['ingest', 'raw/alpha.md'], { cwd: root, env: server.env('anthropic') });
  expect(first.code, first.stderr).toBe(0);
  // Forced over an unchanged source, the model writes nothing: only the manifest and log change.
  const forced = await runCli(['ingest', 'raw/alpha.md', '--force'], { cwd: root, env: server.env('anthropic') });
  expect(forced.code, forced.stderr + forced.stdout).toBe(0);
  return root;
}

describe('wiki undo and runs', () => {
  it('undo picks the last run that changed pages, not a no-op ingest --force', async () => {
    const root = await workspaceWithTwoRuns();
    const plan = await runCli(['undo', '--dry-run'], { cwd: root });
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toMatch(/Would undo run \d{8}-\d{6}-[0-9a-f]{6} \(ingest: /);
    expect(plan.stdout).toMatch(/delete\s+wiki\/sources\/alpha\.md/);
    expect(plan.stdout).not.toMatch(/^\s+restore\s+wiki\.sources\.jsonl$/m);
  });

  it('undo --list shows the recent runs, newest first, with what each changed', async () => {
    const root = await workspaceWithTwoRuns();
    const list = await runCli(['undo', '--list'], { cwd: root });
    expect(list.code, list.stderr).toBe(0);
    const blocks = list.stdout.split(/\n(?=\d{8}-\d{6}-)/);
    expect(blocks[0]).toMatch(/^\d{8}-\d{6}-[0-9a-f]{6}  ingest: .*\n\s+no page changed/);
    expect(blocks[1]).toMatch(/^\d{8}-\d{6}-[0-9a-f]{6}  ingest: .*\n\s+\+ wiki\/sources\/alpha\.md/);
    const json = JSON.parse((await runCli(['undo', '--list', '--json'], { cwd: root })).stdout) as { runs: Array<{ runId: string; created: string[] }> };
    expect(json.runs).toHaveLength(2);
    expect(json.runs[1]?.created).toEqual(['wiki/sources/alpha.md']);
  });

  it('one run-id format everywhere: transcripts, history, log entries, help', async () => {
    const root = await workspaceWithTwoRuns();
    const history = await readdir(path.join(root, '.wiki/history'));
    const transcripts = (await readdir(path.join(root, '.wiki/runs'))).map((name) => name.replace(/\.jsonl$/, ''));
    const logged = [...(await readFile(path.join(root, 'wiki/log.md'), 'utf8')).matchAll(/^- run: (\S+)/gm)].map((m) => m[1] ?? '');
    for (const id of [...history, ...transcripts, ...logged]) expect(id).toMatch(RUN_ID);
    expect(logged.length).toBeGreaterThanOrEqual(2);
    for (const id of logged) expect(history).toContain(id);
    const help = await runCli(['undo', '--help']);
    const shown = [...help.stdout.matchAll(/\b(\d{8}-\d{6}-[0-9a-f]+)\b/g)].map((m) => m[1] ?? '');
    expect(shown.length).toBeGreaterThan(0);
    for (const id of shown) expect(id).toMatch(RUN_ID);
  });
});
