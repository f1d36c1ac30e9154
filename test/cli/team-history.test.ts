import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import type { RecordedRequest, ScriptStep } from '../helpers/fake-llm-server.js';
import { fakeServers, freshWorkspace, sourceOf, writeStep } from './cron-fixtures.js';

/**
 * The log two clones write merges entry by entry under git's own union merge (no merge
 * driver: a clone may never have run the tool), and a teammate's entries that arrive with a
 * pull are the teammate's, not forgeries. Real clones, real merges.
 */

const serve = fakeServers();
const GIT_ENV = { ...process.env, GIT_AUTHOR_NAME: 'T', GIT_AUTHOR_EMAIL: 't@example.org', GIT_COMMITTER_NAME: 'T', GIT_COMMITTER_EMAIL: 't@example.org' };
const RUN_LINE = /^- run: (\S+)/;

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: GIT_ENV }).trim();
}

function perSourceScript(request: RecordedRequest): ScriptStep {
  const key = sourceOf(request) ?? 'unknown';
  return request.toolResults.length > 0 ? { text: `Ingested ${key}.` } : writeStep('source', key);
}

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

/** Drop the alpha line from the catalog, so `lint --fix --no-llm` has one repair to make. */
async function breakCatalog(root: string): Promise<void> {
  const file = path.join(root, 'wiki/index.md');
  const text = await readFile(file, 'utf8');
  await writeFile(file, text.split('\n').filter((line) => !line.includes('[[alpha]]')).join('\n'));
}

async function lintFixAndCommit(root: string): Promise<void> {
  await breakCatalog(root);
  const fix = await runCli(['lint', '--fix', '--no-llm'], { cwd: root });
  expect(fix.stdout + fix.stderr).toMatch(/Repaired \(1\)/);
  git(root, 'commit', '-qam', 'lint --fix');
}

interface Entry {
  heading: string;
  lines: string[];
}

function entriesOf(log: string): Entry[] {
  const entries: Entry[] = [];
  for (const line of log.split('\n')) {
    if (line.startsWith('## [')) entries.push({ heading: line, lines: [] });
    else if (line !== '') entries.at(-1)?.lines.push(line);
  }
  return entries;
}

async function logEntryFindings(root: string): Promise<Array<{ message: string; line?: number }>> {
  const lint = await runCli(['lint', '--json'], { cwd: root });
  const report = JSON.parse(lint.stdout) as { findings: Array<{ rule: string; message: string; line?: number }> };
  return report.findings.filter((finding) => finding.rule === 'log-entry');
}

describe('two clones\' same-day lint --fix entries with the same title', () => {
  it('merge under git\'s union merge into two whole entries, and lint finds nothing wrong with the log', async () => {
    const origin = await teamRepository();
    const ann = await cloneOf(origin);
    const bob = await cloneOf(origin);
    await lintFixAndCommit(ann);
    await lintFixAndCommit(bob);
    const annEntry = entriesOf(await readFile(path.join(ann, 'wiki/log.md'), 'utf8')).at(-1);
    const bobEntry = entriesOf(await readFile(path.join(bob, 'wiki/log.md'), 'utf8')).at(-1);
    expect(annEntry?.heading).toMatch(/\] lint \| --fix applied 1 repair · run \S+$/);
    expect(annEntry?.heading.replace(/ · run \S+$/, '')).toBe(bobEntry?.heading.replace(/ · run \S+$/, ''));

    // The merge is git's own union: .gitattributes names no driver of ours.
    expect(await readFile(path.join(ann, '.gitattributes'), 'utf8')).toMatch(/^wiki\/log\.md merge=union$/m);
    git(ann, 'pull', '-q', '--no-rebase', '--no-edit', bob, 'main');
    expect(git(ann, 'status', '--porcelain')).toBe('');
    const merged = entriesOf(await readFile(path.join(ann, 'wiki/log.md'), 'utf8'));
    for (const entry of [annEntry, bobEntry]) expect(merged).toContainEqual(entry);
    // Every entry whole: its heading, then its own run line, nothing else.
    for (const entry of merged.filter((e) => / · run /.test(e.heading))) {
      expect(entry.lines).toHaveLength(1);
      expect(RUN_LINE.exec(entry.lines[0] ?? '')?.[1]).toBe(/ · run (\S+)$/.exec(entry.heading)?.[1]);
    }
    expect(await logEntryFindings(ann)).toEqual([]);
    const strict = await runCli(['lint', '--strict'], { cwd: ann });
    expect(strict.stdout + strict.stderr).not.toMatch(/log-entry|matches no run/);
  }, 240_000);

  it('older clones\' entries, merged by the same union, are reported: one heading holding both runs', async () => {
    const origin = await teamRepository();
    const ann = await cloneOf(origin);
    const bob = await cloneOf(origin);
    // What an older version appended: blank line, heading, run line, a bullet per detail.
    for (const [clone, run] of [[ann, '20261201-100000-aaaaaa'], [bob, '20261201-100000-bbbbbb']] as const) {
      const file = path.join(clone, 'wiki/log.md');
      await writeFile(file, `${await readFile(file, 'utf8')}\n## [2026-12-01] lint | --fix applied 1 repair\n- run: ${run}\n- status: ok\n`);
      git(clone, 'commit', '-qam', 'an older version\'s lint --fix');
    }
    git(ann, 'pull', '-q', '--no-rebase', '--no-edit', bob, 'main');
    const findings = await logEntryFindings(ann);
    expect(findings.map((f) => f.message)).toEqual([expect.stringMatching(/holds 2 "- run:" lines: a merge kept the same heading of 2 entries once/)]);
  }, 240_000);
});

