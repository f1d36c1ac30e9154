import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { fakeServers, freshWorkspace, pageText, read, simpleIngest, writeStep } from './cron-fixtures.js';

/**
 * The tool's own state files (the committed record `wiki.sources.jsonl`, `.wiki/history/`) are files anyone with
 * the folder can edit. Neither may steer a write out of the wiki: stale marking writes only
 * pages, through the confined writer; undo restores only what runs write, never from a link.
 */
const serve = fakeServers();
const OUTSIDE_TEXT = 'outside the workspace, never to be touched\n';
const GIT_CONFIG = '[core]\n\trepositoryformatversion = 0\n';

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** A workspace and, beside it, a folder outside it holding one page-like file. */
async function workspaceBesideOutside(): Promise<{ root: string; outside: string }> {
  const root = await freshWorkspace();
  const outside = await mkdtemp(path.join(os.tmpdir(), 'wiki-outside-'));
  await writeFile(path.join(outside, 'out.md'), OUTSIDE_TEXT);
  await mkdir(path.join(root, '.git'), { recursive: true });
  await writeFile(path.join(root, '.git/config'), GIT_CONFIG);
  return { root, outside };
}

/** raw/alpha.md ingested (its source page and a concept page drawing on it), then its record made to name `crafted` as pages it produced. */
async function ingestedThenCrafted(root: string, api: 'anthropic' | 'openai', crafted: string[]): Promise<void> {
  await writeFile(path.join(root, 'raw/alpha.md'), '# Alpha\n\nThe first version.\n');
  const first = await serve([...simpleIngest('alpha').slice(0, 1), writeStep('concept', 'kept', { sources: ['raw/alpha.md'] }), { text: 'Done.' }]);
  expect((await runCli(['ingest', 'raw/alpha.md'], { cwd: root, env: first.env(api) })).code).toBe(0);
  const recordFile = path.join(root, 'wiki.sources.jsonl');
  const lines = (await readFile(recordFile, 'utf8')).split('\n').filter((line) => line !== '');
  const crafted_ = lines.map((line) => {
    const entry = JSON.parse(line) as { path: string; created: string[] };
    if (entry.path === 'raw/alpha.md') entry.created.push(...crafted);
    return JSON.stringify(entry);
  });
  await writeFile(recordFile, `${crafted_.join('\n')}\n`);
}

describe.each(['anthropic', 'openai'] as const)('a crafted source record, wiki.sources.jsonl (%s)', (api) => {
  // Paths that pass the reader are pages under wiki/: stale marking's own place check (below, a swapped folder) is the second wall.
  it('naming files outside wiki/: the record is refused as it is read, naming the line, and nothing is written', async () => {
    const { root } = await workspaceBesideOutside();
    await writeFile(path.join(root, 'raw/other.md'), '# Other\n\nAnother source.\n');
    const crafted = ['schema.md', 'raw/other.md', '.git/config', '../outside.md', 'wiki/concepts/.hidden.md'];
    await ingestedThenCrafted(root, api, crafted);
    const schemaBefore = await read(root, 'schema.md');

    await writeFile(path.join(root, 'raw/alpha.md'), '# Alpha\n\nThe second version.\n');
    const second = await serve(simpleIngest('alpha', { body: 'Rewritten.' }));
    const result = await runCli(['ingest', 'raw/alpha.md'], { cwd: root, env: second.env(api) });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/wiki\.sources\.jsonl.*line 1/);
    expect(result.stderr).not.toMatch(/unexpected/);
    expect(second.requests).toHaveLength(0);
    expect(await read(root, 'schema.md')).toBe(schemaBefore);
    expect(await read(root, 'raw/other.md')).toBe('# Other\n\nAnother source.\n');
    expect(await read(root, '.git/config')).toBe(GIT_CONFIG);
  });
});

describe('a deleted source whose record names a page behind a swapped folder', () => {
  it('stale marking never writes through the link: the outside page is untouched, the page inside is marked', async () => {
    const { root, outside } = await workspaceBesideOutside();
    await ingestedThenCrafted(root, 'anthropic', ['wiki/entities/out.md']);
    // Another source, ingested and unchanged: `ingest raw/` then has nothing for the model.
    await writeFile(path.join(root, 'raw/beta.md'), '# Beta\n\nStays.\n');
    const server = await serve(simpleIngest('beta'));
    expect((await runCli(['ingest', 'raw/beta.md'], { cwd: root, env: server.env('anthropic') })).code).toBe(0);
    await rename(path.join(root, 'wiki/entities'), path.join(root, 'wiki/entities-moved'));
    await symlink(outside, path.join(root, 'wiki/entities'));
    await rm(path.join(root, 'raw/alpha.md'));

    const result = await runCli(['ingest', 'raw/', '--json'], { cwd: root, env: server.env('anthropic') });
    expect(result.stderr).not.toMatch(/unexpected/);
    expect(await readFile(path.join(outside, 'out.md'), 'utf8')).toBe(OUTSIDE_TEXT);
    expect(await read(root, '.git/config')).toBe(GIT_CONFIG);
    expect(await read(root, 'wiki/concepts/kept.md')).toMatch(/^stale_since: \d{4}-\d\d-\d\d$/m);
    const log = await read(root, 'wiki/log.md');
    expect(log).toMatch(/not marked stale: wiki\/entities\/out\.md: .*symbolic link/);
  });
});

