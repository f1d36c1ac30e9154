import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hashTree, runCli } from '../helpers/cli.js';
import { fakeServers, freshWorkspace, manifestSources, pagePath, pageText, patchConfig, read, simpleIngest, writeStep } from './cron-fixtures.js';

/**
 * Review before it lands: a run under --review leaves a proposal instead of changing wiki/;
 * `wiki review` lists, shows, accepts and rejects it page by page.
 */

const serve = fakeServers();

interface ListJson {
  proposals: Array<{ id: string; command: string; pages: Array<{ path: string; change: string }>; created: string }>;
}

/** Everything outside .wiki/: what a run under review must leave alone. */
async function outsideState(root: string): Promise<Map<string, string>> {
  return new Map([...(await hashTree(root))].filter(([file]) => !file.startsWith('.wiki')));
}

async function list(root: string, env: Record<string, string | undefined> = {}): Promise<ListJson> {
  const result = await runCli(['review', '--json'], { cwd: root, env });
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as ListJson;
}

/** A workspace with one real ingest behind it (raw/beta.md → wiki/sources/beta.md). */
async function ingestedWorkspace(): Promise<string> {
  const root = await freshWorkspace();
  await writeFile(path.join(root, 'raw/beta.md'), '# Beta\n\nBeta is a dataset.\n');
  const server = await serve(simpleIngest('beta', { body: 'Beta is a dataset.' }));
  const result = await runCli(['ingest', 'raw/beta.md'], { cwd: root, env: server.env('anthropic') });
  if (result.code !== 0) throw new Error(`setup ingest failed: ${result.stdout}${result.stderr}`);
  return root;
}

/** An ingest of raw/alpha.md writing three pages: the source page, linking to two new concepts. */
const THREE_PAGES = [
  {
    toolCalls: [
      { name: 'write_file', arguments: { path: pagePath('concept', 'gamma'), content: pageText('concept', 'gamma', { sources: ['raw/alpha.md'], body: 'Gamma is a measure.' }) } },
      { name: 'write_file', arguments: { path: pagePath('concept', 'delta'), content: pageText('concept', 'delta', { sources: ['raw/alpha.md'], body: 'Delta is a change.' }) } },
    ],
  },
  writeStep('source', 'alpha', { refs: ['gamma'], body: 'Alpha builds on [[gamma]] and [[beta]].' }),
  { text: 'Ingested raw/alpha.md.' },
];

async function proposeAlpha(root: string): Promise<{ id: string; stdout: string; stderr: string }> {
  await writeFile(path.join(root, 'raw/alpha.md'), '# Alpha\n\nAlpha builds on gamma and beta.\n');
  const server = await serve(THREE_PAGES);
  const result = await runCli(['ingest', 'raw/alpha.md', '--review', '--json'], { cwd: root, env: server.env('anthropic') });
  expect(result.code, result.stderr).toBe(0);
  expect(server.remaining()).toBe(0);
  const report = JSON.parse(result.stdout) as { proposals: ListJson['proposals']; proposalsWaiting: number };
  expect(report.proposals).toHaveLength(1);
  return { id: report.proposals[0]?.id ?? '', stdout: result.stdout, stderr: result.stderr };
}

