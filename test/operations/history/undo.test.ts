import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, InputError } from '../../../src/errors.js';
import { planUndo, undo, type UndoPlan } from '../../../src/operations/history/undo.js';
import { beginRun, finishRun, listRuns, loadRun, readBeforeImage, recordAfter, recordBefore } from '../../../src/state/history.js';
import { humanEditBase } from '../../../src/state/human-edits.js';
import { acquireLock, LockError } from '../../../src/state/lock.js';

const LOG = 'wiki/log.md';
const EDITED = 'wiki/concepts/attention.md';
const CREATED = 'wiki/sources/paper.md';

async function tempRoot(): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), 'wiki-undo-'));
}

async function write(root: string, relPath: string, content: string): Promise<void> {
  await mkdir(path.dirname(path.join(root, relPath)), { recursive: true });
  await writeFile(path.join(root, relPath), content);
}

async function read(root: string, relPath: string): Promise<string | undefined> {
  return readFile(path.join(root, relPath), 'utf8').catch(() => undefined);
}

/** Write a file the way a run does: before-image, write, after-record. */
async function runWrite(run: Awaited<ReturnType<typeof beginRun>>, root: string, relPath: string, content: string): Promise<void> {
  await recordBefore(run, relPath, await read(root, relPath));
  await write(root, relPath, content);
  await recordAfter(run, relPath, content);
}

/** A workspace where run-1 edited one page, created another and appended to the log. */
async function workspaceWithRun(): Promise<string> {
  const root = await tempRoot();
  await write(root, EDITED, 'before\n');
  await write(root, LOG, '# Log\n\n## [2026-01-20] init | workspace\n');
  const run = await beginRun(root, 'run-1', 'ingest', 'Attention paper');
  await runWrite(run, root, EDITED, 'after\n');
  await runWrite(run, root, CREATED, 'created\n');
  await runWrite(run, root, LOG, '# Log\n\n## [2026-01-20] init | workspace\n## [2026-01-21] ingest | Attention paper\n');
  await finishRun(run, 'completed');
  return root;
}

