import { spawn } from 'node:child_process';
import { appendFile, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { undo } from '../../src/operations/history/undo.js';
import { beginRun, finishRun, loadRun, recordAfter, recordBefore } from '../../src/state/history.js';
import { humanEditedPaths } from '../../src/state/human-edits.js';
import { lastWritten } from '../../src/state/written.js';
import { REPO_ROOT } from '../helpers/cli.js';

/**
 * A run killed (SIGKILL, no cleanup) between any two steps of its bookkeeping can still be
 * undone, and what it wrote before the kill still counts as the tool's own writing. The
 * run is the built code in a child process, doing what a session does per write: record
 * the before-image, write the page atomically, record the after-state; then finish.
 */
const LOG = 'wiki/log.md';
const PAGES = ['wiki/concepts/alpha.md', 'wiki/concepts/beta.md', 'wiki/sources/new.md'] as const;
const ORIGINAL: Record<string, string | undefined> = {
  'wiki/concepts/alpha.md': 'alpha as the owner left it\n',
  'wiki/concepts/beta.md': 'beta as an earlier run wrote it\n',
  'wiki/sources/new.md': undefined,
};

const module = (file: string): string => JSON.stringify(pathToFileURL(path.join(REPO_ROOT, 'dist/src', file)).href);

/** Steps of the child: `kill` is the index of the step it is killed before (steps.length: never). */
const CHILD = `
const { beginRun, recordBefore, recordAfter, finishRun } = await import(${module('state/history.js')});
const { writeFileAtomic } = await import(${module('util/fs.js')});
const { readFile } = await import('node:fs/promises');
const path = await import('node:path');
const [root, killAt] = process.argv.slice(1);
const pages = ${JSON.stringify(PAGES)};
let run;
const steps = [async () => { run = await beginRun(root, 'crashed-run', 'ingest', 'x'); }];
for (const page of pages) {
  const next = 'rewritten by the crashed run: ' + page + '\\n';
  steps.push(async () => recordBefore(run, page, await readFile(path.join(root, page), 'utf8').catch(() => undefined)));
  steps.push(async () => writeFileAtomic(path.join(root, page), next));
  steps.push(async () => recordAfter(run, page, next));
}
steps.push(async () => finishRun(run, 'completed'));
for (const [i, step] of steps.entries()) {
  if (i === Number(killAt)) process.kill(process.pid, 'SIGKILL');
  await step();
}
`;
const STEPS = 1 + PAGES.length * 3 + 1;

function runChild(root: string, killAt: number): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', CHILD, root, String(killAt)], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code, signal) => (code !== 0 && code !== null ? reject(new Error(stderr)) : resolve(signal)));
  });
}

async function read(root: string, relPath: string): Promise<string | undefined> {
  return readFile(path.join(root, relPath), 'utf8').catch(() => undefined);
}

/** A workspace where beta was written by an earlier (finished) run and alpha by its owner. */
async function workspace(): Promise<string> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'wiki-crash-'));
  await mkdir(path.join(root, 'wiki/concepts'), { recursive: true });
  await writeFile(path.join(root, LOG), '# Log\n');
  await writeFile(path.join(root, PAGES[0]), ORIGINAL[PAGES[0]] ?? '');
  const earlier = await beginRun(root, 'earlier-run', 'ingest', 'y');
  await recordBefore(earlier, PAGES[1], undefined);
  await writeFile(path.join(root, PAGES[1]), ORIGINAL[PAGES[1]] ?? '');
  await recordAfter(earlier, PAGES[1], ORIGINAL[PAGES[1]] ?? '');
  await finishRun(earlier, 'completed');
  return root;
}

describe('a run killed between any two steps', () => {
  it.each(Array.from({ length: STEPS + 1 }, (_, killAt) => [killAt]))('killed before step %i: undo puts every page back, and its own writes are not taken for human edits', async (killAt) => {
    const root = await workspace();
    expect(await runChild(root, killAt)).toBe(killAt < STEPS ? 'SIGKILL' : null);

    // What the run wrote before the kill is its own writing, not a human edit.
    for (const [i, page] of PAGES.entries()) {
      const recordedAfter = killAt > 3 + 3 * i; // step 3 + 3i is this page's after-record
      if (!recordedAfter) continue;
      expect((await lastWritten(root, page))?.runId).toBe('crashed-run');
      expect((await humanEditedPaths(root, [page])).has(page)).toBe(false);
    }
    if (killAt === 0) return; // killed before the run began: nothing recorded, nothing changed
    const record = await loadRun(root, 'crashed-run');
    expect(record?.status).toBe(killAt < STEPS ? 'running' : 'completed');

    const result = await undo(root, { runId: 'crashed-run', logPath: LOG, force: true });
    expect(['applied', 'nothing-to-undo']).toContain(result.outcome);
    for (const page of PAGES) expect(await read(root, page)).toBe(ORIGINAL[page]);
    // The owner's page is theirs again; the earlier run's page is that run's writing again.
    expect(await lastWritten(root, PAGES[0])).toBeUndefined();
    expect((await lastWritten(root, PAGES[1]))?.runId).toBe('earlier-run');
    expect((await humanEditedPaths(root, [PAGES[1]])).has(PAGES[1])).toBe(false);
  });

  it('a torn last line of the journal or of the written log is skipped, and the next append starts on a line of its own', async () => {
    const root = await workspace();
    expect(await runChild(root, 4)).toBe('SIGKILL'); // after alpha's write, before its after-record
    await appendFile(path.join(root, '.wiki/history/crashed-run/journal.jsonl'), '{"after":{"path":"wiki/con');
    await appendFile(path.join(root, '.wiki/written.log'), '{"path":"wiki/concepts/be');
    expect((await loadRun(root, 'crashed-run'))?.files.map((file) => file.path)).toEqual([PAGES[0]]);
    expect((await lastWritten(root, PAGES[1]))?.runId).toBe('earlier-run');

    const next = await beginRun(root, 'next-run', 'ingest', 'z');
    await recordBefore(next, PAGES[2], undefined);
    await recordAfter(next, PAGES[2], 'made by the next run\n');
    expect((await lastWritten(root, PAGES[2]))?.runId).toBe('next-run');
    await finishRun(next, 'completed');
    expect((await lastWritten(root, PAGES[2]))?.runId).toBe('next-run');
    expect(await read(root, '.wiki/written.log')).toBe('');
    expect(JSON.parse((await read(root, '.wiki/written.json')) ?? '{}').files[PAGES[2]].runId).toBe('next-run');
  });
});