/** A completed run, written by hand into .wiki/history as an attacker would: it "changed" `file` from `before` to what is there now. */
async function craftedRun(root: string, runId: string, file: string, before: string, historyDir = path.join(root, '.wiki/history', runId)): Promise<string> {
  const current = await readFile(path.join(root, file), 'utf8').catch(() => undefined);
  await mkdir(historyDir, { recursive: true });
  const record = {
    version: 1,
    runId,
    op: 'ingest',
    title: 'crafted',
    startedAt: '2099-01-01T00:00:00.000Z',
    finishedAt: '2099-01-01T00:00:01.000Z',
    status: 'completed',
    files: [{ path: file, existedBefore: true, beforeSha256: sha256(before), afterSha256: current === undefined ? null : sha256(current), writtenBefore: null }],
  };
  await writeFile(path.join(historyDir, 'run.json'), JSON.stringify(record));
  return historyDir;
}

describe('a crafted .wiki/history', () => {
  it('naming .git/config: undo refuses the whole run and writes nothing', async () => {
    const { root } = await workspaceBesideOutside();
    await craftedRun(root, 'run-evil', '.git/config', '[core]\n\tfsmonitor = touch /tmp/pwned\n');
    const dir = path.join(root, '.wiki/history/run-evil');
    await mkdir(path.join(dir, 'before/.git'), { recursive: true });
    await writeFile(path.join(dir, 'before/.git/config'), '[core]\n\tfsmonitor = touch /tmp/pwned\n');
    const result = await runCli(['undo', 'run-evil', '--yes', '--force'], { cwd: root });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('the history of run run-evil is damaged: it names .git/config, which no run writes');
    expect(await read(root, '.git/config')).toBe(GIT_CONFIG);
  });

  it('whose before-image is a link to an outside file: undo refuses, the page keeps its text', async () => {
    const { root, outside } = await workspaceBesideOutside();
    const page = 'wiki/concepts/target.md';
    await writeFile(path.join(root, page), pageText('concept', 'target'));
    const dir = await craftedRun(root, 'run-evil', page, OUTSIDE_TEXT);
    await mkdir(path.join(dir, 'before/wiki/concepts'), { recursive: true });
    await symlink(path.join(outside, 'out.md'), path.join(dir, 'before', page));
    const result = await runCli(['undo', 'run-evil', '--yes', '--force'], { cwd: root });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/symbolic link/);
    expect(await read(root, page)).toBe(pageText('concept', 'target'));
  });

  it('whose run folder links out: undo refuses, the page keeps its text', async () => {
    const { root, outside } = await workspaceBesideOutside();
    const page = 'wiki/concepts/target.md';
    await writeFile(path.join(root, page), pageText('concept', 'target'));
    const elsewhere = path.join(outside, 'run');
    await craftedRun(root, 'run-evil', page, OUTSIDE_TEXT, elsewhere);
    await mkdir(path.join(elsewhere, 'before/wiki/concepts'), { recursive: true });
    await writeFile(path.join(elsewhere, 'before', page), OUTSIDE_TEXT);
    await mkdir(path.join(root, '.wiki/history'), { recursive: true });
    await symlink(elsewhere, path.join(root, '.wiki/history/run-evil'));
    const result = await runCli(['undo', 'run-evil', '--yes', '--force'], { cwd: root });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/symbolic link/);
    expect(await read(root, page)).toBe(pageText('concept', 'target'));
  });

  it('a genuine run is still undone (the places undo may write include the ingest record)', async () => {
    const { root } = await workspaceBesideOutside();
    await writeFile(path.join(root, 'raw/alpha.md'), '# Alpha\n\nThe first version.\n');
    const server = await serve(simpleIngest('alpha'));
    expect((await runCli(['ingest', 'raw/alpha.md'], { cwd: root, env: server.env('anthropic') })).code).toBe(0);
    const result = await runCli(['undo', '--yes'], { cwd: root });
    expect(result.code).toBe(0);
    expect(await read(root, 'wiki/sources/alpha.md').catch(() => undefined)).toBeUndefined();
    // The record is restored to before the ingest: no line for raw/alpha.md (the file may be gone or empty).
    const record = await read(root, 'wiki.sources.jsonl').catch(() => '');
    expect(record).not.toContain('raw/alpha.md');
  });
});