describe('planUndo', () => {
  it('restores edited files, deletes created ones and leaves the log alone', async () => {
    const root = await workspaceWithRun();
    const plan = await planUndo(root, { logPath: LOG });
    expect(plan?.run.runId).toBe('run-1');
    expect(plan?.actions).toEqual([
      { path: EDITED, action: 'restore', changedSinceRun: false },
      { path: CREATED, action: 'delete', changedSinceRun: false },
      { path: LOG, action: 'skip', reason: 'the log is append-only; the undo is logged instead', changedSinceRun: false },
    ]);
    expect(plan?.conflicts).toEqual([]);
  });

  it('flags files changed since the run, and skips those already as before', async () => {
    const root = await workspaceWithRun();
    await write(root, EDITED, 'after\nplus a human edit\n');
    await rm(path.join(root, CREATED));
    const plan = (await planUndo(root, { logPath: LOG })) as UndoPlan;
    expect(plan.actions.slice(0, 2)).toEqual([
      { path: EDITED, action: 'restore', changedSinceRun: true },
      { path: CREATED, action: 'skip', reason: 'already absent', changedSinceRun: false },
    ]);
    expect(plan.conflicts).toEqual([EDITED]);
  });

  it('is undefined when no run changed a file, and names unknown runs', async () => {
    const root = await tempRoot();
    expect(await planUndo(root, { logPath: LOG })).toBeUndefined();
    await finishRun(await beginRun(root, 'empty-run', 'lint', 'nothing to fix'), 'completed');
    expect(await planUndo(root, { logPath: LOG })).toBeUndefined();
    await expect(planUndo(root, { runId: 'run-9', logPath: LOG })).rejects.toThrow(/no run run-9 in \.wiki\/history\//);
    await expect(planUndo(root, { runId: '../x', logPath: LOG })).rejects.toThrow(/not a run id/);
  });

  it('refuses a run whose before-image is gone', async () => {
    const root = await workspaceWithRun();
    // Where before-images live: inline in the journal, or (large ones) under before/.
    await rm(path.join(root, '.wiki/history/run-1/journal.jsonl'));
    await rm(path.join(root, '.wiki/history/run-1/before'), { recursive: true, force: true });
    const error = await planUndo(root, { logPath: LOG }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toContain(`the before-image of ${EDITED} is missing or altered`);
  });
});

describe('undo', () => {
  it('applies the plan, appends one log entry and records itself as a run', async () => {
    const root = await workspaceWithRun();
    const logBefore = (await read(root, LOG)) ?? '';
    const result = await undo(root, { logPath: LOG });
    expect(result).toMatchObject({ runId: 'run-1', op: 'ingest', title: 'Attention paper', applied: true, outcome: 'applied' });
    expect(await read(root, EDITED)).toBe('before\n');
    expect(await read(root, CREATED)).toBeUndefined();
    const log = (await read(root, LOG)) ?? '';
    expect(log.startsWith(logBefore)).toBe(true);
    expect(log.slice(logBefore.length)).toMatch(/^## \[\d{4}-\d\d-\d\d\] undo \| run-1 \(ingest: Attention paper\) · run (\S+)\n- run: \1 · restored wiki\/concepts\/attention\.md · deleted wiki\/sources\/paper\.md \(created by that run\) · recorded as run /);
    const runs = await listRuns(root);
    expect(runs.map((r) => [r.op, r.status])).toEqual([
      ['ingest', 'completed'],
      ['undo', 'completed'],
    ]);
    expect(runs[1]?.runId).toBe(result.undoRunId);
    expect(runs[1]?.title).toBe('run-1 (ingest: Attention paper)');
    expect(await readdir(path.join(root, '.wiki'))).not.toContain('lock');
  });

  it('undoing the undo redoes the run', async () => {
    const root = await workspaceWithRun();
    const first = await undo(root, { logPath: LOG });
    const second = await undo(root, { logPath: LOG });
    expect(second).toMatchObject({ runId: first.undoRunId, op: 'undo', applied: true });
    expect(await read(root, EDITED)).toBe('after\n');
    expect(await read(root, CREATED)).toBe('created\n');
    expect((await read(root, LOG))?.match(/\| (.+) · run \S+$/gm)?.slice(-2)).toEqual([
      `| run-1 (ingest: Attention paper) · run ${first.undoRunId}`,
      `| ${first.undoRunId} (undo: run-1 (ingest: Attention paper)) · run ${second.undoRunId}`,
    ]);
  });

  it('keeps a restored hand edit flagged as hand-edited', async () => {
    const root = await tempRoot();
    const tool = await beginRun(root, 'run-0', 'ingest', 'first');
    await runWrite(tool, root, EDITED, 'tool v1\n');
    await write(root, EDITED, 'tool v1\nhuman line\n');
    const second = await beginRun(root, 'run-1', 'ingest', 'second');
    await runWrite(second, root, EDITED, 'tool v2\n');
    expect(await humanEditBase(root, EDITED, 'tool v2\n')).toBeUndefined();
    await undo(root, { runId: 'run-1', logPath: LOG });
    expect(await read(root, EDITED)).toBe('tool v1\nhuman line\n');
    expect(await humanEditBase(root, EDITED, 'tool v1\nhuman line\n')).toEqual({ base: 'tool v1\n' });
  });

  it('refuses to overwrite later changes unless forced, and even then keeps them undoable', async () => {
    const root = await workspaceWithRun();
    await write(root, EDITED, 'a later human edit\n');
    const error = await undo(root, { logPath: LOG }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).message).toBe(`1 file(s) changed since run run-1: ${EDITED}`);
    expect(await read(root, EDITED)).toBe('a later human edit\n');
    expect(await read(root, CREATED)).toBe('created\n');

    const forced = await undo(root, { logPath: LOG, force: true });
    expect(forced.applied).toBe(true);
    expect(await read(root, EDITED)).toBe('before\n');
    await undo(root, { logPath: LOG });
    expect(await read(root, EDITED)).toBe('a later human edit\n');
  });

  it('dry run shows the plan and changes nothing, not even the lock', async () => {
    const root = await workspaceWithRun();
    const holder = await acquireLock(root, { command: 'ingest' });
    try {
      const plans: UndoPlan[] = [];
      const result = await undo(root, { logPath: LOG, dryRun: true, onPlan: (plan) => plans.push(plan) });
      expect(result).toMatchObject({ runId: 'run-1', applied: false, outcome: 'dry-run' });
      expect(plans).toHaveLength(1);
      expect(await read(root, EDITED)).toBe('after\n');
      expect((await listRuns(root)).length).toBe(1);
    } finally {
      await holder.release();
    }
  });

  it('a declined confirmation changes nothing', async () => {
    const root = await workspaceWithRun();
    const result = await undo(root, { logPath: LOG, confirm: async () => false });
    expect(result).toMatchObject({ applied: false, outcome: 'cancelled' });
    expect(await read(root, EDITED)).toBe('after\n');
    expect(await read(root, CREATED)).toBe('created\n');
  });

  it('waits for no one: a held lock fails with the holder named', async () => {
    const root = await workspaceWithRun();
    const holder = await acquireLock(root, { command: 'lint --fix' });
    try {
      const error = await undo(root, { logPath: LOG }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(LockError);
      expect((error as LockError).message).toContain('holds the lock: lint --fix');
      expect(await read(root, EDITED)).toBe('after\n');
    } finally {
      await holder.release();
    }
  });

  it('reports nothing to undo when the files are already as before the run', async () => {
    const root = await workspaceWithRun();
    await write(root, EDITED, 'before\n');
    await rm(path.join(root, CREATED));
    const result = await undo(root, { logPath: LOG });
    expect(result).toMatchObject({ runId: 'run-1', applied: false, outcome: 'nothing-to-undo' });
    expect((await loadRun(root, 'run-1'))?.status).toBe('completed');
    expect((await listRuns(root)).length).toBe(1);
  });
});

describe('undo of a file that is not UTF-8', () => {
  it('restores its bytes exactly, undo after undo', async () => {
    const root = await workspaceWithRun();
    // Someone replaced the page the run created with Latin-1 bytes; undo deletes it, keeping those bytes.
    const latin1 = Buffer.from('---\ntitle: Caf\xe9\n---\nD\xe9j\xe0 vu \xff\xfe.\n', 'latin1');
    await writeFile(path.join(root, CREATED), latin1);
    const first = await undo(root, { logPath: LOG, force: true });
    await expect(readFile(path.join(root, CREATED))).rejects.toThrow();
    await undo(root, { logPath: LOG, runId: first.undoRunId, force: true });
    expect((await readFile(path.join(root, CREATED))).equals(latin1)).toBe(true);
  });

  it('restores a before-image recorded as text (as older histories were) exactly', async () => {
    const root = await tempRoot();
    const text = '---\ntitle: Café ☕\n---\nnaïve — 𝄞\n';
    await write(root, EDITED, text);
    const run = await beginRun(root, 'run-1', 'ingest', 'x');
    await runWrite(run, root, EDITED, 'after\n');
    await finishRun(run, 'completed');
    expect((await readBeforeImage(root, 'run-1', EDITED))?.toString('utf8')).toBe(text);
    await undo(root, { logPath: LOG });
    expect((await readFile(path.join(root, EDITED))).equals(Buffer.from(text, 'utf8'))).toBe(true);
  });
});