describe('a teammate\'s entries after a pull', () => {
  it('query --save and lint --fix entries are recognised from the committed log; an uncommitted forged entry is still reported', async () => {
    const origin = await teamRepository();
    const ann = await cloneOf(origin);
    const bob = await cloneOf(origin);
    await lintFixAndCommit(ann); // ann's clone now keeps a ledger of its own entries
    await lintFixAndCommit(bob);
    const server = await serve([{ text: 'Alpha particles are helium nuclei; see [[alpha]].' }]);
    const query = await runCli(['query', 'what are alpha particles?', '--save'], { cwd: bob, env: server.env('anthropic') });
    expect(query.code, query.stderr).toBe(0);
    git(bob, 'add', '-A');
    git(bob, 'commit', '-qm', 'saved an answer');
    expect(await readFile(path.join(bob, 'wiki/log.md'), 'utf8')).toMatch(/\] query \| what are alpha particles\? · run /);

    git(ann, 'pull', '-q', '--no-rebase', '--no-edit', bob, 'main');
    expect(await logEntryFindings(ann)).toEqual([]);
    const strict = await runCli(['lint', '--strict'], { cwd: ann });
    expect(strict.stdout + strict.stderr).not.toMatch(/matches no run/);

    // Not committed, written by hand: no run of this clone wrote it and no commit holds it.
    const file = path.join(ann, 'wiki/log.md');
    await writeFile(file, `${await readFile(file, 'utf8')}## [2026-12-01] ingest | forged · run 20261201-000000-ffffff\n- run: 20261201-000000-ffffff · status: done\n`);
    expect((await logEntryFindings(ann)).map((f) => f.message)).toEqual([expect.stringMatching(/forged .*matches no run the tool recorded/)]);
  }, 240_000);
});

interface StatusJson {
  pages: { total: number };
  raw: { ingested: number };
  ingestUsage: { runs: number; tokens: { inputTokens: number } };
  search: { built: boolean; pages?: number };
  searchBehind?: { pagesNow: number };
  grounding?: { claims: number; share: number | null };
  recentLog: Array<{ title: string }>;
}

async function statusOf(root: string, ...args: string[]): Promise<{ json: StatusJson; text: string }> {
  const json = await runCli([...args, 'status', '--json'], { cwd: root });
  expect(json.code, json.stderr).toBe(0);
  const text = await runCli([...args, 'status'], { cwd: root });
  return { json: JSON.parse(json.stdout) as StatusJson, text: text.stdout };
}

describe('wiki status after a clone and a merge', () => {
  it('a fresh clone reads "Per source" from the committed record; right after a merge the index says it is behind, and a search brings it level', async () => {
    const origin = await teamRepository();
    const ann = await cloneOf(origin);
    const bob = await cloneOf(origin);

    const fresh = await statusOf(ann);
    expect(fresh.json.raw.ingested).toBe(1);
    expect(fresh.text).toMatch(/Per source: 1 source\(s\) ingested per the committed record/);
    expect(fresh.text).not.toMatch(/no source ingested yet/);

    expect((await runCli(['search', 'alpha'], { cwd: ann })).code).toBe(0); // ann's index: alpha
    await writeFile(path.join(bob, 'raw/gamma.md'), '# Gamma\n\nGamma rays are photons.\n');
    const server = await serve(perSourceScript);
    expect((await runCli(['ingest', 'raw/gamma.md'], { cwd: bob, env: server.env('anthropic') })).code).toBe(0);
    git(bob, 'add', '-A');
    git(bob, 'commit', '-qm', 'gamma');
    git(ann, 'pull', '-q', '--no-rebase', '--no-edit', bob, 'main');

    const merged = await statusOf(ann);
    expect(merged.json.pages.total).toBe(2);
    expect(merged.json.search.pages).toBe(1);
    expect(merged.json.searchBehind).toEqual({ pagesNow: 2 });
    expect(merged.text).toMatch(/1 pages indexed .*out of date: 2 page\(s\) in wiki\/ now/);
    expect(merged.text).toMatch(/Per source: 2 source\(s\) ingested per the committed record/);

    // Good work: once a search has brought the index up to date, the figures agree and nothing is said.
    expect((await runCli(['search', 'gamma'], { cwd: ann })).code).toBe(0);
    const level = await statusOf(ann);
    expect(level.json.search.pages).toBe(level.json.pages.total);
    expect(level.json.searchBehind).toBeUndefined();
    expect(level.text).not.toMatch(/out of date/);
  }, 240_000);
});

