import { access, appendFile, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cloneWorkspace, hashTree, runCli } from '../helpers/cli.js';
import type { ScriptStep } from '../helpers/fake-llm-server.js';
import { fakeServers, freshWorkspace, manifestSources, pagePath, pageText, patchConfig, unparseablePages, type PageSpec } from './cron-fixtures.js';
import { list, outsideState } from './review-fixtures.js';

/**
 * `wiki rm` under review (issue 40, item 5): the removal is planned and kept as a proposal;
 * nothing outside .wiki/ changes — raw/ included — until it is accepted, and an accept lands
 * exactly what the direct `wiki rm` would have (raw file, record, pages, index) as one
 * undoable run. A reject leaves raw/ and wiki/ as they were.
 */
const serve = fakeServers();

const write = (type: 'source' | 'concept', key: string, spec: PageSpec): ScriptStep => ({
  toolCalls: [{ name: 'write_file', arguments: { path: pagePath(type, key), content: pageText(type, key, spec) } }],
});

async function ingest(root: string, source: string, steps: ScriptStep[]): Promise<void> {
  const server = await serve([...steps, { text: 'Done.' }]);
  const result = await runCli(['ingest', source], { cwd: root, env: server.env('anthropic') });
  expect(result.code, result.stderr + result.stdout).toBe(0);
}

/** Two sources; a page drawing only on alpha, one on both (linking to the first), and alpha's source page with a person's line. */
async function twoSourceWiki(): Promise<string> {
  const root = await freshWorkspace();
  await writeFile(path.join(root, 'raw/alpha.md'), '# Alpha\n\nAlpha harbours hold twelve ships.\nAlpha ships sail north.\n');
  await writeFile(path.join(root, 'raw/beta.md'), '# Beta\n\nBeta harbours hold four ships.\n');
  await ingest(root, 'raw/alpha.md', [
    write('source', 'alpha', { body: 'Alpha harbours hold twelve ships. <!-- from: raw/alpha.md#L3 -->' }),
    write('concept', 'alpha-fleet', { sources: ['raw/alpha.md'], body: 'Alpha ships sail north. <!-- from: raw/alpha.md#L4 -->' }),
  ]);
  await ingest(root, 'raw/beta.md', [
    write('source', 'beta', { body: 'Beta harbours hold four ships. <!-- from: raw/beta.md#L3 -->' }),
    write('concept', 'harbours', {
      sources: ['raw/alpha.md', 'raw/beta.md'],
      refs: ['alpha-fleet'],
      body: ['Alpha harbours hold twelve ships. <!-- from: raw/alpha.md#L3 -->', '', 'Beta harbours hold four ships. <!-- from: raw/beta.md#L3 -->', '', 'See [[alpha-fleet]].'].join('\n'),
    }),
  ]);
  await appendFile(path.join(root, pagePath('source', 'alpha')), '\nMy own note: check the 1910 harbour records.\n');
  return root;
}

/** The files a person sees (not .wiki/), less the log, whose entries name their run and time. */
async function visible(root: string): Promise<Map<string, string>> {
  return new Map([...(await outsideState(root))].filter(([file]) => file !== 'wiki/log.md'));
}

const exists = (file: string): Promise<boolean> =>
  access(file).then(
    () => true,
    () => false,
  );

async function proposeRemoval(root: string, args: string[] = ['rm', 'raw/alpha.md', '--review']): Promise<string> {
  const result = await runCli([...args, '--json'], { cwd: root });
  expect(result.code, result.stderr).toBe(0);
  const report = JSON.parse(result.stdout) as { proposal: string; proposals: Array<{ id: string }>; proposalsWaiting: number };
  expect(report.proposals.map((p) => p.id)).toEqual([report.proposal]);
  return report.proposal;
}

