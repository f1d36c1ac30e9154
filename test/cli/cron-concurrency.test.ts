import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, startCli, waitFor } from '../helpers/cli.js';
import { type ScriptStep } from '../helpers/fake-llm-server.js';
import { fakeServers, freshWorkspace, manifestSources, pageText, read, readJson, simpleIngest, sourceOf, tempFilesUnder, unparseablePages, writeStep, readAsSent } from './cron-fixtures.js';

/**
 * Unattended runs meeting each other and being stopped: the workspace lock, SIGKILL at a
 * bad moment, SIGINT/SIGTERM, and a lock left behind by a process that is gone.
 */

const serve = fakeServers();


function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = (): void => undefined;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('two ingests at the same time', () => {
  it('refuses the second at once naming the holder; with --wait it runs once the first is done', async () => {
    const root = await freshWorkspace();
    await writeFile(path.join(root, 'raw/alpha.md'), '# Alpha\n\nThe first source.\n');
    await writeFile(path.join(root, 'raw/beta.md'), '# Beta\n\nThe second source.\n');
    await writeFile(path.join(root, 'raw/gamma.md'), '# Gamma\n\nThe third source.\n');
    const gate = deferred();
    const server = await serve(async (request): Promise<ScriptStep> => {
      const key = sourceOf(request) ?? 'unknown';
      if (request.toolResults.length > 0) return { text: `Ingested ${key}.` };
      if (key === 'alpha') await gate.promise; // the first run holds the lock until the test lets it go
      return writeStep('source', key);
    });
    const env = server.env('anthropic');

    const first = startCli(['ingest', 'raw/alpha.md'], { cwd: root, env });
    await waitFor(() => server.requests.some((r) => sourceOf(r) === 'alpha'), 'the first run to call the model');

    const refused = await runCli(['ingest', 'raw/beta.md'], { cwd: root, env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(new RegExp(`another wiki run holds the lock: ingest \\(pid ${first.child.pid}, started \\d{2}:\\d{2}:\\d{2}\\)`));
    expect(refused.stderr).toMatch(/--wait/);
    expect(server.requests.filter((r) => sourceOf(r) === 'beta')).toHaveLength(0);

    // Read-only commands never block on the lock.
    const status = await runCli(['status'], { cwd: root });
    expect(status.code).toBe(0);

    const waiting = startCli(['ingest', 'raw/beta.md', '--wait', '600'], { cwd: root, env });
    const cancelled = startCli(['ingest', 'raw/gamma.md', '--wait', '600'], { cwd: root, env });
    let waitingExited = false;
    void waiting.done.then(() => (waitingExited = true));
    // Long enough for the waiting processes to start and reach the lock; they must still be waiting.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(waitingExited).toBe(false);
    expect(server.requests.filter((r) => sourceOf(r) === 'beta')).toHaveLength(0);

    // SIGTERM while waiting for the lock stops at once (a service manager will not wait out --wait).
    // It cannot have waited the lock out: the first run holds it until the gate opens below.
    cancelled.child.kill('SIGTERM');
    const cancelledDone = await cancelled.done;
    expect(cancelledDone.code).toBe(143);
    expect(cancelledDone.stderr).toMatch(/interrupted while waiting for the workspace lock; nothing was changed/);
    expect(server.requests.filter((r) => sourceOf(r) === 'gamma')).toHaveLength(0);
    expect((await readJson<{ pid: number }>(path.join(root, '.wiki/lock'))).pid).toBe(first.child.pid);

    gate.resolve();
    const firstDone = await first.done;
    expect(firstDone.stderr).not.toMatch(/error|lock/);
    expect(firstDone.code).toBe(0);
    const secondDone = await waiting.done;
    expect(secondDone.code).toBe(0);
    const betaRequests = server.requests.filter((r) => sourceOf(r) === 'beta').map((r) => r.index);
    const alphaRequests = server.requests.filter((r) => sourceOf(r) === 'alpha').map((r) => r.index);
    expect(Math.min(...betaRequests)).toBeGreaterThan(Math.max(...alphaRequests));
    expect(await manifestSources(root)).toEqual(['raw/alpha.md', 'raw/beta.md']);
    expect(existsSync(path.join(root, '.wiki/lock'))).toBe(false);
    expect(server.problems).toEqual([]);
  });
});

describe('SIGKILL in the middle of a run', () => {
  it('leaves every page whole, no temp files, and the next run takes the stale lock over', async () => {
    const root = await freshWorkspace();
    await writeFile(path.join(root, 'raw/alpha.md'), '# Alpha\n\nA source about alpha.\n');
    const server = await serve([writeStep('source', 'alpha', { body: 'Written before the kill.' }), { fault: 'stall' }]);
    const run = startCli(['ingest', 'raw/alpha.md'], { cwd: root, env: server.env('anthropic') });
    await waitFor(() => server.requests.length === 2, 'the run to stall after its first write');
    const pid = run.child.pid;
    run.child.kill('SIGKILL');
    expect((await run.done).code).toBe(137);

    expect(await unparseablePages(root)).toEqual([]);
    expect(await tempFilesUnder(root)).toEqual([]);
    expect(await readAsSent(root, 'wiki/sources/alpha.md')).toBe(pageText('source', 'alpha', { body: 'Written before the kill.' }));
    expect((await readJson<{ pid: number }>(path.join(root, '.wiki/lock'))).pid).toBe(pid);
    expect(await manifestSources(root)).toEqual([]); // not recorded as ingested: the next run does it again

    // What a kill in the middle of an atomic write leaves: the temp file, never a torn page.
    const leftover = `wiki/sources/.alpha.md.${pid}.0badf00d.tmp`;
    const live = `wiki/concepts/.other.md.${process.pid}.deadbeef.tmp`; // a process still running: not ours to touch
    await writeFile(path.join(root, leftover), 'half a pa');
    await writeFile(path.join(root, live), 'in progress');

    const next = await serve(simpleIngest('alpha', { body: 'Written by the run after the kill.' }));
    const again = await runCli(['ingest', 'raw/alpha.md'], { cwd: root, env: next.env('anthropic') });
    expect(again.code).toBe(0);
    expect(existsSync(path.join(root, leftover))).toBe(false);
    expect(existsSync(path.join(root, live))).toBe(true);
    await rm(path.join(root, live));
    expect(again.stderr).toContain(`took over a stale lock left by pid ${pid} (ingest, started`);
    expect(await read(root, 'wiki/sources/alpha.md')).toContain('Written by the run after the kill.');
    expect(await manifestSources(root)).toEqual(['raw/alpha.md']);
    expect(existsSync(path.join(root, '.wiki/lock'))).toBe(false);
    expect(await unparseablePages(root)).toEqual([]);
  });
});

describe('SIGKILL at arbitrary moments of a write-heavy run', () => {
  it('never leaves a half-written page, and the next run cleans up and finishes', async () => {
    const root = await freshWorkspace();
    await writeFile(path.join(root, 'raw/alpha.md'), '# Alpha\n\nA source with many facets.\n');
    const keys = Array.from({ length: 30 }, (_, i) => `facet-${i + 1}`);
    const body = 'A long paragraph that makes each write take a little longer. '.repeat(200);
    // Each turn writes one page; later turns rewrite earlier pages, so a kill can land mid-update too.
    const turn = (n: number): ScriptStep => {
      const key = keys[n % keys.length] ?? 'facet-1';
      return writeStep('concept', key, { sources: ['raw/alpha.md'], body: `${body}\n\nVersion ${Math.floor(n / keys.length) + 1}.` });
    };
    for (const killAfter of [3, 17, 41]) {
      const server = await serve((request) => turn(request.index));
      const run = startCli(['ingest', 'raw/alpha.md', '--force', '--max-turns', '100'], { cwd: root, env: server.env('anthropic') });
      await waitFor(() => server.requests.length >= killAfter, `request ${killAfter}`);
      await new Promise((resolve) => setTimeout(resolve, killAfter % 7));
      run.child.kill('SIGKILL');
      expect((await run.done).code).toBe(137);
      expect(await unparseablePages(root)).toEqual([]);
      for (const key of keys) {
        const file = path.join(root, 'wiki/concepts', `${key}.md`);
        if (existsSync(file)) expect(await read(root, `wiki/concepts/${key}.md`)).toMatch(/Version \d+\.\n$/);
      }
    }
    const finish = await serve([writeStep('source', 'alpha'), { text: 'Done.' }]);
    const last = await runCli(['ingest', 'raw/alpha.md'], { cwd: root, env: finish.env('anthropic') });
    expect(last.code).toBe(0);
    expect(last.stderr).toContain('took over a stale lock');
    expect(await tempFilesUnder(root)).toEqual([]);
    expect(await manifestSources(root)).toEqual(['raw/alpha.md']);
  });
});

describe.each([
  { signal: 'SIGINT', code: 130, api: 'anthropic' },
  { signal: 'SIGTERM', code: 143, api: 'openai' },
] as const)('$signal in the middle of a run', ({ signal, code, api }) => {
  it(`stops cleanly: exit ${code}, an ingest-interrupted log entry, the lock released, pages kept`, async () => {
    const root = await freshWorkspace();
    await writeFile(path.join(root, 'raw/alpha.md'), '# Alpha\n\nA source about alpha.\n');
    const server = await serve([writeStep('source', 'alpha', { body: 'Kept after the interrupt.' }), { fault: 'stall' }]);
    const run = startCli(['ingest', 'raw/alpha.md'], { cwd: root, env: server.env(api) });
    await waitFor(() => server.requests.length === 2, 'the run to stall after its first write');
    run.child.kill(signal);
    const result = await run.done;

    expect(result.code).toBe(code);
    expect(result.stderr).toContain(`${signal} received`);
    expect(result.stdout).toMatch(/interrupted/);
    const log = await read(root, 'wiki/log.md');
    expect(log).toMatch(/^## \[\d{4}-\d{2}-\d{2}\] ingest-interrupted \| alpha · run \S+$/m);
    expect(log).toMatch(/created: wiki\/sources\/alpha\.md/);
    expect(existsSync(path.join(root, '.wiki/lock'))).toBe(false);
    expect(await readAsSent(root, 'wiki/sources/alpha.md')).toBe(pageText('source', 'alpha', { body: 'Kept after the interrupt.' }));
    expect(await read(root, 'wiki/index.md')).toContain('[[alpha]]');
    expect(await unparseablePages(root)).toEqual([]);
    expect(await manifestSources(root)).toEqual([]);
    const runs = await readdir(path.join(root, '.wiki/history'));
    const record = await readJson<{ status: string }>(path.join(root, '.wiki/history', runs[0] ?? '', 'run.json'));
    expect(record.status).toBe('interrupted');
    expect(server.requests).toHaveLength(2);
  });
});

describe('SIGINT during query --save', () => {
  it('exits 130 with a query-interrupted log entry; the page written so far is kept and the lock released', async () => {
    const root = await freshWorkspace();
    await writeFile(path.join(root, 'raw/alpha.md'), '# Alpha\n\nAlpha is the first letter.\n');
    // A page the question matches: a query that matches nothing calls no model.
    await writeFile(path.join(root, 'wiki/sources/alpha.md'), pageText('source', 'alpha', { body: 'Alpha is the first letter.' }));
    const server = await serve([writeStep('concept', 'alpha-answer', { body: 'Half an answer.', sources: ['raw/alpha.md'] }), { fault: 'stall' }]);
    const run = startCli(['query', 'what is alpha?', '--save'], { cwd: root, env: server.env('anthropic') });
    await waitFor(() => server.requests.length === 2, 'the query to stall after its first write');
    run.child.kill('SIGINT');
    const result = await run.done;
    expect(result.code).toBe(130);
    const log = await read(root, 'wiki/log.md');
    expect(log).toMatch(/^## \[\d{4}-\d{2}-\d{2}\] query-interrupted \| what is alpha\? · run \S+$/m);
    expect(log).toContain('created: wiki/concepts/alpha-answer.md');
    expect(await readAsSent(root, 'wiki/concepts/alpha-answer.md')).toBe(pageText('concept', 'alpha-answer', { body: 'Half an answer.', sources: ['raw/alpha.md'] }));
    expect(existsSync(path.join(root, '.wiki/lock'))).toBe(false);
    expect(await unparseablePages(root)).toEqual([]);
  });
});

describe('a lock left by a process that is gone', () => {
  it('is taken over with a notice', async () => {
    const root = await freshWorkspace();
    await writeFile(path.join(root, 'raw/alpha.md'), '# Alpha\n\nA source about alpha.\n');
    const gone = spawn(process.execPath, ['-e', '']);
    const deadPid = gone.pid;
    await new Promise((resolve) => gone.on('exit', resolve));
    await mkdir(path.join(root, '.wiki'), { recursive: true });
    await writeFile(
      path.join(root, '.wiki/lock'),
      `${JSON.stringify({ pid: deadPid, command: 'ingest', startedAt: '2026-01-02T03:04:05.000Z', host: os.hostname() })}\n`,
    );
    const server = await serve(simpleIngest('alpha'));
    const result = await runCli(['ingest', 'raw/alpha.md'], { cwd: root, env: server.env('anthropic') });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`took over a stale lock left by pid ${deadPid} (ingest, started 2026-01-02`);
    expect(existsSync(path.join(root, '.wiki/lock'))).toBe(false);
    expect(await manifestSources(root)).toEqual(['raw/alpha.md']);
  });
});
