import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { beginRun, finishRun, listRuns, recordAfter, recordBefore } from '../../src/state/history.js';
import { acquireLock } from '../../src/state/lock.js';
import { initWorkspace, runCli } from '../helpers/cli.js';

const EDITED = 'wiki/concepts/attention.md';
const CREATED = 'wiki/sources/paper.md';
const EDITED_BEFORE = '---\ntitle: Attention\nsummary: before the run\n---\nOriginal body.\n';
const EDITED_AFTER = '---\ntitle: Attention\nsummary: after the run\n---\nRewritten body.\n';
const CREATED_AFTER = '---\ntitle: Paper\nsummary: a new source page\nsources: [raw/paper.md]\n---\nSummary.\n';

async function read(root: string, relPath: string): Promise<string | undefined> {
  return readFile(path.join(root, relPath), 'utf8').catch(() => undefined);
}

async function write(root: string, relPath: string, content: string): Promise<void> {
  await mkdir(path.dirname(path.join(root, relPath)), { recursive: true });
  await writeFile(path.join(root, relPath), content);
}

/** A workspace made by `wiki init` where run-1 (recorded with the history API) edited one page and created another. */
async function workspaceWithRun(): Promise<string> {
  const root = await initWorkspace();
  await write(root, EDITED, EDITED_BEFORE);
  const run = await beginRun(root, 'run-1', 'ingest', 'Attention paper');
  for (const [relPath, content] of [
    [EDITED, EDITED_AFTER],
    [CREATED, CREATED_AFTER],
  ] as const) {
    await recordBefore(run, relPath, await read(root, relPath));
    await write(root, relPath, content);
    await recordAfter(run, relPath, content);
  }
  await finishRun(run, 'completed');
  return root;
}

beforeAll(async () => {
  const version = await runCli(['--version']);
  if (version.code !== 0) throw new Error(`the built CLI does not run (npx tsc -p . first): ${version.stderr}`);
});

