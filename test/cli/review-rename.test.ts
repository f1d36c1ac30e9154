import { rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cloneWorkspace, runCli } from '../helpers/cli.js';
import { manifestSources, read } from './cron-fixtures.js';
import { ingestedWorkspace, list, outsideState, serve } from './review-fixtures.js';

/**
 * A source renamed in raw/, ingested under review (issue 40, item 5): the citations that
 * follow it wait in a proposal, the record moves only when it is accepted, no model is paid,
 * and the old path is not taken for a deleted source. Accepted, it lands as a direct ingest would.
 */
const visible = async (root: string): Promise<Map<string, string>> => new Map([...(await outsideState(root))].filter(([file]) => file !== 'wiki/log.md'));

describe('a renamed source under review', () => {
  it('proposes the citations following it (once, no model), and accepted lands what a direct ingest lands', async () => {
    const root = await ingestedWorkspace();
    await rename(path.join(root, 'raw/beta.md'), path.join(root, 'raw/gamma.md'));
    const twin = await cloneWorkspace(root);
    const before = await outsideState(root);

    const idle = await serve([]);
    const result = await runCli(['ingest', 'raw/', '--review', '--json'], { cwd: root, env: idle.env('anthropic') });
    expect(result.code, result.stderr).toBe(0);
    expect(idle.requests).toHaveLength(0);
    expect(await outsideState(root)).toEqual(before);
    expect(await manifestSources(root)).toEqual(['raw/beta.md']);
    const [proposal, ...others] = (await list(root)).proposals;
    expect(others).toEqual([]);
    expect(proposal).toMatchObject({ command: 'ingest', pages: [{ path: 'wiki/sources/beta.md', change: 'updated' }], also: ['raw/beta.md recorded as renamed to raw/gamma.md'] });

    // A later run neither proposes it again nor takes raw/beta.md for a deleted source.
    const again = await runCli(['ingest', 'raw/', '--review', '--json'], { cwd: root, env: idle.env('anthropic') });
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout).proposals).toEqual([]);
    expect(idle.requests).toHaveLength(0);
    expect((await list(root)).proposals).toHaveLength(1);

    const direct = await runCli(['ingest', 'raw/'], { cwd: twin, env: idle.env('anthropic') });
    expect(direct.code, direct.stderr).toBe(0);
    const accepted = await runCli(['review', 'accept', proposal?.id ?? ''], { cwd: root });
    expect(accepted.code, accepted.stdout + accepted.stderr).toBe(0);
    expect(accepted.stdout).toMatch(/raw\/beta\.md recorded as renamed to raw\/gamma\.md/);
    expect(await visible(root)).toEqual(await visible(twin));
    expect(await read(root, 'wiki/sources/beta.md')).toMatch(/raw\/gamma\.md/);
    expect(await manifestSources(root)).toEqual(['raw/gamma.md']);
    expect(await manifestSources(twin)).toEqual(['raw/gamma.md']);
    // Recorded: nothing left to ingest, nothing paid.
    const after = await runCli(['ingest', 'raw/', '--json'], { cwd: root, env: idle.env('anthropic') });
    expect(JSON.parse(after.stdout).upToDate).toEqual(['raw/gamma.md']);
    expect(idle.requests).toHaveLength(0);
  });

  it('rejected, nothing changes; the move is proposed again by the next run', async () => {
    const root = await ingestedWorkspace();
    await rename(path.join(root, 'raw/beta.md'), path.join(root, 'raw/gamma.md'));
    const idle = await serve([]);
    const first = await runCli(['ingest', 'raw/', '--review', '--json'], { cwd: root, env: idle.env('anthropic') });
    const id = (JSON.parse(first.stdout).proposals as Array<{ id: string }>)[0]?.id ?? '';
    const before = await outsideState(root);
    const rejected = await runCli(['review', 'reject', id], { cwd: root });
    expect(rejected.code, rejected.stderr).toBe(0);
    expect(await outsideState(root)).toEqual(before);
    const next = await runCli(['ingest', 'raw/', '--review', '--json'], { cwd: root, env: idle.env('anthropic') });
    expect((JSON.parse(next.stdout).proposals as unknown[]).length).toBe(1);
  });

  it('a renamed file edited since the move was proposed: the accept is refused, nothing moves', async () => {
    const root = await ingestedWorkspace();
    await rename(path.join(root, 'raw/beta.md'), path.join(root, 'raw/gamma.md'));
    const idle = await serve([]);
    const first = await runCli(['ingest', 'raw/', '--review', '--json'], { cwd: root, env: idle.env('anthropic') });
    const id = (JSON.parse(first.stdout).proposals as Array<{ id: string }>)[0]?.id ?? '';
    await writeFile(path.join(root, 'raw/gamma.md'), '# Gamma\n\nGamma is something else now.\n');
    const before = await outsideState(root);
    const accepted = await runCli(['review', 'accept', id], { cwd: root });
    expect(accepted.code).toBe(1);
    expect(accepted.stdout).toMatch(/raw\/gamma\.md: it changed since it was found to be raw\/beta\.md renamed/);
    expect(await outsideState(root)).toEqual(before);
    expect(await manifestSources(root)).toEqual(['raw/beta.md']);
  });
});