describe('wiki status figures', () => {
  it('a run that failed before spending a token is left out of the per-source mean; a clone\'s own ingests are the mean', async () => {
    const root = await freshWorkspace();
    await writeFile(path.join(root, 'raw/alpha.md'), '# Alpha\n\nAlpha particles are helium nuclei.\n');
    const ok = await serve(perSourceScript);
    expect((await runCli(['ingest', 'raw/alpha.md'], { cwd: root, env: ok.env('anthropic') })).code).toBe(0);
    const one = (await statusOf(root)).json.ingestUsage;
    expect(one.runs).toBe(1);
    await writeFile(path.join(root, 'raw/beta.md'), '# Beta\n\nBeta decay emits electrons.\n');
    const failing = await serve([{ fault: 'status', status: 401 }]);
    const failed = await runCli(['ingest', 'raw/beta.md'], { cwd: root, env: failing.env('anthropic') });
    expect(failed.code).not.toBe(0);
    const after = await statusOf(root);
    expect(after.json.ingestUsage).toEqual(one);
    expect(after.text).toMatch(/mean over 1 source ingest\b/);
  }, 120_000);

  it('"Grounded" is n/a when the pages hold no claim sentence, never "100% of 0"', async () => {
    const root = await freshWorkspace();
    await writeFile(path.join(root, 'raw/alpha.md'), '# Alpha\n\nAlpha particles are helium nuclei.\n');
    const server = await serve([writeStep('source', 'alpha', { body: '## Alpha' }), { text: 'Done.' }]);
    expect((await runCli(['ingest', 'raw/alpha.md'], { cwd: root, env: server.env('anthropic') })).code).toBe(0);
    const { json, text } = await statusOf(root);
    expect(json.grounding).toMatchObject({ claims: 0, share: null });
    expect(text).toMatch(/Grounded: n\/a \(no claim sentence to check on 1 page\(s\)\)/);
    expect(text).not.toMatch(/% of 0 claim/);
  }, 120_000);

  it('without --user names no page of a scratch scope, not even in a log title; with --user alice, hers', async () => {
    const root = await freshWorkspace();
    await writeFile(path.join(root, 'raw/alpha.md'), '# Alpha\n\nAlpha particles are helium nuclei.\n');
    const server = await serve([writeStep('source', 'alpha'), { text: 'Done.' }]);
    expect((await runCli(['ingest', 'raw/alpha.md'], { cwd: root, env: server.env('anthropic') })).code).toBe(0);
    const { mkdir } = await import('node:fs/promises');
    await mkdir(path.join(root, 'wiki/user/alice/concepts'), { recursive: true });
    const { pageText } = await import('./cron-fixtures.js');
    await writeFile(path.join(root, 'wiki/user/alice/concepts/secret-plan.md'), pageText('concept', 'secret-plan', { sources: ['raw/alpha.md'], body: 'Alpha particles are helium nuclei.' }));
    await writeFile(path.join(root, 'wiki/user/alice/concepts/other-plan.md'), pageText('concept', 'other-plan', { sources: ['raw/alpha.md'], body: 'Alpha particles are helium nuclei.' }));
    expect((await runCli(['--user', 'alice', 'promote', 'other-plan'], { cwd: root })).code).toBe(0);
    // A page alice's scope holds, marked stale: the status lists would name it.
    const file = path.join(root, 'wiki/user/alice/concepts/secret-plan.md');
    await writeFile(file, (await readFile(file, 'utf8')).replace('created:', 'stale_since: 2026-11-30\ncreated:'));

    const team = await statusOf(root);
    expect(JSON.stringify(team.json)).not.toContain('wiki/user/alice');
    expect(team.text).not.toContain('wiki/user/alice');
    expect(team.json.pages.total).toBe(2);
    const alice = await statusOf(root, '--user', 'alice');
    expect(alice.json.pages.total).toBe(3);
    expect(alice.text).toContain('wiki/user/alice/concepts/secret-plan.md');
  }, 120_000);
});
