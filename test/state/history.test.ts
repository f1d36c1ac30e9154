import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hashText } from '../../src/state/hash.js';
import { beginRun, finishRun, lastRun, listRuns, loadRun, newRunId, pruneRuns, readBeforeImage, recordAfter, recordBefore } from '../../src/state/history.js';
import { lastWritten } from '../../src/state/written.js';
import { humanEditBase, humanEditedPaths } from '../../src/state/human-edits.js';

async function tempRoot(): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), 'wiki-history-'));
}

async function write(root: string, relPath: string, content: string): Promise<void> {
  await mkdir(path.dirname(path.join(root, relPath)), { recursive: true });
  await writeFile(path.join(root, relPath), content);
}

describe('run history', () => {
  it('records before-images (first per path wins), after-shas and the status', async () => {
    const root = await tempRoot();
    const run = await beginRun(root, 'run-1', 'ingest', 'Attention paper');
    expect(await loadRun(root, 'run-1')).toMatchObject({ runId: 'run-1', op: 'ingest', title: 'Attention paper', status: 'running', files: [] });

    await recordBefore(run, 'wiki/concepts/attention.md', 'original\n');
    await recordBefore(run, 'wiki/concepts/attention.md', 'first rewrite\n');
    await recordAfter(run, 'wiki/concepts/attention.md', 'second rewrite\n');
    await recordBefore(run, 'wiki/sources/paper.md', undefined);
    await recordAfter(run, 'wiki/sources/paper.md', 'new page\n');
    const record = await finishRun(run, 'completed');

    expect(record.status).toBe('completed');
    expect(record.finishedAt).toBeDefined();
    expect(record.files).toEqual([
      { path: 'wiki/concepts/attention.md', existedBefore: true, beforeSha256: hashText('original\n'), afterSha256: hashText('second rewrite\n'), writtenBefore: null },
      { path: 'wiki/sources/paper.md', existedBefore: false, afterSha256: hashText('new page\n'), writtenBefore: null },
    ]);
    expect((await readBeforeImage(root, 'run-1', 'wiki/concepts/attention.md'))?.toString('utf8')).toBe('original\n');
    expect(await readBeforeImage(root, 'run-1', 'wiki/sources/paper.md')).toBeUndefined();
    expect(await loadRun(root, 'run-1')).toEqual(record);
  });

  it('has every recorded change on disk at once (run.json and the journal), so a killed run can still be undone', async () => {
    const root = await tempRoot();
    const run = await beginRun(root, 'run-1', 'ingest', 'x');
    await recordBefore(run, 'wiki/a.md', 'a\n');
    const onDisk = await loadRun(root, 'run-1');
    expect(onDisk?.status).toBe('running');
    expect(onDisk?.files.map((f) => f.path)).toEqual(['wiki/a.md']);
  });

  it.each([
    ['a small text page (inline in the journal)', 'small page\n'],
    ['bytes that are not UTF-8 (inline, byte for byte)', Buffer.from([0x66, 0xff, 0xfe, 0x0a])],
    ['a large file (kept in a file of its own)', 'x'.repeat(300 * 1024)],
  ])('keeps the before-image of %s', async (_case, image) => {
    const root = await tempRoot();
    const run = await beginRun(root, 'run-1', 'ingest', 'x');
    await recordBefore(run, 'wiki/a.md', image);
    expect((await readBeforeImage(root, 'run-1', 'wiki/a.md'))?.equals(Buffer.from(image))).toBe(true);
    await finishRun(run, 'completed');
    expect((await readBeforeImage(root, 'run-1', 'wiki/a.md'))?.equals(Buffer.from(image))).toBe(true);
  });

  it('serialises concurrent records in call order', async () => {
    const root = await tempRoot();
    const run = await beginRun(root, 'run-1', 'lint', 'fix');
    const paths = Array.from({ length: 8 }, (_, i) => `wiki/concepts/page-${i}.md`);
    await Promise.all(paths.map((p) => recordBefore(run, p, `before ${p}`)));
    expect((await loadRun(root, 'run-1'))?.files.map((f) => f.path)).toEqual(paths);
  });

  it('refuses recordAfter without recordBefore, and paths outside the workspace', async () => {
    const root = await tempRoot();
    const run = await beginRun(root, 'run-1', 'ingest', 'x');
    await expect(recordAfter(run, 'wiki/a.md', 'a')).rejects.toThrow(/without recordBefore/);
    for (const bad of ['../escape.md', '/etc/passwd', 'wiki/../../x', 'wiki//a.md', '']) {
      expect(() => recordBefore(run, bad, 'x')).toThrow(/not a workspace-relative path/);
    }
  });

  it('lists runs oldest first; lastRun is the newest; pruneRuns keeps the newest', async () => {
    const root = await tempRoot();
    expect(await listRuns(root)).toEqual([]);
    expect(await lastRun(root)).toBeUndefined();
    for (const id of ['a-run', 'b-run', 'c-run']) {
      await finishRun(await beginRun(root, id, 'ingest', id), 'completed');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect((await listRuns(root)).map((r) => r.runId)).toEqual(['a-run', 'b-run', 'c-run']);
    expect((await lastRun(root))?.runId).toBe('c-run');
    expect(await pruneRuns(root, 2)).toEqual(['a-run']);
    expect((await listRuns(root)).map((r) => r.runId)).toEqual(['b-run', 'c-run']);
    expect(await loadRun(root, 'a-run')).toBeUndefined();
  });

  it('makes run ids that sort by time, and refuses ids that are not folder names', async () => {
    const at = new Date(Date.UTC(2026, 0, 21, 10, 22, 33));
    expect(newRunId(at)).toMatch(/^20260121-102233-[0-9a-f]{6}$/);
    expect(newRunId(at) < newRunId(new Date(Date.UTC(2026, 0, 21, 10, 22, 34)))).toBe(true);
    await expect(loadRun(await tempRoot(), '../etc')).rejects.toThrow(/not a run id/);
  });
});

describe('human-edit detection', () => {
  const page = 'wiki/concepts/attention.md';

  it.each([
    ['the tool never wrote it', undefined, 'hand made\n', false],
    ['unchanged since the tool wrote it', 'tool text\n', 'tool text\n', false],
    ['edited by hand since the tool wrote it', 'tool text\n', 'tool text\nand a human note\n', true],
    ['the file no longer exists', 'tool text\n', undefined, false],
  ])('%s → %s', async (_case, toolWrote, current, expected) => {
    const root = await tempRoot();
    if (toolWrote !== undefined) {
      const run = await beginRun(root, 'run-1', 'ingest', 'x');
      await recordBefore(run, page, undefined);
      await recordAfter(run, page, toolWrote);
    }
    if (current !== undefined) await write(root, page, current);
    // The prompt's list (read from disk) and the write guard (given the text) agree.
    expect((await humanEditedPaths(root, [page])).has(page)).toBe(expected);
    if (current !== undefined) expect((await humanEditBase(root, page, current)) !== undefined).toBe(expected);
  });

  it('written.json follows the latest tool write and keeps a hand-edited before-image', async () => {
    const root = await tempRoot();
    const first = await beginRun(root, 'run-1', 'ingest', 'x');
    await recordBefore(first, page, undefined);
    await write(root, page, 'v1\n');
    await recordAfter(first, page, 'v1\n');
    expect(await lastWritten(root, page)).toMatchObject({ sha256: hashText('v1\n'), runId: 'run-1' });

    await write(root, page, 'v1\nhuman addition\n');
    const current = await readFile(path.join(root, page), 'utf8');
    expect(await humanEditBase(root, page, current)).toEqual({ base: 'v1\n' });

    const second = await beginRun(root, 'run-2', 'ingest', 'y');
    await recordBefore(second, page, current);
    await write(root, page, 'v2 keeping the human addition\n');
    await recordAfter(second, page, 'v2 keeping the human addition\n');
    expect((await readBeforeImage(root, 'run-2', page))?.toString('utf8')).toBe('v1\nhuman addition\n');
    expect((await loadRun(root, 'run-2'))?.files[0]?.writtenBefore).toMatchObject({ sha256: hashText('v1\n'), runId: 'run-1' });
    expect(await humanEditBase(root, page, 'v2 keeping the human addition\n')).toBeUndefined();
  });

  it('keeps what the tool wrote for telling a human\'s lines apart, in the log while the run goes and in its copy file after', async () => {
    const root = await tempRoot();
    const run = await beginRun(root, 'run-1', 'ingest', 'x');
    await recordBefore(run, page, undefined);
    await recordAfter(run, page, 'tool line\n');
    expect(await humanEditBase(root, page, 'tool line\nhuman line\n')).toEqual({ base: 'tool line\n' });
    expect(existsSync(path.join(root, '.wiki/written-copies', hashText('tool line\n')))).toBe(false);
    await finishRun(run, 'completed');
    expect(await readFile(path.join(root, '.wiki/written-copies', hashText('tool line\n')), 'utf8')).toBe('tool line\n');
    expect(await humanEditBase(root, page, 'tool line\nhuman line\n')).toEqual({ base: 'tool line\n' });
  });

  it('recordAfter can set written.json explicitly (what undo uses) or remove the entry', async () => {
    const root = await tempRoot();
    const run = await beginRun(root, 'run-1', 'undo', 'x');
    await recordBefore(run, page, undefined);
    const entry = { sha256: hashText('old tool text\n'), runId: 'run-0', writtenAt: '2026-01-01T00:00:00.000Z' };
    await recordAfter(run, page, 'human text\n', { written: entry });
    expect(await lastWritten(root, page)).toEqual(entry);
    expect(await humanEditBase(root, page, 'human text\n')).toBeDefined();
    await recordAfter(run, page, undefined);
    expect(await lastWritten(root, page)).toBeUndefined();
    expect((await loadRun(root, 'run-1'))?.files[0]?.afterSha256).toBeNull();
  });
});

