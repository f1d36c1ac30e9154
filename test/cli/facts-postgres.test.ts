import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, it } from 'vitest';
import { hashText } from '../../src/state/hash.js';
import { cloneWorkspace, initWorkspace, runCli } from '../helpers/cli.js';
import { startFakeLlmServer } from '../helpers/fake-llm-server.js';
import { simpleIngest } from './cron-fixtures.js';
import { describeWithPostgres, freshDatabase } from '../helpers/postgres.js';

/**
 * `wiki facts` with `store.kind: postgres`: facts extracted on any clone are in the one
 * database every clone reads, ranked as `.wiki/facts.db` ranks them; an older clone never
 * downgrades or deletes them; a source a clone denies never shows through it.
 */

const HARBOUR = '# Harbours\n\nAlpha harbours hold twelve ships.\nThe northern fleet sails at dawn.\nBeta harbours hold four ships and a lighthouse.\n';
const BREAD = '# Bread\n\nSourdough bread rises slowly with a wild yeast starter.\nRye flour makes a dense loaf.\nThe lighthouse keeper bakes bread every morning.\n';
const GERMAN = '# Häfen\n\nDer Hafen von Kiel beherbergt viele Segelschiffe.\nDie Fischer verkaufen frischen Dorsch am Kai.\nIm Winter frieren die Häfen selten zu.\n';
const CHINESE = '# 港口\n\n上海港是世界上最繁忙的集装箱港口。\n渔民每天早上在码头卖鱼。\n';

interface Hit {
  id: string;
  text: string;
  score: number;
  sources: string[];
}

async function clone(sources: Record<string, string>, kind: 'files' | 'postgres' = 'postgres'): Promise<string> {
  const root = await initWorkspace();
  for (const [file, text] of Object.entries(sources)) await writeFile(path.join(root, file), text);
  if (kind === 'postgres') await setConfig(root, (config) => ({ ...config, store: { kind: 'postgres' } }));
  return root;
}

async function setConfig(root: string, change: (config: Record<string, unknown>) => Record<string, unknown>): Promise<void> {
  const file = path.join(root, 'wiki.config.json');
  await writeFile(file, JSON.stringify(change(JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>), null, 2));
}

async function database(): Promise<{ WIKI_DATABASE_URL: string }> {
  const env = { WIKI_DATABASE_URL: await freshDatabase() };
  const root = await clone({});
  const init = await runCli(['store', 'init'], { cwd: root, env });
  expect(init.code, init.stderr).toBe(0);
  return env;
}

async function search(root: string, query: string, env: Record<string, string> = {}): Promise<Hit[]> {
  const result = await runCli(['facts', 'search', query, '--json', '--limit', '20'], { cwd: root, env });
  expect(result.code, result.stderr).toBe(0);
  return (JSON.parse(result.stdout) as { facts: Hit[] }).facts;
}

const texts = (hits: readonly Hit[]): string[] => hits.map((hit) => hit.text);

