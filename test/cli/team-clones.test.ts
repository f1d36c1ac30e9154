import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import type { RecordedRequest, ScriptStep } from '../helpers/fake-llm-server.js';
import { readSourceRecord } from '../helpers/source-record.js';
import { fakeServers, freshWorkspace, sourceOf, writeStep } from './cron-fixtures.js';

/**
 * A wiki a team shares through git: what a clone needs not to redo paid work is committed
 * (`wiki.sources.jsonl`), everything under `.wiki/` is rebuilt without a model, and two
 * clones' ingests of different sources merge with a plain `git merge`.
 */

const serve = fakeServers();
const GIT_ENV = { ...process.env, GIT_AUTHOR_NAME: 'T', GIT_AUTHOR_EMAIL: 't@example.org', GIT_COMMITTER_NAME: 'T', GIT_COMMITTER_EMAIL: 't@example.org' };

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: GIT_ENV }).trim();
}

function perSourceScript(request: RecordedRequest): ScriptStep {
  const key = sourceOf(request) ?? 'unknown';
  return request.toolResults.length > 0 ? { text: `Ingested ${key}.` } : writeStep('source', key);
}

/** A workspace with raw/alpha.md ingested, committed as the team's repository. */
async function teamRepository(): Promise<string> {
  const root = await freshWorkspace();
  await writeFile(path.join(root, 'raw/alpha.md'), '# Alpha\n\nAlpha particles are helium nuclei.\n');
  const server = await serve(perSourceScript);
  expect((await runCli(['ingest', 'raw/'], { cwd: root, env: server.env('anthropic') })).code).toBe(0);
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'add', '-A');
  git(root, 'commit', '-qm', 'alpha ingested');
  return root;
}

async function cloneOf(origin: string): Promise<string> {
  const dir = path.join(await tempDir('wiki-clone-'), 'wiki');
  git(path.dirname(dir), 'clone', '-q', origin, dir);
  return dir;
}

async function ingestAndCommit(root: string, key: string, text: string): Promise<void> {
  await writeFile(path.join(root, `raw/${key}.md`), text);
  const server = await serve(perSourceScript);
  const result = await runCli(['ingest', `raw/${key}.md`], { cwd: root, env: server.env('anthropic') });
  expect(result.code, result.stderr).toBe(0);
  expect(server.requests.length).toBeGreaterThan(0);
  git(root, 'add', '-A');
  git(root, 'commit', '-qm', `${key} ingested`);
}

async function lintJson(root: string): Promise<{ errors: number; findings: Array<{ rule: string; path: string; severity: string }> }> {
  const result = await runCli(['lint', '--json'], { cwd: root });
  return JSON.parse(result.stdout) as { errors: number; findings: Array<{ rule: string; path: string; severity: string }> };
}

describe('a fresh clone', () => {
  it('has nothing pending, re-ingests nothing, and searches, lints and lists facts after rebuilding .wiki/ without a model', async () => {
    const origin = await teamRepository();
    expect(git(origin, 'ls-files')).toContain('wiki.sources.jsonl');
    expect(git(origin, 'ls-files')).not.toContain('.wiki/');
    const clone = await cloneOf(origin);
    expect(existsSync(path.join(clone, '.wiki'))).toBe(false);

    const status = await runCli(['status', '--json'], { cwd: clone });
    expect(status.code).toBe(0);
    const raw = (JSON.parse(status.stdout) as { raw: { pending: string[]; changed: string[]; deleted: string[] } }).raw;
    expect(raw).toMatchObject({ pending: [], changed: [], deleted: [] });

    const server = await serve(perSourceScript);
    const ingest = await runCli(['ingest', 'raw/'], { cwd: clone, env: server.env('anthropic') });
    expect(ingest.code, ingest.stderr).toBe(0);
    expect(server.requests).toHaveLength(0);
    expect(ingest.stdout).toContain('raw/alpha.md is up to date');

    const search = await runCli(['search', 'alpha', '--json'], { cwd: clone });
    expect(search.code, search.stderr).toBe(0);
    expect((JSON.parse(search.stdout) as { results: Array<{ key: string }> }).results.map((r) => r.key)).toContain('alpha');
    expect((await lintJson(clone)).errors).toBe(0);
    const facts = await runCli(['facts', 'search', 'helium', '--json'], { cwd: clone });
    expect(facts.code, facts.stderr).toBe(0);
    expect(facts.stdout).toContain('helium');
    // Nothing the clone rebuilt shows up as a change to commit.
    expect(git(clone, 'status', '--porcelain')).toBe('');
  }, 120_000);
});