describe('wiki rm --review', () => {
  it('writes nothing outside .wiki/ (raw/ included); accepted, it lands exactly what a direct rm lands, as one undoable run', async () => {
    const root = await twoSourceWiki();
    const twin = await cloneWorkspace(root);
    const before = await outsideState(root);
    const beforeAll = await hashTree(root);

    const human = await runCli(['rm', 'raw/alpha.md', '--review'], { cwd: root });
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/^Proposed removal: raw\/alpha\.md$/m);
    expect(human.stdout).toMatch(/wiki\/concepts\/alpha-fleet\.md would be removed/);
    expect(human.stdout).toMatch(/proposal \S+ waits: 3 page\(s\) \(2 updated, 1 removed; also raw\/alpha\.md removed from raw\/, its record and facts\)/);
    expect(human.stdout).not.toMatch(/wiki undo/);
    expect(await outsideState(root)).toEqual(before);
    expect([...(await hashTree(root)).keys()].filter((f) => !beforeAll.has(f)).every((f) => f.startsWith('.wiki/proposals'))).toBe(true);

    const [proposal] = (await list(root)).proposals;
    expect(proposal?.pages).toEqual([
      { path: 'wiki/concepts/harbours.md', change: 'updated' },
      { path: 'wiki/sources/alpha.md', change: 'updated' },
      { path: 'wiki/concepts/alpha-fleet.md', change: 'removed' },
    ]);
    expect(proposal).toMatchObject({ command: 'rm', also: ['raw/alpha.md removed from raw/, its record and facts'] });

    // The same removal, direct, on a twin of the workspace.
    const direct = await runCli(['rm', 'raw/alpha.md'], { cwd: twin });
    expect(direct.code, direct.stderr).toBe(0);

    const accepted = await runCli(['review', 'accept', proposal?.id ?? '', '--json'], { cwd: root });
    expect(accepted.code, accepted.stdout + accepted.stderr).toBe(0);
    const report = JSON.parse(accepted.stdout) as { runId: string; effects: string[]; remaining: number };
    expect(report.effects).toEqual(['raw/alpha.md removed from raw/, its record and facts']);
    expect(report.remaining).toBe(0);
    expect(await visible(root)).toEqual(await visible(twin));
    expect(await exists(path.join(root, 'raw/alpha.md'))).toBe(false);
    expect(await manifestSources(root)).toEqual(['raw/beta.md']);
    expect(await manifestSources(twin)).toEqual(['raw/beta.md']);
    const log = await readFile(path.join(root, 'wiki/log.md'), 'utf8');
    expect(log.match(/\| raw\/alpha\.md/g)).toHaveLength(1);
    expect(log).toMatch(/accepted from proposal .*: 3 of 3 page\(s\)/);
    expect(await unparseablePages(root)).toEqual([]);
    expect((await runCli(['lint', '--no-llm'], { cwd: root })).code).toBe(0);
    expect((await list(root)).proposals).toEqual([]);

    // One run: undo puts every byte back, the raw file included.
    const undo = await runCli(['undo', report.runId, '--yes'], { cwd: root });
    expect(undo.code, undo.stdout + undo.stderr).toBe(0);
    expect(new Map([...(await outsideState(root))].filter(([f]) => f !== 'wiki/log.md'))).toEqual(new Map([...before].filter(([f]) => f !== 'wiki/log.md')));
  });

  it('rejected, raw/ and wiki/ stay as they were; accepting or rejecting only some of its pages is refused (it is one change)', async () => {
    const root = await twoSourceWiki();
    const id = await proposeRemoval(root);
    const before = await outsideState(root);
    for (const verb of ['accept', 'reject']) {
      const part = await runCli(['review', verb, id, 'wiki/concepts/harbours.md'], { cwd: root });
      expect(part.code, part.stderr).toBe(2);
      expect(part.stderr).toMatch(/is one change, its pages with what they rest on \(raw\/alpha\.md removed from raw\/, its record and facts\): it is accepted or rejected whole, not page by page/);
    }
    const rejected = await runCli(['review', 'reject', id], { cwd: root });
    expect(rejected.code, rejected.stderr).toBe(0);
    expect(await outsideState(root)).toEqual(before);
    expect(await exists(path.join(root, 'raw/alpha.md'))).toBe(true);
    expect((await list(root)).proposals).toEqual([]);
  });

  it('show reads as a person reads it: what lands besides the pages first, a removed page cut to its head unless named', async () => {
    const root = await twoSourceWiki();
    const id = await proposeRemoval(root);
    const shown = await runCli(['review', 'show', id], { cwd: root, env: { NO_COLOR: '1' } });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/^3 page\(s\): 2 updated, 1 removed\n\nAlso, when accepted \(it lands or goes whole, not page by page\):\n  ! raw\/alpha\.md removed from raw\/, its record and facts$/m);
    expect(shown.stdout).toMatch(/^--- a\/wiki\/concepts\/alpha-fleet\.md\n\+\+\+ \/dev\/null$/m);
    expect(shown.stdout).toContain(` more line(s) removed: wiki review show ${id} wiki/concepts/alpha-fleet.md`);
    expect(shown.stdout).not.toContain('-Alpha ships sail north.');
    expect(shown.stdout).toMatch(new RegExp(`Land it: wiki review accept ${id} · drop it: wiki review reject ${id}$`, 'm'));
    const named = await runCli(['review', 'show', id, 'alpha-fleet'], { cwd: root, env: { NO_COLOR: '1' } });
    expect(named.stdout).toMatch(/^-Alpha ships sail north\. <!-- from: raw\/alpha\.md#L4 -->$/m);
    expect(named.stdout).not.toContain('more line(s) removed');
  });

  it('a page edited by hand since, in the lines it changes, refuses the accept with the diff; nothing is written, raw/ kept', async () => {
    const root = await twoSourceWiki();
    const id = await proposeRemoval(root);
    const harbours = path.join(root, 'wiki/concepts/harbours.md');
    await writeFile(harbours, (await readFile(harbours, 'utf8')).replace('Alpha harbours hold twelve ships.', 'Alpha harbours hold thirteen ships.'));
    const before = await outsideState(root);
    const accepted = await runCli(['review', 'accept', id], { cwd: root });
    expect(accepted.code).toBe(1);
    expect(accepted.stdout).toMatch(/Not accepted: nothing was written/);
    expect(accepted.stdout).toMatch(/wiki\/concepts\/harbours\.md: the page changed since the proposal was made/);
    expect(accepted.stdout).toMatch(/^\s+\+Alpha harbours hold thirteen ships\./m);
    expect(await outsideState(root)).toEqual(before);
    expect((await list(root)).proposals.map((p) => p.id)).toEqual([id]);
  });

  it('a page that came to draw on the source since would be left citing a file gone: the accept is refused', async () => {
    const root = await twoSourceWiki();
    const id = await proposeRemoval(root);
    await writeFile(path.join(root, 'wiki/concepts/north.md'), pageText('concept', 'north', { sources: ['raw/alpha.md'], body: 'Alpha ships sail north. <!-- from: raw/alpha.md#L4 -->' }));
    const before = await outsideState(root);
    const accepted = await runCli(['review', 'accept', id], { cwd: root });
    expect(accepted.code).toBe(1);
    expect(accepted.stdout).toMatch(/wiki\/concepts\/north\.md: it draws on raw\/alpha\.md since the proposal was made: reject this proposal and run `wiki rm` again/);
    expect(await outsideState(root)).toEqual(before);
  });

  it('a source edited since its removal was proposed is not removed unseen: the accept is refused, the edit kept', async () => {
    const root = await twoSourceWiki();
    const id = await proposeRemoval(root);
    await appendFile(path.join(root, 'raw/alpha.md'), 'Alpha ships also sail south.\n');
    const before = await outsideState(root);
    const accepted = await runCli(['review', 'accept', id], { cwd: root });
    expect(accepted.code).toBe(1);
    expect(accepted.stdout).toMatch(/raw\/alpha\.md: it changed since its removal was proposed: reject this proposal, and run `wiki rm` again if it should still go/);
    expect(await outsideState(root)).toEqual(before);
  });

  it('`review: true` makes wiki rm propose; --no-review removes directly; the same removal is not proposed twice', async () => {
    const root = await twoSourceWiki();
    await patchConfig(root, { review: true });
    const before = await outsideState(root);
    const id = await proposeRemoval(root, ['rm', 'raw/alpha.md']);
    expect(await outsideState(root)).toEqual(before);
    const again = await runCli(['rm', 'raw/alpha.md'], { cwd: root });
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(new RegExp(`the removal of raw/alpha\\.md already waits in proposal ${id}`));
    const direct = await runCli(['rm', 'raw/beta.md', '--no-review'], { cwd: root });
    expect(direct.code, direct.stderr).toBe(0);
    expect(await exists(path.join(root, 'raw/beta.md'))).toBe(false);
  });

  it('a crafted proposal that would remove a file outside raw/ is refused before anything is read', async () => {
    const root = await twoSourceWiki();
    const id = await proposeRemoval(root);
    const file = path.join(root, '.wiki/proposals', `${id}.json`);
    const proposal = JSON.parse(await readFile(file, 'utf8')) as { effects: Array<{ sources: string[] }> };
    for (const crafted of ['wiki.config.json', 'raw/../wiki.config.json', '/etc/hosts']) {
      (proposal.effects[0] as { sources: string[] }).sources = [crafted];
      await writeFile(file, JSON.stringify(proposal));
      const accepted = await runCli(['review', 'accept', id], { cwd: root });
      expect(accepted.code, crafted).toBe(2);
      expect(accepted.stderr).toMatch(/not a proposal \(effects\.0\.sources\.0: a source path under raw\//);
    }
    expect(await exists(path.join(root, 'wiki.config.json'))).toBe(true);
  });
});