const gitAt = (seconds: number): NodeJS.ProcessEnv => {
  const date = `@${seconds} +0000`;
  return { ...process.env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' };
};

/** Commit everything in the checkout at `seconds` since the epoch: the stamp its sources are offered with. */
function commitAt(root: string, seconds: number): void {
  const env = gitAt(seconds);
  execFileSync('git', ['init', '-q'], { cwd: root, env });
  execFileSync('git', ['add', '-A'], { cwd: root, env });
  execFileSync('git', ['commit', '-qm', 'sources', '--allow-empty'], { cwd: root, env });
}

describeWithPostgres('wiki facts on Postgres', () => {
  it('answers `facts search` as the file store does: the same facts, in the same order, with the same scores', async () => {
    const env = await database();
    const root = await clone({ 'raw/harbour.md': HARBOUR, 'raw/bread.md': BREAD, 'raw/hafen.md': GERMAN, 'raw/gang.md': CHINESE }, 'files');
    const queries = ['lighthouse', 'harbours ships', 'bread yeast', 'fleet dawn', 'dense rye loaf', 'the keeper', 'Häfen Segelschiffe', 'Dorsch'];
    const fromFiles: Hit[][] = [];
    for (const query of queries) fromFiles.push(await search(root, query));
    await setConfig(root, (config) => ({ ...config, store: { kind: 'postgres' } }));
    for (const [i, query] of queries.entries()) {
      const fromDatabase = await search(root, query, env);
      expect(fromDatabase.length, query).toBeGreaterThan(0);
      expect(fromDatabase.map((hit) => [hit.id, hit.sources]), query).toEqual(fromFiles[i]!.map((hit) => [hit.id, hit.sources]));
      fromDatabase.forEach((hit, rank) => expect(hit.score, query).toBeCloseTo(fromFiles[i]![rank]!.score, 6));
    }
    const stats = await runCli(['facts', 'stats'], { cwd: root, env });
    expect(stats.stdout).toMatch(/^stored in +database postgres:\/\/postgres@localhost\/wiki_test_\S+$/m);
    expect(stats.stdout).toMatch(/^sources +4$/m);
    const status = await runCli(['status'], { cwd: root, env });
    expect(status.stdout).toMatch(/^Facts: +in Postgres postgres:\/\/\S+: \d+ live fact\(s\) from 4 source\(s\), last write \S+ \(grounding reads this checkout's \.wiki\/facts\.db\)$/m);
  });

  it('finds German and Chinese facts by their words as the analysers read them', async () => {
    const env = await database();
    const root = await clone({ 'raw/hafen.md': GERMAN, 'raw/gang.md': CHINESE });
    // "Häfen" is stated; "Hafen" (the singular) finds both facts by the German stem.
    expect(texts(await search(root, 'Hafen', env))).toEqual(expect.arrayContaining(['Der Hafen von Kiel beherbergt viele Segelschiffe.', 'Im Winter frieren die Häfen selten zu.']));
    expect(texts(await search(root, '集装箱', env))).toEqual(['上海港是世界上最繁忙的集装箱港口。']);
    expect(texts(await search(root, '码头', env))).toEqual(['渔民每天早上在码头卖鱼。']);
  });

  it('a second clone finds the facts extracted on the first, which its own runs leave in place', async () => {
    const env = await database();
    const first = await clone({ 'raw/harbour.md': HARBOUR });
    const synced = await runCli(['store', 'sync'], { cwd: first, env });
    expect(synced.code, synced.stderr).toBe(0);
    expect(synced.stdout).toMatch(/^facts: 1 source\(s\) of raw\/ differing from the database's, 1 newer and stored$/m);
    // A second run has nothing to offer: the database holds this version already.
    expect((await runCli(['store', 'sync'], { cwd: first, env })).stdout).toMatch(/^facts: 0 source\(s\) of raw\/ differing from the database's, 0 newer and stored$/m);
    const second = await clone({ 'raw/bread.md': BREAD });
    const hits = await search(second, 'lighthouse', env);
    expect(hits.map((hit) => hit.sources)).toEqual(expect.arrayContaining([['raw/harbour.md#L5'], ['raw/bread.md#L5']]));
    const shown = await runCli(['facts', 'show', hits.find((hit) => hit.sources[0] === 'raw/harbour.md#L5')!.id, '--json'], { cwd: second, env });
    expect(JSON.parse(shown.stdout)).toMatchObject({ text: 'Beta harbours hold four ships and a lighthouse.', tombstonedAt: null, provenance: [{ source: 'raw/harbour.md', lineStart: 5 }] });
    // The second clone's checkout never had raw/harbour.md: its sync and rebuild delete nothing.
    expect((await runCli(['store', 'sync'], { cwd: second, env })).code).toBe(0);
    expect((await runCli(['facts', 'rebuild'], { cwd: second, env })).code).toBe(0);
    expect(texts(await search(first, 'fleet dawn', env))).toEqual(['The northern fleet sails at dawn.']);
  });

  it('an ingest on one clone puts the source’s facts in the database before any page is written; another clone finds them', async () => {
    const env = await database();
    const first = await clone({ 'raw/harbour.md': HARBOUR });
    const server = await startFakeLlmServer(simpleIngest('harbour'));
    try {
      const ingest = await runCli(['ingest', 'raw/harbour.md', '--json'], { cwd: first, env: { ...env, ...server.env('anthropic') } });
      expect(ingest.code, ingest.stderr).toBe(0);
      expect(JSON.parse(ingest.stdout)).toMatchObject({ facts: { database: { offered: 1, accepted: 1 } } });
    } finally {
      await server.close();
    }
    expect(texts(await search(await clone({}), 'fleet dawn', env))).toEqual(['The northern fleet sails at dawn.']);
  });

  it('query --facts on a clone without the source gives the model the database’s facts, and knows the ids it cites', async () => {
    const env = await database();
    const first = await clone({ 'raw/harbour.md': HARBOUR });
    expect((await runCli(['store', 'sync'], { cwd: first, env })).code).toBe(0);
    const second = await clone({});
    let given: string[] = [];
    const server = await startFakeLlmServer((request) => {
      given = [...(request.lastUserText ?? '').matchAll(/\[\^(f-[0-9a-f]{12})\]/g)].map((m) => m[1] ?? '');
      return { text: `Twelve ships [^${given[0]}].` };
    });
    try {
      const result = await runCli(['query', '--facts', 'How many ships do the alpha harbours hold?', '--json'], { cwd: second, env: { ...env, ...server.env('anthropic') } });
      expect(result.code, result.stderr).toBe(0);
      expect(server.requests[0]?.lastUserText).toContain('Alpha harbours hold twelve ships. (raw/harbour.md#L3)');
      expect(JSON.parse(result.stdout)).toMatchObject({ modelCalled: true, cited: [given[0]], unknown: [] });
    } finally {
      await server.close();
    }
  });

  it('an older clone neither downgrades a source’s facts nor deletes a source it never had; a newer one replaces them', async () => {
    const env = await database();
    // Every `facts` run of a clone offers its versions first: a reader with no sources of its own reads what the database holds.
    const reader = await clone({});
    const older = await clone({ 'raw/harbour.md': HARBOUR });
    commitAt(older, 1_700_000_000);
    const newer = await clone({ 'raw/harbour.md': HARBOUR.replace('twelve ships', 'thirty tankers'), 'raw/bread.md': BREAD });
    commitAt(newer, 1_750_000_000);
    expect((await runCli(['store', 'sync'], { cwd: older, env })).code).toBe(0);
    expect(texts(await search(reader, 'twelve', env))).toEqual(['Alpha harbours hold twelve ships.']);
    // The newer version replaces the older one: its fact is found, the one it no longer states is a tombstone.
    expect((await runCli(['store', 'sync'], { cwd: newer, env })).code).toBe(0);
    expect(texts(await search(reader, 'tankers', env))).toEqual(['Alpha harbours hold thirty tankers.']);
    expect(await search(reader, 'twelve', env)).toEqual([]);
    // The older clone offers its version again, by every way it writes: refused each time.
    for (const args of [['store', 'sync'], ['facts', 'rebuild'], ['facts', 'search', 'twelve']]) {
      const run = await runCli(args, { cwd: older, env });
      expect(run.code, run.stderr).toBe(0);
      expect(await search(reader, 'twelve', env)).toEqual([]);
      expect(texts(await search(reader, 'tankers', env))).toEqual(['Alpha harbours hold thirty tankers.']);
      expect(texts(await search(reader, 'sourdough', env))).toEqual(['Sourdough bread rises slowly with a wild yeast starter.']);
    }
  });

  it('a merge that resolves a source is its newest version: stamped with the merge, not with the branch commit it resolved', async () => {
    const env = await database();
    const reader = await clone({});
    const ours = await clone({ 'raw/harbour.md': HARBOUR });
    commitAt(ours, 1_700_000_000);
    const theirs = await cloneWorkspace(ours);
    const theirText = HARBOUR.replace('twelve ships', 'nine barges');
    await writeFile(path.join(theirs, 'raw/harbour.md'), theirText);
    commitAt(theirs, 1_720_000_000);
    expect((await runCli(['store', 'sync'], { cwd: theirs, env })).code).toBe(0);
    await writeFile(path.join(ours, 'raw/harbour.md'), HARBOUR.replace('twelve ships', 'seven ferries'));
    commitAt(ours, 1_710_000_000);
    // A resolution hashing below theirs: stamped with their commit's time, it would lose the tie.
    let resolved = '';
    for (let n = 1; !resolved; n++) {
      const candidate = HARBOUR.replace('twelve ships', `${n} ferries and barges`);
      if (hashText(candidate) < hashText(theirText)) resolved = candidate;
    }
    const at = gitAt(1_730_000_000);
    execFileSync('git', ['fetch', '-q', theirs, 'HEAD'], { cwd: ours, env: at, stdio: 'pipe' });
    try {
      execFileSync('git', ['merge', '-q', 'FETCH_HEAD'], { cwd: ours, env: at, stdio: 'pipe' });
    } catch {
      // The conflict this test makes: resolved below.
    }
    await writeFile(path.join(ours, 'raw/harbour.md'), resolved);
    execFileSync('git', ['add', 'raw/harbour.md'], { cwd: ours, env: at });
    execFileSync('git', ['commit', '-qm', 'merge', '--no-edit'], { cwd: ours, env: at });
    expect((await runCli(['store', 'sync'], { cwd: ours, env })).code).toBe(0);
    expect(texts(await search(reader, 'ferries barges', env))).toEqual([resolved.split('\n')[2]]);
    expect(await search(reader, 'nine', env)).toEqual([]);
  });

  it('`wiki rm` tombstones a source’s facts in the database, and a clone still holding the committed source does not bring them back', async () => {
    const env = await database();
    const first = await clone({ 'raw/harbour.md': HARBOUR, 'raw/bread.md': BREAD });
    commitAt(first, 1_700_000_000);
    const second = await cloneWorkspace(first);
    expect((await runCli(['store', 'sync'], { cwd: second, env })).code).toBe(0);
    expect(texts(await search(first, 'sourdough', env))).toEqual(['Sourdough bread rises slowly with a wild yeast starter.']);
    const removed = await runCli(['rm', 'raw/bread.md'], { cwd: first, env });
    expect(removed.code, removed.stderr).toBe(0);
    expect(await search(first, 'sourdough', env)).toEqual([]);
    for (const args of [['store', 'sync'], ['facts', 'rebuild']]) expect((await runCli(args, { cwd: second, env })).code).toBe(0);
    expect(await search(second, 'sourdough', env)).toEqual([]);
    const stats = await runCli(['facts', 'stats', '--json'], { cwd: second, env });
    expect(JSON.parse(stats.stdout)).toMatchObject({ live: 3, tombstoned: 3, sources: 1 });
    // Once committed, the deletion is offered with its commit's time by any clone at that commit.
    commitAt(first, 1_720_000_000);
    const third = await cloneWorkspace(first);
    expect((await runCli(['store', 'sync'], { cwd: third, env })).code).toBe(0);
    expect(await search(third, 'sourdough', env)).toEqual([]);
    // A later version of the source, added again, is newer than the deletion.
    await writeFile(path.join(first, 'raw/bread.md'), BREAD.replace('wild yeast', 'barm'));
    commitAt(first, 2_000_000_000);
    expect(texts(await search(first, 'barm', env))).toEqual(['Sourdough bread rises slowly with a barm starter.']);
  });

  it('a source this clone denies never shows through it, though another clone put its facts in the database', async () => {
    const env = await database();
    const open = await clone({ 'raw/harbour.md': HARBOUR, 'raw/payroll.md': '# Pay\n\nThe harbour master earns ninety thousand a year.\n' });
    const hits = await search(open, 'master earns ninety', env);
    expect(texts(hits)).toEqual(['The harbour master earns ninety thousand a year.']);
    const guarded = await clone({});
    await setConfig(guarded, (config) => ({ ...config, sandbox: { deny: ['payroll*'] } }));
    expect(await search(guarded, 'master earns ninety', env)).toEqual([]);
    const shown = await runCli(['facts', 'show', hits[0]!.id], { cwd: guarded, env });
    expect(shown.code).not.toBe(0);
    expect(shown.stdout).not.toContain('ninety');
    expect(shown.stderr).toMatch(/no fact with id/);
    // Its other facts are there as for anyone.
    expect(texts(await search(guarded, 'fleet dawn', env))).toEqual(['The northern fleet sails at dawn.']);
  });

  it('an unreachable database is exit 2 naming it for every facts command, never an answer from .wiki/facts.db', async () => {
    const root = await clone({ 'raw/harbour.md': HARBOUR }, 'files');
    expect((await search(root, 'lighthouse')).length).toBe(1);
    expect((await runCli(['facts', 'stats'], { cwd: root })).stdout).toMatch(/^stored in +\.wiki\/facts\.db$/m);
    await setConfig(root, (config) => ({ ...config, store: { kind: 'postgres' } }));
    const env = { WIKI_DATABASE_URL: 'postgres://wiki:hunter2@127.0.0.1:1/teamwiki' };
    for (const args of [['facts', 'search', 'lighthouse'], ['facts', 'stats'], ['facts', 'rebuild'], ['facts', 'show', 'f-000000000000']]) {
      const result = await runCli(args, { cwd: root, env });
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(/^error: database postgres:\/\/wiki@127\.0\.0\.1:1\/teamwiki unreachable/m);
      expect(result.stderr).not.toContain('hunter2');
      expect(result.stdout).not.toContain('lighthouse');
    }
  });
});