describe('wiki undo', () => {
  it('--yes restores before-images, deletes created files and logs; a second undo undoes the undo', async () => {
    const root = await workspaceWithRun();
    const first = await runCli(['undo', '--yes'], { cwd: root });
    expect(first.stderr).toContain(`restore ${EDITED}`);
    expect(first.stderr).toContain(`delete  ${CREATED} (created by that run)`);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('Undid run run-1 (ingest: Attention paper): restored 1, deleted 1.');
    expect(await read(root, EDITED)).toBe(EDITED_BEFORE);
    expect(await read(root, CREATED)).toBeUndefined();
    const log = (await read(root, 'wiki/log.md')) ?? '';
    expect(log).toMatch(/^## \[\d{4}-\d\d-\d\d\] undo \| run-1 \(ingest: Attention paper\) · run \S+$/m);

    const second = await runCli(['undo', '--yes'], { cwd: root });
    expect(second.code).toBe(0);
    expect(await read(root, EDITED)).toBe(EDITED_AFTER);
    expect(await read(root, CREATED)).toBe(CREATED_AFTER);
    const undoRuns = (await listRuns(root)).filter((run) => run.op === 'undo');
    expect(undoRuns).toHaveLength(2);
    expect(second.stdout).toContain(`Undid run ${undoRuns[0]?.runId} (undo: run-1 (ingest: Attention paper))`);
    expect((await read(root, 'wiki/log.md'))?.match(/ undo \| /g)).toHaveLength(2);
  });

  it('--json prints the run, its actions and whether they were applied', async () => {
    const root = await workspaceWithRun();
    const result = await runCli(['undo', 'run-1', '--yes', '--json'], { cwd: root });
    expect(result.code).toBe(0);
    const json = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(json).toMatchObject({
      runId: 'run-1',
      op: 'ingest',
      applied: true,
      actions: [
        { path: EDITED, action: 'restore', changedSinceRun: false },
        { path: CREATED, action: 'delete', changedSinceRun: false },
      ],
    });
    expect(json.undoRunId).toMatch(/^\d{8}-\d{6}-[0-9a-f]{6}$/);
  });

  it('without --yes and without a terminal, shows the plan and exits 2 with nothing changed', async () => {
    const root = await workspaceWithRun();
    const result = await runCli(['undo'], { cwd: root, input: 'y\n' });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`restore ${EDITED}`);
    expect(result.stderr).toContain('pass --yes to confirm');
    expect(await read(root, EDITED)).toBe(EDITED_AFTER);
    expect(await read(root, CREATED)).toBe(CREATED_AFTER);
    expect(await read(root, '.wiki/lock')).toBeUndefined();
  });

  it('--dry-run lists what it would do and changes nothing', async () => {
    const root = await workspaceWithRun();
    const human = await runCli(['undo', '--dry-run'], { cwd: root });
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('Would undo run run-1 (ingest: Attention paper):');
    expect(human.stdout).toContain(`restore ${EDITED}`);
    expect(human.stdout).toContain('Dry run: 1 to restore, 1 to delete; nothing was changed.');
    const json = JSON.parse((await runCli(['undo', '--dry-run', '--json'], { cwd: root })).stdout) as Record<string, unknown>;
    expect(json).toMatchObject({ runId: 'run-1', applied: false, outcome: 'dry-run' });
    expect(await read(root, EDITED)).toBe(EDITED_AFTER);
    expect((await listRuns(root)).length).toBe(1);
  });

  it('with nothing to undo says so and exits 0', async () => {
    const root = await initWorkspace();
    const result = await runCli(['undo', '--yes'], { cwd: root });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Nothing to undo');
    const json = JSON.parse((await runCli(['undo', '--json'], { cwd: root })).stdout) as Record<string, unknown>;
    expect(json).toEqual({ runId: null, actions: [], applied: false, outcome: 'nothing-to-undo' });
  });

  it('refuses when a file changed since the run unless --force', async () => {
    const root = await workspaceWithRun();
    await write(root, EDITED, `${EDITED_AFTER}A line added by hand.\n`);
    const refused = await runCli(['undo', '--yes'], { cwd: root });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`${EDITED} changed since run run-1`);
    expect(refused.stderr).toContain('pass --force');
    expect(await read(root, CREATED)).toBe(CREATED_AFTER);
    const forced = await runCli(['undo', '--yes', '--force'], { cwd: root });
    expect(forced.code).toBe(0);
    expect(await read(root, EDITED)).toBe(EDITED_BEFORE);
  });

  it('exits 2 naming the holder when another run holds the lock, and --wait outlasts it', async () => {
    const root = await workspaceWithRun();
    const lock = await acquireLock(root, { command: 'ingest' });
    const blocked = await runCli(['undo', '--yes'], { cwd: root });
    expect(blocked.code).toBe(2);
    expect(blocked.stderr).toContain(`another wiki run holds the lock: ingest (pid ${process.pid}, started `);
    expect(blocked.stderr).toContain('pass --wait 60');
    expect(await read(root, EDITED)).toBe(EDITED_AFTER);

    const waiting = runCli(['undo', '--yes', '--wait', '30'], { cwd: root });
    setTimeout(() => void lock.release(), 1_000);
    const result = await waiting;
    expect(result.code).toBe(0);
    expect(await read(root, EDITED)).toBe(EDITED_BEFORE);
  });

  it.each([
    [['undo', 'no-such-run', '--yes'], /no run no-such-run in \.wiki\/history\/ — recent runs: run-1/],
    [['undo', '--wait', 'soon'], /--wait soon: not a number of seconds/],
    [['undo', 'bad/../id'], /not a run id/],
  ])('wiki %j exits 2', async (args, message) => {
    const root = await workspaceWithRun();
    const result = await runCli(args, { cwd: root });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(await read(root, EDITED)).toBe(EDITED_AFTER);
  });
});