describe('wiki ingest --review', () => {
  it('writes a proposal, not wiki/ (nor the ingest record); the listing, status and search see it as waiting only', async () => {
    const root = await ingestedWorkspace();
    await writeFile(path.join(root, 'raw/alpha.md'), '# Alpha\n\nAlpha builds on gamma and beta.\n');
    const before = await outsideState(root);
    const server = await serve(THREE_PAGES);
    const result = await runCli(['ingest', 'raw/alpha.md', '--review'], { cwd: root, env: server.env('anthropic') });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/proposal \S+ waits: 3 page\(s\)/);
    expect(result.stdout).toContain('1 proposal waits for review (wiki review)');
    expect(await outsideState(root)).toEqual(before);
    expect(await manifestSources(root)).toEqual(['raw/beta.md']);

    const listed = await list(root);
    expect(listed.proposals).toEqual([
      {
        id: expect.stringMatching(/^\d{8}-\d{6}-[0-9a-f]{6}$/),
        command: 'ingest',
        pages: [
          { path: 'wiki/concepts/delta.md', change: 'created' },
          { path: 'wiki/concepts/gamma.md', change: 'created' },
          { path: 'wiki/sources/alpha.md', change: 'created' },
        ],
        created: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
    ]);
    const status = await runCli(['status', '--json'], { cwd: root });
    expect(JSON.parse(status.stdout).proposals).toEqual(listed.proposals);
    expect((await runCli(['status'], { cwd: root })).stdout).toContain('1 proposal waits (3 page(s))');
    const search = await runCli(['search', 'gamma measure', '--json'], { cwd: root });
    expect(search.stdout).not.toContain('gamma.md');
  });

  it('accept lands every page as one undoable run with one log entry, and records the source; undo takes it back', async () => {
    const root = await ingestedWorkspace();
    const { id } = await proposeAlpha(root);
    const before = await hashTree(root);
    const logBefore = await read(root, 'wiki/log.md');

    const accepted = await runCli(['review', 'accept', id, '--json'], { cwd: root });
    expect(accepted.code, accepted.stderr).toBe(0);
    const report = JSON.parse(accepted.stdout);
    expect(report).toMatchObject({ id, refused: [], remaining: 0, recordedSource: 'raw/alpha.md' });
    expect(report.accepted.map((a: { path: string }) => a.path)).toEqual(['wiki/concepts/delta.md', 'wiki/concepts/gamma.md', 'wiki/sources/alpha.md']);
    expect(await read(root, 'wiki/sources/alpha.md')).toContain('Alpha builds on [[gamma]] and [[beta]].');
    const index = await read(root, 'wiki/index.md');
    for (const key of ['alpha', 'gamma', 'delta']) expect(index).toContain(`[[${key}]]`);
    const added = (await read(root, 'wiki/log.md')).slice(logBefore.length);
    expect(added.match(/^## \[/gm)).toHaveLength(1);
    expect(added).toContain(`accepted from proposal ${id}: 3 of 3 page(s)`);
    expect(added).toContain(`run: ${report.runId}`);
    expect(await manifestSources(root)).toEqual(['raw/alpha.md', 'raw/beta.md']);
    expect((await list(root)).proposals).toEqual([]);

    const lint = await runCli(['lint', '--no-llm', '--json'], { cwd: root });
    expect(JSON.parse(lint.stdout).errors).toBe(0);

    const undone = await runCli(['undo', report.runId, '--yes'], { cwd: root });
    expect(undone.code, undone.stderr).toBe(0);
    expect(existsSync(path.join(root, 'wiki/sources/alpha.md'))).toBe(false);
    expect(existsSync(path.join(root, 'wiki/concepts/gamma.md'))).toBe(false);
    expect(await manifestSources(root)).toEqual(['raw/beta.md']);
    const after = await hashTree(root);
    for (const file of ['wiki/index.md', 'wiki.sources.jsonl', 'wiki/sources/beta.md']) expect(after.get(file)).toEqual(before.get(file));
  });
});

describe('wiki review accept / reject, page by page', () => {
  it('a page linking to a new page left out is refused with the reason, nothing written; the rest lands; a reject writes nothing', async () => {
    const root = await ingestedWorkspace();
    const { id } = await proposeAlpha(root);
    const before = await outsideState(root);

    const refused = await runCli(['review', 'accept', id, 'wiki/sources/alpha.md'], { cwd: root });
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain('Not accepted: nothing was written.');
    expect(refused.stdout).toContain('wiki/sources/alpha.md: it links to wiki/concepts/gamma.md, a new page of this proposal not accepted with it');
    expect(refused.stdout).toMatch(/^ {4}- broken-link.*\[\[gamma\]\]/m);
    expect(await outsideState(root)).toEqual(before);
    expect((await list(root)).proposals[0]?.pages).toHaveLength(3);

    // By key as well as by path: delta links nowhere, so it lands alone.
    const one = await runCli(['review', 'accept', id, 'delta', '--json'], { cwd: root });
    expect(one.code, one.stderr).toBe(0);
    expect(JSON.parse(one.stdout)).toMatchObject({ accepted: [{ path: 'wiki/concepts/delta.md', change: 'created' }], remaining: 2 });
    const index = await read(root, 'wiki/index.md');
    expect(index).toContain('[[delta]]');
    expect(index).not.toContain('[[alpha]]');
    // Not a page citing the source as its source page yet: a concept citing it records it, the next ingest sees it done.
    expect((await list(root)).proposals[0]?.pages.map((p) => p.path)).toEqual(['wiki/concepts/gamma.md', 'wiki/sources/alpha.md']);

    const landed = await outsideState(root);
    const logBefore = await read(root, 'wiki/log.md');
    const rejected = await runCli(['review', 'reject', id, 'gamma', '--json'], { cwd: root });
    expect(rejected.code, rejected.stderr).toBe(0);
    expect(JSON.parse(rejected.stdout)).toEqual({ id, rejected: ['wiki/concepts/gamma.md'], remaining: 1 });
    const all = await runCli(['review', 'reject', id], { cwd: root });
    expect(all.code, all.stderr).toBe(0);
    expect(all.stdout).toContain('wiki/ is unchanged');
    expect(await outsideState(root)).toEqual(landed);
    expect(await read(root, 'wiki/log.md')).toEqual(logBefore);
    expect((await list(root)).proposals).toEqual([]);
  });

  it('show colours the diff where colour is on, and is plain with NO_COLOR', async () => {
    const root = await ingestedWorkspace();
    const { id } = await proposeAlpha(root);
    const coloured = await runCli(['review', 'show', id, 'gamma'], { cwd: root, env: { FORCE_COLOR: '1', NO_COLOR: undefined } });
    expect(coloured.stdout).toContain('\x1b[32m+Gamma is a measure.');
    expect(coloured.stdout).not.toContain('wiki/sources/alpha.md');
    const plain = await runCli(['review', 'show', id, 'gamma'], { cwd: root, env: { FORCE_COLOR: '1', NO_COLOR: '1' } });
    expect(plain.stdout).not.toContain('\x1b[');
    expect(plain.stdout).toContain('\n+Gamma is a measure.\n');
  });

  it('a page the proposal does not name, an unknown proposal, a path out of wiki/: usage errors (exit 2)', async () => {
    const root = await ingestedWorkspace();
    const { id } = await proposeAlpha(root);
    const noPage = await runCli(['review', 'accept', id, 'nosuch'], { cwd: root });
    expect(noPage.code).toBe(2);
    expect(noPage.stderr).toContain(`proposal ${id} has no page "nosuch"`);
    expect((await runCli(['review', 'show', '20200101-000000-abcdef'], { cwd: root })).code).toBe(2);
    const traversal = await runCli(['review', 'accept', '../../schema'], { cwd: root });
    expect(traversal.code).toBe(2);
    // Under review raw/ does not change either: a file from outside is not copied in.
    const elsewhere = path.join(path.dirname(root), `${path.basename(root)}-outside.md`);
    await writeFile(elsewhere, '# Outside\n\nOutside.\n');
    const before = await outsideState(root);
    const copied = await runCli(['ingest', elsewhere, '--review'], { cwd: root });
    expect(copied.code).toBe(2);
    expect(copied.stderr).toContain('--review ingests sources already in raw/');
    expect(await outsideState(root)).toEqual(before);
  });
});

/** raw/beta.md changed; the run updates the beta page's body line. */
async function proposeBetaUpdate(root: string): Promise<string> {
  await writeFile(path.join(root, 'raw/beta.md'), '# Beta\n\nBeta is a dataset of images.\n');
  const server = await serve(simpleIngest('beta', { body: 'Beta is a dataset of images.' }));
  const result = await runCli(['ingest', 'raw/beta.md', '--review', '--json'], { cwd: root, env: server.env('anthropic') });
  expect(result.code, result.stderr).toBe(0);
  const report = JSON.parse(result.stdout) as { proposals: ListJson['proposals'] };
  expect(report.proposals[0]?.pages).toEqual([{ path: 'wiki/sources/beta.md', change: 'updated' }]);
  return report.proposals[0]?.id ?? '';
}

describe('a page changed on disk since the proposal', () => {
  it('merges when the edit is elsewhere on the page, keeping the human line', async () => {
    const root = await ingestedWorkspace();
    const id = await proposeBetaUpdate(root);
    const page = await read(root, 'wiki/sources/beta.md');
    await writeFile(path.join(root, 'wiki/sources/beta.md'), page.replace(/^title: .*$/m, 'title: Beta, the image dataset'));

    const show = await runCli(['review', 'show', id, '--json'], { cwd: root });
    expect(JSON.parse(show.stdout).pages[0]).toMatchObject({ path: 'wiki/sources/beta.md', state: 'merges' });
    const accepted = await runCli(['review', 'accept', id, '--json'], { cwd: root });
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(JSON.parse(accepted.stdout).accepted).toEqual([{ path: 'wiki/sources/beta.md', change: 'updated', merged: true }]);
    const now = await read(root, 'wiki/sources/beta.md');
    expect(now).toContain('title: Beta, the image dataset');
    expect(now).toContain('Beta is a dataset of images.');
  });

  it('is refused with the diff of what changed when the edit is in the lines the proposal changes; nothing is written', async () => {
    const root = await ingestedWorkspace();
    const id = await proposeBetaUpdate(root);
    const page = await read(root, 'wiki/sources/beta.md');
    await writeFile(path.join(root, 'wiki/sources/beta.md'), page.replace('Beta is a dataset.', 'Beta is a small dataset, says Ada.'));
    const before = await outsideState(root);
    const runsBefore = (await runCli(['undo', '--list', '--json'], { cwd: root })).stdout;

    const show = await runCli(['review', 'show', id, '--json'], { cwd: root });
    expect(JSON.parse(show.stdout).pages[0]).toMatchObject({ state: 'conflicts', changedSince: expect.stringContaining('+Beta is a small dataset, says Ada.') });
    const refused = await runCli(['review', 'accept', id, '--json'], { cwd: root });
    expect(refused.code).toBe(1);
    const report = JSON.parse(refused.stdout);
    expect(report.accepted).toEqual([]);
    expect(report.refused[0]).toMatchObject({ path: 'wiki/sources/beta.md', reason: expect.stringContaining('changed since the proposal was made') });
    expect(report.refused[0].diff).toContain('-Beta is a dataset.\n+Beta is a small dataset, says Ada.');
    expect(await outsideState(root)).toEqual(before);
    // A refused accept is no run: nothing in history for `wiki undo` to find.
    expect((await runCli(['undo', '--list', '--json'], { cwd: root })).stdout).toEqual(runsBefore);
    expect(await read(root, 'wiki/sources/beta.md')).toContain('says Ada.');
  });
});

describe('query --save --review and lint --fix --review', () => {
  it('query --save: the answer page waits in a proposal; rejected, wiki/ never changed', async () => {
    const root = await ingestedWorkspace();
    const before = await outsideState(root);
    const server = await serve([{ toolCalls: [{ name: 'search_wiki', arguments: { query: 'beta dataset' } }] }, { text: 'Beta is a dataset [[beta]].' }]);
    const result = await runCli(['query', 'what is beta?', '--save', '--review', '--json'], { cwd: root, env: server.env('anthropic') });
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.diff).toBeUndefined();
    expect(report.proposals).toEqual([{ id: expect.any(String), command: 'query', pages: [{ path: 'wiki/concepts/what-is-beta.md', change: 'created' }], created: expect.any(String) }]);
    expect(report.proposalsWaiting).toBe(1);
    expect(await outsideState(root)).toEqual(before);

    const shown = await runCli(['review', 'show', '--json'], { cwd: root });
    const view = JSON.parse(shown.stdout);
    expect(view).toMatchObject({ id: report.proposals[0].id, command: 'query', title: 'what is beta?' });
    expect(view.pages[0]).toMatchObject({ path: 'wiki/concepts/what-is-beta.md', change: 'created', state: 'as-proposed' });
    expect(view.pages[0].diff).toContain('+Beta is a dataset [[beta]].');

    const rejected = await runCli(['review', 'reject', report.proposals[0].id, '--json'], { cwd: root });
    expect(JSON.parse(rejected.stdout)).toEqual({ id: report.proposals[0].id, rejected: ['wiki/concepts/what-is-beta.md'], remaining: 0 });
    expect(await outsideState(root)).toEqual(before);
  });

  it('query without --save under `review: true` is an ordinary query: no proposal, no review notice', async () => {
    const root = await ingestedWorkspace();
    await patchConfig(root, { review: true });
    const server = await serve([{ text: 'Beta is a dataset [[beta]].' }]);
    const result = await runCli(['query', 'what is beta?'], { cwd: root, env: server.env('anthropic') });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout + result.stderr).not.toContain('proposal');
    expect((await list(root)).proposals).toEqual([]);
  });

  it("lint --fix: the rules' own repairs wait in the proposal; accepted, they land as one run", async () => {
    const root = await ingestedWorkspace();
    const beta = await read(root, 'wiki/sources/beta.md');
    // Fields out of the contract's order: a repair the rules make themselves.
    const reordered = beta.replace(/^(title: .*)\n(summary: .*)$/m, '$2\n$1');
    expect(reordered).not.toEqual(beta);
    await writeFile(path.join(root, 'wiki/sources/beta.md'), reordered);
    const before = await outsideState(root);

    const result = await runCli(['lint', '--fix', '--no-llm', '--review', '--json'], { cwd: root });
    expect(result.stderr).not.toContain('Error');
    const report = JSON.parse(result.stdout);
    expect(report.proposals).toEqual([{ id: expect.any(String), command: 'lint', pages: [{ path: 'wiki/sources/beta.md', change: 'updated' }], created: expect.any(String) }]);
    expect(await outsideState(root)).toEqual(before);

    const accepted = await runCli(['review', 'accept', report.proposals[0].id, '--json'], { cwd: root });
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(await read(root, 'wiki/sources/beta.md')).toEqual(beta);
    const again = await runCli(['lint', '--fix', '--no-llm', '--review', '--json'], { cwd: root });
    expect(JSON.parse(again.stdout).proposals).toEqual([]);
  });
});

