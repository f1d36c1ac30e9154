import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsePage } from '../../src/wiki/page.js';
import { runCli } from '../helpers/cli.js';
import { type FakeLlmServer, type RecordedRequest, type ScriptStep } from '../helpers/fake-llm-server.js';
import { fakeServers, freshWorkspace, manifestSources, pageText, patchConfig, read, sourceOf, unparseablePages, writeStep } from './cron-fixtures.js';
import { readSourceRecord } from '../helpers/source-record.js';

/**
 * Idempotent ingest: the manifest decides what reaches the model. Unchanged sources cost
 * nothing, changed ones are re-ingested and mark the pages they no longer vouch for, and a
 * deleted source marks its pages stale instead of deleting them.
 */

const serve = fakeServers();


/** Any number of sources: each gets its source page written, then a closing message. */
function perSourceScript(request: RecordedRequest): ScriptStep {
  const key = sourceOf(request) ?? 'unknown';
  return request.toolResults.length > 0 ? { text: `Ingested ${key}.` } : writeStep('source', key);
}

/** Keys whose ingest reached the model, in order of their first request. */
/** The sources the model was asked about, sorted (jobs side by side ask in any order). */
function ingestedKeys(server: FakeLlmServer): string[] {
  return [...new Set(server.requests.map(sourceOf))].filter((key): key is string => key !== undefined).sort();
}

const TODAY = new Date().toISOString().slice(0, 10);

describe('wiki ingest raw/ (a folder)', () => {
  it('ingests everything once, then only what is new or changed; an unchanged folder makes no model call', async () => {
    const root = await freshWorkspace();
    await writeFile(path.join(root, 'raw/alpha.md'), '# Alpha\n\nFirst.\n');
    await writeFile(path.join(root, 'raw/beta.md'), '# Beta\n\nSecond.\n');

    let server = await serve(perSourceScript);
    const first = await runCli(['ingest', 'raw/', '--json'], { cwd: root, env: server.env('openai') });
    expect(first.code).toBe(0);
    expect(ingestedKeys(server)).toEqual(['alpha', 'beta']);
    expect(await manifestSources(root)).toEqual(['raw/alpha.md', 'raw/beta.md']);

    server = await serve(perSourceScript);
    const unchanged = await runCli(['ingest', 'raw/'], { cwd: root, env: server.env('openai') });
    expect(unchanged.code).toBe(0);
    expect(server.requests).toHaveLength(0);
    expect(unchanged.stdout).toContain('raw/alpha.md is up to date');
    expect(unchanged.stdout).toContain('raw/beta.md is up to date');
    expect(unchanged.stdout).toContain('Nothing to do');

    await writeFile(path.join(root, 'raw/beta.md'), '# Beta\n\nSecond, revised.\n');
    await writeFile(path.join(root, 'raw/gamma.md'), '# Gamma\n\nThird.\n');
    server = await serve(perSourceScript);
    const changed = await runCli(['ingest', 'raw/', '--json'], { cwd: root, env: server.env('openai') });
    expect(changed.code).toBe(0);
    expect(ingestedKeys(server)).toEqual(['beta', 'gamma']);
    expect(server.requests.find((r) => sourceOf(r) === 'beta')?.lastUserText).toContain('it has CHANGED since it was last ingested');
    const report = JSON.parse(changed.stdout);
    expect(report.upToDate).toEqual(['raw/alpha.md']);
    expect(report.ingested.map((s: { source: string; state: string }) => [s.source, s.state])).toEqual([
      ['raw/beta.md', 'changed'],
      ['raw/gamma.md', 'new'],
    ]);
    expect(await manifestSources(root)).toEqual(['raw/alpha.md', 'raw/beta.md', 'raw/gamma.md']);

    // --force re-ingests an unchanged source.
    server = await serve(perSourceScript);
    const forced = await runCli(['ingest', 'raw/alpha.md', '--force', '--json'], { cwd: root, env: server.env('openai') });
    expect(forced.code).toBe(0);
    expect(ingestedKeys(server)).toEqual(['alpha']);
    expect(JSON.parse(forced.stdout).ingested[0].state).toBe('forced');
  });
});

