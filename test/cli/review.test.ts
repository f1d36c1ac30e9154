import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hashTree, runCli } from '../helpers/cli.js';
import { manifestSources, patchConfig, read } from './cron-fixtures.js';
import { ingestedWorkspace, list, outsideState, proposeAlpha, proposeBetaUpdate, serve, THREE_PAGES } from './review-fixtures.js';

/**
 * Review before it lands: a run under --review leaves a proposal instead of changing wiki/;
 * `wiki review` lists, shows, accepts and rejects it page by page.
 */

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
    // A derivable field gone: a repair the rules make themselves.
    const reordered = beta.replace(/^created: .*\n/m, '');
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
    expect(await read(root, 'wiki/sources/beta.md')).toMatch(/^created: \d{4}-\d{2}-\d{2}$/m);
    const again = await runCli(['lint', '--fix', '--no-llm', '--review', '--json'], { cwd: root });
    expect(JSON.parse(again.stdout).proposals).toEqual([]);
  });
});