describe('cron: several proposals wait', () => {
  it('each source is its own proposal over the wiki as it is; a later run says how many wait and does not pay for them again', async () => {
    const root = await freshWorkspace();
    await writeFile(path.join(root, 'raw/one.md'), '# One\n\nOne.\n');
    await writeFile(path.join(root, 'raw/two.md'), '# Two\n\nTwo.\n');
    const server = await serve([...simpleIngest('one'), ...simpleIngest('two')]);
    const first = await runCli(['ingest', 'raw/', '--review'], { cwd: root, env: server.env('anthropic') });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('2 proposals wait for review');
    const waiting = (await list(root)).proposals;
    expect(waiting.map((p) => p.pages)).toEqual([[{ path: 'wiki/sources/one.md', change: 'created' }], [{ path: 'wiki/sources/two.md', change: 'created' }]]);

    // The next cron run: nothing new to pay for, with or without --review.
    const idle = await serve([]);
    for (const flags of [['--review'], []]) {
      const again = await runCli(['ingest', 'raw/', '--json', ...flags], { cwd: root, env: idle.env('anthropic') });
      expect(again.code, again.stderr).toBe(0);
      expect(JSON.parse(again.stdout).waiting).toEqual([
        { source: 'raw/one.md', proposal: waiting[0]?.id },
        { source: 'raw/two.md', proposal: waiting[1]?.id },
      ]);
      expect(again.stderr).toContain(`raw/one.md: its pages wait in proposal ${waiting[0]?.id}`);
    }
    expect(idle.requests).toHaveLength(0);

    // Both land, one after the other, each its own run.
    for (const p of waiting) expect((await runCli(['review', 'accept', p.id], { cwd: root })).code).toBe(0);
    expect(await manifestSources(root)).toEqual(['raw/one.md', 'raw/two.md']);
    const index = await read(root, 'wiki/index.md');
    expect(index).toContain('[[one]]');
    expect(index).toContain('[[two]]');
  });

  it("the command's --max-tokens holds across the sources, each its own proposal: the rest are left pending", async () => {
    const root = await freshWorkspace();
    await writeFile(path.join(root, 'raw/one.md'), '# One\n\nOne.\n');
    await writeFile(path.join(root, 'raw/two.md'), '# Two\n\nTwo.\n');
    const server = await serve([...simpleIngest('one'), ...simpleIngest('two')]);
    const result = await runCli(['ingest', 'raw/', '--review', '--max-tokens', '200', '--json'], { cwd: root, env: server.env('anthropic') });
    const report = JSON.parse(result.stdout);
    expect(report.pending).toEqual(['raw/two.md']);
    expect(server.requests.filter((r) => /Ingest the source `raw\/two\.md`/.test(r.lastUserText ?? ''))).toHaveLength(0);
  });

  it('`review: true` in wiki.config.json makes every writing run propose; --no-review writes directly', async () => {
    const root = await freshWorkspace();
    await patchConfig(root, { review: true });
    await writeFile(path.join(root, 'raw/one.md'), '# One\n\nOne.\n');
    const server = await serve(simpleIngest('one'));
    const proposed = await runCli(['ingest', 'raw/one.md'], { cwd: root, env: server.env('anthropic') });
    expect(proposed.code, proposed.stderr).toBe(0);
    expect(existsSync(path.join(root, 'wiki/sources/one.md'))).toBe(false);
    expect((await list(root)).proposals).toHaveLength(1);

    const direct = await serve(simpleIngest('one'));
    const written = await runCli(['ingest', 'raw/one.md', '--no-review', '--force'], { cwd: root, env: direct.env('anthropic') });
    expect(written.code, written.stderr).toBe(0);
    expect(existsSync(path.join(root, 'wiki/sources/one.md'))).toBe(true);
  });

  it('prune --older-than drops proposals made before then, and only those', async () => {
    const root = await freshWorkspace();
    await writeFile(path.join(root, 'raw/one.md'), '# One\n\nOne.\n');
    await writeFile(path.join(root, 'raw/two.md'), '# Two\n\nTwo.\n');
    const server = await serve([...simpleIngest('one'), ...simpleIngest('two')]);
    expect((await runCli(['ingest', 'raw/', '--review'], { cwd: root, env: server.env('anthropic') })).code).toBe(0);
    const [old, recent] = (await list(root)).proposals;
    // The clock is the proposal's own record: one made 40 days ago.
    const file = path.join(root, '.wiki/proposals', `${old?.id}.json`);
    const stored = JSON.parse(await readFile(file, 'utf8'));
    await writeFile(file, JSON.stringify({ ...stored, created: new Date(Date.now() - 40 * 86_400_000).toISOString() }));

    expect((await runCli(['review', 'prune', '--older-than', 'soon'], { cwd: root })).code).toBe(2);
    const pruned = await runCli(['review', 'prune', '--older-than', '30d', '--json'], { cwd: root });
    expect(pruned.code, pruned.stderr).toBe(0);
    expect(JSON.parse(pruned.stdout)).toMatchObject({ pruned: [{ id: old?.id }], remaining: 1 });
    expect((await list(root)).proposals.map((p) => p.id)).toEqual([recent?.id]);
  });
});