describe('a changed source', () => {
  it('is re-ingested, and pages drawing on it that the run did not rewrite get stale_since', async () => {
    const root = await freshWorkspace();
    await writeFile(path.join(root, 'raw/alpha.md'), '# Alpha\n\nAlpha is a method.\n');
    let server = await serve([
      writeStep('concept', 'alpha-method', { sources: ['raw/alpha.md'], body: 'The method, as the first version said.' }),
      writeStep('source', 'alpha', { refs: ['alpha-method'], body: 'Summary of alpha; see [[alpha-method]].' }),
      { text: 'Done.' },
    ]);
    expect((await runCli(['ingest', 'raw/alpha.md'], { cwd: root, env: server.env('anthropic') })).code).toBe(0);
    // A page a human wrote that cites the source too.
    const handPage = pageText('entity', 'alpha-lab', { sources: ['raw/alpha.md'], body: 'The lab behind alpha.' });
    await writeFile(path.join(root, 'wiki/entities/alpha-lab.md'), handPage);

    await writeFile(path.join(root, 'raw/alpha.md'), '# Alpha\n\nAlpha is a method, revised.\n');
    const rewrite = (): ScriptStep[] => [
      writeStep('source', 'alpha', { refs: ['alpha-method'], body: 'Summary of the revised alpha; see [[alpha-method]].' }),
      { text: 'Updated the source page.' },
    ];
    // A dry run shows the stale marks it would make in its diff, and writes none of them.
    server = await serve(rewrite());
    const dry = await runCli(['ingest', 'raw/alpha.md', '--dry-run', '--json'], { cwd: root, env: server.env('anthropic') });
    expect(dry.code).toBe(0);
    const dryReport = JSON.parse(dry.stdout);
    expect(dryReport.ingested[0].staleMarked).toEqual(['wiki/concepts/alpha-method.md', 'wiki/entities/alpha-lab.md']);
    expect(dryReport.diff).toMatch(/\+\+\+ b\/wiki\/concepts\/alpha-method\.md[\s\S]*\+stale_since: /);
    expect(parsePage('wiki/concepts/alpha-method.md', await read(root, 'wiki/concepts/alpha-method.md')).frontmatter.stale_since).toBeUndefined();

    server = await serve(rewrite());
    const result = await runCli(['ingest', 'raw/alpha.md', '--json'], { cwd: root, env: server.env('anthropic') });
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.ingested[0]).toMatchObject({ state: 'changed', updated: ['wiki/sources/alpha.md'] });
    expect(report.ingested[0].staleMarked).toEqual(['wiki/concepts/alpha-method.md', 'wiki/entities/alpha-lab.md']);

    const method = parsePage('wiki/concepts/alpha-method.md', await read(root, 'wiki/concepts/alpha-method.md'));
    expect(method.frontmatter.stale_since).toBe(TODAY);
    expect(method.body).toContain('The method, as the first version said.');
    const lab = await read(root, 'wiki/entities/alpha-lab.md');
    expect(parsePage('wiki/entities/alpha-lab.md', lab).frontmatter.stale_since).toBe(TODAY);
    expect(lab.endsWith('\nThe lab behind alpha.\n')).toBe(true);
    const source = parsePage('wiki/sources/alpha.md', await read(root, 'wiki/sources/alpha.md'));
    expect(source.frontmatter.stale_since).toBeUndefined();
    expect(await read(root, 'wiki/log.md')).toMatch(/marked stale: wiki\/concepts\/alpha-method\.md, wiki\/entities\/alpha-lab\.md/);
    expect(await unparseablePages(root)).toEqual([]);
  });
});

