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