describe('whose proposal, and a crafted one', () => {
  it('a proposal made with --user is that user\'s: others neither see nor decide it', async () => {
    const root = await ingestedWorkspace();
    await writeFile(path.join(root, 'raw/one.md'), '# One\n\nOne.\n');
    const server = await serve(simpleIngest('one'));
    const made = await runCli(['--user', 'alice', 'ingest', 'raw/one.md', '--review', '--json'], { cwd: root, env: server.env('anthropic') });
    expect(made.code, made.stderr).toBe(0);
    const id = JSON.parse(made.stdout).proposals[0].id as string;
    expect((await list(root, { WIKI_USER: 'alice' })).proposals.map((p) => p.id)).toEqual([id]);
    expect((await list(root, { WIKI_USER: 'bob' })).proposals).toEqual([]);
    expect((await list(root)).proposals).toEqual([]);
    for (const verb of ['accept', 'reject', 'show']) {
      const other = await runCli(['--user', 'bob', 'review', verb, id], { cwd: root });
      expect(other.code).toBe(2);
      expect(other.stderr).toContain(`proposal ${id} is alice's`);
    }
    const own = await runCli(['--user', 'alice', 'review', 'accept', id], { cwd: root });
    expect(own.code, own.stderr).toBe(0);
  });

  it('a crafted proposal that names log.md or a path out of wiki/ is refused before anything is written', async () => {
    const root = await ingestedWorkspace();
    const { id } = await proposeAlpha(root);
    const file = path.join(root, '.wiki/proposals', `${id}.json`);
    const stored = JSON.parse(await readFile(file, 'utf8'));
    const before = await outsideState(root);
    await writeFile(file, JSON.stringify({ ...stored, pages: [{ path: 'wiki/log.md', change: 'created', after: '# forged\n' }] }));
    const log = await runCli(['review', 'accept', id], { cwd: root });
    expect(log.code).toBe(2);
    expect(log.stderr).toContain('only the tool writes');
    await writeFile(file, JSON.stringify({ ...stored, pages: [{ path: 'wiki/../schema.md', change: 'created', after: 'forged\n' }] }));
    const escape = await runCli(['review', 'accept', id], { cwd: root });
    expect(escape.code).toBe(2);
    expect(escape.stderr).toContain('not a proposal');
    expect(await outsideState(root)).toEqual(before);
  });
});