describe('a deleted source', () => {
  it('marks the pages it produced stale, never deletes them, and is forgotten by the manifest', async () => {
    const root = await freshWorkspace();
    await writeFile(path.join(root, 'raw/alpha.md'), '# Alpha\n\nFirst.\n');
    await writeFile(path.join(root, 'raw/beta.md'), '# Beta\n\nSecond.\n');
    let server = await serve(perSourceScript);
    expect((await runCli(['ingest', 'raw/'], { cwd: root, env: server.env('anthropic') })).code).toBe(0);

    await rm(path.join(root, 'raw/alpha.md'));
    server = await serve(perSourceScript);
    const result = await runCli(['ingest', 'raw/', '--json'], { cwd: root, env: server.env('anthropic') });
    expect(result.code).toBe(0);
    expect(server.requests).toHaveLength(0);
    const report = JSON.parse(result.stdout);
    expect(report.deletedSources).toEqual([{ source: 'raw/alpha.md', staleMarked: ['wiki/sources/alpha.md'] }]);
    expect(existsSync(path.join(root, 'wiki/sources/alpha.md'))).toBe(true);
    const page = parsePage('wiki/sources/alpha.md', await read(root, 'wiki/sources/alpha.md'));
    expect(page.frontmatter.stale_since).toBe(TODAY);
    expect(await manifestSources(root)).toEqual(['raw/beta.md']);
    // Marking pages is a change like any other: logged, and undoable.
    expect(await read(root, 'wiki/log.md')).toMatch(/\] ingest \| raw\/alpha\.md deleted[\s\S]*marked stale: wiki\/sources\/alpha\.md/);
    const undone = await runCli(['undo', '--yes', '--json'], { cwd: root });
    expect(undone.code).toBe(0);
    expect(parsePage('wiki/sources/alpha.md', await read(root, 'wiki/sources/alpha.md')).frontmatter.stale_since).toBeUndefined();
    expect(await manifestSources(root)).toEqual(['raw/alpha.md', 'raw/beta.md']);

    // The human output says what happened too.
    const human = await runCli(['ingest', 'raw/'], { cwd: root, env: server.env('anthropic') });
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('raw/alpha.md was deleted; marked stale: wiki/sources/alpha.md');
    expect(server.requests).toHaveLength(0);
    expect(await readSourceRecord(root)).toMatchObject({ sources: { 'raw/beta.md': {} } });
  });
});

describe('a deleted source with git.autoCommit on', () => {
  function git(cwd: string, ...args: string[]): string {
    return execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();
  }

  it('commits the stale marks it made, with the log entry as the message', async () => {
    const root = await freshWorkspace();
    await writeFile(path.join(root, 'raw/alpha.md'), '# Alpha\n\nFirst.\n');
    await writeFile(path.join(root, 'raw/beta.md'), '# Beta\n\nSecond.\n');
    git(root, 'init', '-q');
    git(root, 'config', 'user.email', 'test@example.org');
    git(root, 'config', 'user.name', 'Test');
    await patchConfig(root, { git: { autoCommit: true } });
    const server = await serve(perSourceScript);
    expect((await runCli(['ingest', 'raw/'], { cwd: root, env: server.env('anthropic') })).code).toBe(0);
    git(root, 'add', '-A');
    git(root, 'commit', '-qm', 'ingested');

    await rm(path.join(root, 'raw/alpha.md'));
    const result = await runCli(['ingest', 'raw/'], { cwd: root, env: server.env('anthropic') });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/git: committed 3 file\(s\)/);
    expect(git(root, 'log', '-1', '--format=%s')).toMatch(/^## \[\d{4}-\d{2}-\d{2}\] ingest \| raw\/alpha\.md deleted · run \S+$/);
    expect(git(root, 'show', '--name-only', '--format=', 'HEAD').split('\n').sort()).toEqual(['wiki.sources.jsonl', 'wiki/log.md', 'wiki/sources/alpha.md']);
    // The user's own deletion of the source is theirs to commit.
    expect(git(root, 'status', '--porcelain')).toBe('D raw/alpha.md');
  });
});
