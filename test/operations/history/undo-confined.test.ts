import { mkdir, mkdtemp, readFile, readdir, rename, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SandboxError } from '../../../src/errors.js';
import { initWorkspace } from '../../../src/operations/workspace/init.js';
import { promotePage } from '../../../src/operations/history/promote.js';
import { undo } from '../../../src/operations/history/undo.js';
import { beginRun, finishRun, recordAfter, recordBefore } from '../../../src/state/history.js';
import { loadSchema } from '../../../src/wiki/schema-loader.js';

/**
 * `wiki undo` and `wiki promote` write pages and the log outside any model run: their I/O
 * goes through the sandbox's confined I/O too, so a link in the workspace (the log, or a
 * folder on a page's way) never carries a write, a removal or a read outside it.
 */
const LOG = 'wiki/log.md';
const PAGE = 'wiki/concepts/attention.md';
const OUTSIDE_TEXT = 'outside-the-workspace, never to be touched\n';

async function workspaceBesideOutside(): Promise<{ root: string; outside: string }> {
  const parent = await mkdtemp(path.join(os.tmpdir(), 'wiki-undo-confined-'));
  const root = path.join(parent, 'ws');
  const outside = path.join(parent, 'outside');
  await initWorkspace(root, { today: '2026-11-21' });
  await mkdir(outside);
  await writeFile(path.join(outside, 'log.md'), OUTSIDE_TEXT);
  await writeFile(path.join(outside, 'attention.md'), OUTSIDE_TEXT);
  return { root, outside };
}

/** A completed run that changed PAGE from `before` to `after`. */
async function runThatEdited(root: string): Promise<void> {
  await writeFile(path.join(root, PAGE), 'before\n');
  const run = await beginRun(root, 'run-1', 'ingest', 'Attention paper');
  await recordBefore(run, PAGE, 'before\n');
  await writeFile(path.join(root, PAGE), 'after\n');
  await recordAfter(run, PAGE, 'after\n');
  await finishRun(run, 'completed');
}

async function outsideFiles(outside: string): Promise<string[]> {
  const names = (await readdir(outside)).sort();
  return Promise.all(names.map(async (name) => `${name}: ${await readFile(path.join(outside, name), 'utf8')}`));
}

const UNTOUCHED = [`attention.md: ${OUTSIDE_TEXT}`, `log.md: ${OUTSIDE_TEXT}`];

describe('undo never writes through a link', () => {
  it('a log that is a link to a file outside: the page is restored, the outside file untouched, and the error says the undo happened', async () => {
    const { root, outside } = await workspaceBesideOutside();
    await runThatEdited(root);
    await rename(path.join(root, LOG), path.join(root, 'wiki/log-moved.md'));
    await symlink(path.join(outside, 'log.md'), path.join(root, LOG));
    const failure = await undo(root, { logPath: LOG }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SandboxError);
    expect((failure as Error).message).toMatch(/^undid run run-1 \(recorded as run .+\), but wrote no log entry: wiki\/log\.md is \(or just became\) a symbolic link/);
    expect(await readFile(path.join(root, PAGE), 'utf8')).toBe('before\n');
    expect(await outsideFiles(outside)).toEqual(UNTOUCHED);
  });

  it('a page folder swapped for a link to a folder outside: refused before anything is written, the outside files untouched', async () => {
    const { root, outside } = await workspaceBesideOutside();
    await runThatEdited(root);
    await rename(path.join(root, 'wiki/concepts'), path.join(root, 'wiki/concepts-moved'));
    await symlink(outside, path.join(root, 'wiki/concepts'));
    await expect(undo(root, { logPath: LOG })).rejects.toThrow(/wiki\/concepts is \(or just became\) a symbolic link/);
    expect(await outsideFiles(outside)).toEqual(UNTOUCHED);
  });
});

describe('promote never writes through a link', () => {
  it('a log that is a link to a file outside: the page is moved, the outside file untouched, and the error says the move happened', async () => {
    const { root, outside } = await workspaceBesideOutside();
    const scratch = 'wiki/user/alice/concepts/idea.md';
    await mkdir(path.dirname(path.join(root, scratch)), { recursive: true });
    await writeFile(path.join(root, 'raw/paper.md'), '# A paper\n');
    await writeFile(path.join(root, scratch), '---\ntitle: Idea\nsummary: An idea.\ntype: concept\nsources: [raw/paper.md]\ncreated: 2026-11-21\nupdated: 2026-11-21\n---\n\nAn idea.\n');
    await rename(path.join(root, LOG), path.join(root, 'wiki/log-moved.md'));
    await symlink(path.join(outside, 'log.md'), path.join(root, LOG));
    const failure = await promotePage(root, await loadSchema(root), 'alice', 'idea', { hubThreshold: 300 }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SandboxError);
    expect((failure as Error).message).toMatch(/^moved wiki\/user\/alice\/concepts\/idea\.md to wiki\/concepts\/idea\.md \(run .+\), but wrote no log entry/);
    expect(await readFile(path.join(root, 'wiki/concepts/idea.md'), 'utf8')).toContain('An idea.');
    expect(await outsideFiles(outside)).toEqual(UNTOUCHED);
  });
});