describe("the tool's own writes under review", () => {
  it('stale marks of a changed source wait in the proposal and land with it', async () => {
    const root = await ingestedWorkspace();
    await writeFile(path.join(root, 'raw/beta.md'), '# Beta\n\nBeta is a dataset of images.\n');
    const before = await outsideState(root);
    const server = await serve([{ text: 'Nothing to update.' }]);
    const result = await runCli(['ingest', 'raw/beta.md', '--review', '--json'], { cwd: root, env: server.env('anthropic') });
    expect(result.code, result.stderr).toBe(0);
    expect(await outsideState(root)).toEqual(before);
    const [proposal] = JSON.parse(result.stdout).proposals;
    expect(proposal.pages).toEqual([{ path: 'wiki/sources/beta.md', change: 'updated' }]);
    const view = JSON.parse((await runCli(['review', 'show', proposal.id, '--json'], { cwd: root })).stdout);
    expect(view.pages[0].diff).toMatch(/^\+stale_since: \d{4}-\d\d-\d\d$/m);

    const accepted = await runCli(['review', 'accept', proposal.id], { cwd: root });
    expect(accepted.code, accepted.stdout + accepted.stderr).toBe(0);
    expect(await read(root, 'wiki/sources/beta.md')).toMatch(/^stale_since: /m);
  });

  it('a source deleted from raw/: its stale marks are proposed once, not written', async () => {
    const root = await ingestedWorkspace();
    await rm(path.join(root, 'raw/beta.md'));
    await writeFile(path.join(root, 'raw/one.md'), '# One\n\nOne.\n');
    const before = await outsideState(root);
    const server = await serve(simpleIngest('one'));
    const result = await runCli(['ingest', 'raw/', '--review', '--json'], { cwd: root, env: server.env('anthropic') });
    expect(result.code, result.stderr).toBe(0);
    expect(await outsideState(root)).toEqual(before);
    const [proposal, ingest] = JSON.parse(result.stdout).proposals;
    expect(proposal.pages).toEqual([{ path: 'wiki/sources/beta.md', change: 'updated' }]);
    expect(ingest.pages).toEqual([{ path: 'wiki/sources/one.md', change: 'created' }]);
    const idle = await serve([]);
    const again = await runCli(['ingest', 'raw/', '--review', '--json'], { cwd: root, env: idle.env('anthropic') });
    expect(JSON.parse(again.stdout).proposals).toEqual([]);
    expect((await list(root)).proposals).toHaveLength(2);
    const accepted = await runCli(['review', 'accept', proposal.id], { cwd: root });
    expect(accepted.code, accepted.stdout + accepted.stderr).toBe(0);
    expect(await read(root, 'wiki/sources/beta.md')).toMatch(/^stale_since: /m);
  });

  it('reviewFolder puts proposals in a folder that can be committed, outside .wiki/', async () => {
    const root = await freshWorkspace();
    await patchConfig(root, { reviewFolder: 'review' });
    await writeFile(path.join(root, 'raw/one.md'), '# One\n\nOne.\n');
    const server = await serve(simpleIngest('one'));
    const made = await runCli(['ingest', 'raw/one.md', '--review', '--json'], { cwd: root, env: server.env('anthropic') });
    expect(made.code, made.stderr).toBe(0);
    const id = JSON.parse(made.stdout).proposals[0].id as string;
    expect(existsSync(path.join(root, 'review', `${id}.json`))).toBe(true);
    expect(existsSync(path.join(root, '.wiki/proposals'))).toBe(false);
    // A later run works on the wiki as it is: the model cannot read a waiting proposal.
    await writeFile(path.join(root, 'raw/two.md'), '# Two\n\nTwo.\n');
    const reader = await serve([{ toolCalls: [{ name: 'read_file', arguments: { path: `review/${id}.json` } }] }, ...simpleIngest('two')]);
    const later = await runCli(['ingest', 'raw/two.md', '--review'], { cwd: root, env: reader.env('anthropic') });
    expect(later.code, later.stderr).toBe(0);
    expect(reader.requests[1]?.toolResults[0]).toMatchObject({ isError: true });
    expect(reader.requests[1]?.toolResults[0]?.content).not.toContain('"pages"');
    await patchConfig(root, { reviewFolder: 'wiki/drafts' });
    const refused = await runCli(['review'], { cwd: root });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('not under wiki/, raw/ or .git/');
  });

  it('a proposal that would drop a line a human added is refused as a direct write would be', async () => {
    const root = await ingestedWorkspace();
    const id = await proposeBetaUpdate(root);
    const withHuman = `${await read(root, 'wiki/sources/beta.md')}\nA line Ada added by hand.\n`;
    await writeFile(path.join(root, 'wiki/sources/beta.md'), withHuman);
    // A teammate's crafted proposal: based on the page as it is now, it drops the human line.
    const file = path.join(root, '.wiki/proposals', `${id}.json`);
    const stored = JSON.parse(await readFile(file, 'utf8'));
    const dropped = withHuman.replace('\nA line Ada added by hand.\n', '').replace('Beta is a dataset.', 'Beta is a dataset of images.');
    await writeFile(file, JSON.stringify({ ...stored, pages: [{ path: 'wiki/sources/beta.md', change: 'updated', before: withHuman, after: dropped }] }));
    const before = await outsideState(root);
    const refused = await runCli(['review', 'accept', id, '--json'], { cwd: root });
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout).refused[0].errors.join('\n')).toMatch(/^human-edit/m);
    expect(await outsideState(root)).toEqual(before);
  });
});