describe('two clones ingesting different sources', () => {
  it('merge with plain git merge: no conflict in the record, the index or the log, and lint finds no error', async () => {
    const origin = await teamRepository();
    const ann = await cloneOf(origin);
    const bob = await cloneOf(origin);
    await ingestAndCommit(ann, 'beta', '# Beta\n\nBeta decay emits electrons.\n');
    await ingestAndCommit(bob, 'gamma', '# Gamma\n\nGamma rays are photons.\n');

    git(ann, 'pull', '-q', '--no-rebase', '--no-edit', bob, 'main');
    expect(git(ann, 'status', '--porcelain')).toBe('');
    const record = await readSourceRecord(ann);
    expect(Object.keys(record.sources).sort()).toEqual(['raw/alpha.md', 'raw/beta.md', 'raw/gamma.md']);
    const index = await readFile(path.join(ann, 'wiki/index.md'), 'utf8');
    for (const key of ['alpha', 'beta', 'gamma']) expect(index).toContain(`[[${key}]]`);
    const log = await readFile(path.join(ann, 'wiki/log.md'), 'utf8');
    expect(log).toMatch(/ingest \| beta/);
    expect(log).toMatch(/ingest \| gamma/);
    expect(log).not.toMatch(/^(<{7}|>{7})/m);
    const merged = await lintJson(ann);
    expect(merged.errors).toBe(0);
    // The teammate's log entry is no forgery: its run is in the committed record.
    expect(merged.findings.filter((finding) => finding.rule === 'log-entry')).toEqual([]);

    const status = await runCli(['status', '--json'], { cwd: ann });
    expect((JSON.parse(status.stdout) as { raw: { pending: string[] } }).raw.pending).toEqual([]);
    const server = await serve(perSourceScript);
    expect((await runCli(['ingest', 'raw/'], { cwd: ann, env: server.env('anthropic') })).code).toBe(0);
    expect(server.requests).toHaveLength(0);
  }, 180_000);

  it('a conflicting edit of the same page is git\'s ordinary conflict, and lint names the page left with its markers', async () => {
    const origin = await teamRepository();
    const ann = await cloneOf(origin);
    const bob = await cloneOf(origin);
    const page = 'wiki/sources/alpha.md';
    for (const [clone, words] of [[ann, 'Ann says so.'], [bob, 'Bob disagrees.']] as const) {
      const text = await readFile(path.join(clone, page), 'utf8');
      await writeFile(path.join(clone, page), text.replace('Notes on alpha.', `Notes on alpha. ${words}`));
      git(clone, 'commit', '-qam', words);
    }
    const merge = spawnSync('git', ['pull', '-q', '--no-rebase', '--no-edit', bob, 'main'], { cwd: ann, encoding: 'utf8', env: GIT_ENV });
    expect(merge.status).not.toBe(0);
    expect(git(ann, 'diff', '--name-only', '--diff-filter=U')).toBe(page);
    // Committed as it stands, markers and all.
    git(ann, 'commit', '-qam', 'merged');
    const lint = await lintJson(ann);
    expect(lint.findings).toContainEqual(expect.objectContaining({ rule: 'merge-conflict', path: page, severity: 'error' }));
    expect(lint.findings.filter((finding) => finding.rule === 'merge-conflict')).toHaveLength(1);
  }, 180_000);
});

describe('a workspace from before the committed record', () => {
  it('is migrated on its first run: the record written from .wiki/sources.json, .gitattributes completed, nothing re-ingested', async () => {
    const root = await freshWorkspace();
    await writeFile(path.join(root, 'raw/alpha.md'), '# Alpha\n\nAlpha particles are helium nuclei.\n');
    const server = await serve(perSourceScript);
    expect((await runCli(['ingest', 'raw/'], { cwd: root, env: server.env('anthropic') })).code).toBe(0);
    // Put it back as an older version left it: the manifest only in .wiki/, no attributes.
    const record = await readSourceRecord(root);
    const { rm } = await import('node:fs/promises');
    const legacy = Object.fromEntries(
      Object.values(record.sources).map((line) => [line.path, { sha256: line.sha256, size: line.size, ingestedAt: line.ingestedAt, runId: line.runId, pages: { created: line.created, updated: line.updated } }]),
    );
    await writeFile(path.join(root, '.wiki/sources.json'), JSON.stringify({ version: 1, sources: legacy }));
    await rm(path.join(root, 'wiki.sources.jsonl'));
    await rm(path.join(root, '.gitattributes'));

    const status = await runCli(['status', '--json'], { cwd: root });
    expect(status.code, status.stderr).toBe(0);
    expect((JSON.parse(status.stdout) as { raw: { pending: string[] } }).raw.pending).toEqual([]);
    expect((await readSourceRecord(root)).lines).toEqual(record.lines);
    expect(await readFile(path.join(root, '.gitattributes'), 'utf8')).toMatch(/^wiki\.sources\.jsonl merge=union$/m);
    expect(existsSync(path.join(root, '.wiki/sources.json'))).toBe(false);
    expect(existsSync(path.join(root, '.wiki/sources.json.migrated'))).toBe(true);
    const again = await serve(perSourceScript);
    expect((await runCli(['ingest', 'raw/'], { cwd: root, env: again.env('anthropic') })).code).toBe(0);
    expect(again.requests).toHaveLength(0);
  }, 120_000);
});
