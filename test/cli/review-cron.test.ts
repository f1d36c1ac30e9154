import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { freshWorkspace, manifestSources, patchConfig, read, simpleIngest } from './cron-fixtures.js';
import { ingestedWorkspace, list, outsideState, proposeAlpha, proposeBetaUpdate, serve } from './review-fixtures.js';

/**
 * Review before it lands, unattended and shared: several proposals waiting, the tool's own
 * writes, the config default, whose a proposal is, and proposal files crafted by hand.
 */

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
