import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cloneWorkspace, runCli } from '../helpers/cli.js';
import { freshWorkspace, pageText, patchConfig, read, unparseablePages } from './cron-fixtures.js';
import { list, outsideState } from './review-fixtures.js';

/**
 * `wiki promote` under review (issue 40, item 5): the move waits in the user's proposal —
 * the team page created, the scratch page removed — and lands, when they accept it, exactly
 * as a direct promote would, as one undoable run.
 */
async function withScratchPage(): Promise<string> {
  const root = await freshWorkspace();
  await writeFile(path.join(root, 'raw/alpha.md'), '# Alpha\n\nAlpha text.\n');
  await mkdir(path.join(root, 'wiki/user/alice/concepts'), { recursive: true });
  await writeFile(path.join(root, 'wiki/user/alice/concepts/alice-idea.md'), pageText('concept', 'alice-idea', { sources: ['raw/alpha.md'], body: 'Alice\'s idea about alpha.' }));
  return root;
}

const visible = async (root: string): Promise<Map<string, string>> => new Map([...(await outsideState(root))].filter(([file]) => file !== 'wiki/log.md'));

describe('wiki promote --review', () => {
  it("moves nothing; the proposal is the user's; accepted, it lands as the direct promote does, and undo puts the scratch page back", async () => {
    const root = await withScratchPage();
    const twin = await cloneWorkspace(root);
    const before = await outsideState(root);

    const proposed = await runCli(['--user', 'alice', 'promote', 'alice-idea', '--review'], { cwd: root });
    expect(proposed.code, proposed.stderr).toBe(0);
    expect(proposed.stdout).toMatch(/^Proposed: promote \[\[alice-idea\]\]: wiki\/user\/alice\/concepts\/alice-idea\.md → wiki\/concepts\/alice-idea\.md$/m);
    expect(proposed.stdout).toMatch(/proposal \S+ waits: 2 page\(s\) \(created wiki\/concepts\/alice-idea\.md, removed wiki\/user\/alice\/concepts\/alice-idea\.md\)/);
    expect(proposed.stdout).toMatch(/1 proposal waits for review/);
    expect(await outsideState(root)).toEqual(before);

    // Another user neither sees nor accepts it.
    expect((await list(root, { WIKI_USER: 'bob' })).proposals).toEqual([]);
    const [proposal] = (await list(root, { WIKI_USER: 'alice' })).proposals;
    expect(proposal).toMatchObject({ command: 'promote', pages: [{ path: 'wiki/concepts/alice-idea.md', change: 'created' }, { path: 'wiki/user/alice/concepts/alice-idea.md', change: 'removed' }] });
    const bob = await runCli(['--user', 'bob', 'review', 'accept', proposal?.id ?? ''], { cwd: root });
    expect(bob.code).toBe(2);

    const direct = await runCli(['--user', 'alice', 'promote', 'alice-idea'], { cwd: twin });
    expect(direct.code, direct.stderr).toBe(0);
    const accepted = await runCli(['--user', 'alice', 'review', 'accept', proposal?.id ?? '', '--json'], { cwd: root });
    expect(accepted.code, accepted.stdout + accepted.stderr).toBe(0);
    expect(await visible(root)).toEqual(await visible(twin));
    expect(await read(root, 'wiki/log.md')).toMatch(/moved wiki\/user\/alice\/concepts\/alice-idea\.md to wiki\/concepts\/alice-idea\.md/);
    expect(await unparseablePages(root)).toEqual([]);

    const undo = await runCli(['undo', (JSON.parse(accepted.stdout) as { runId: string }).runId, '--yes'], { cwd: root });
    expect(undo.code, undo.stdout + undo.stderr).toBe(0);
    expect(await visible(root)).toEqual(new Map([...before].filter(([file]) => file !== 'wiki/log.md')));
  });

  it('under `review: true` a rejected promote leaves both pages as they were; --no-review moves at once', async () => {
    const root = await withScratchPage();
    await patchConfig(root, { review: true });
    const before = await outsideState(root);
    const proposed = await runCli(['--user', 'alice', 'promote', 'alice-idea', '--json'], { cwd: root });
    expect(proposed.code, proposed.stderr).toBe(0);
    const id = (JSON.parse(proposed.stdout) as { proposal: string }).proposal;
    expect(await outsideState(root)).toEqual(before);
    const rejected = await runCli(['--user', 'alice', 'review', 'reject', id], { cwd: root });
    expect(rejected.code, rejected.stderr).toBe(0);
    expect(await outsideState(root)).toEqual(before);
    const direct = await runCli(['--user', 'alice', 'promote', 'alice-idea', '--no-review'], { cwd: root });
    expect(direct.code, direct.stderr).toBe(0);
    expect(await read(root, 'wiki/concepts/alice-idea.md')).toMatch(/Alice's idea/);
  });

  it('a scratch page edited by hand since the proposal refuses the accept with the diff; nothing moves', async () => {
    const root = await withScratchPage();
    const proposed = await runCli(['--user', 'alice', 'promote', 'alice-idea', '--review', '--json'], { cwd: root });
    const id = (JSON.parse(proposed.stdout) as { proposal: string }).proposal;
    const scratch = path.join(root, 'wiki/user/alice/concepts/alice-idea.md');
    await writeFile(scratch, (await read(root, 'wiki/user/alice/concepts/alice-idea.md')).replace("Alice's idea about alpha.", "Alice's better idea about alpha."));
    const before = await outsideState(root);
    const accepted = await runCli(['--user', 'alice', 'review', 'accept', id], { cwd: root });
    expect(accepted.code).toBe(1);
    expect(accepted.stdout).toMatch(/wiki\/user\/alice\/concepts\/alice-idea\.md: the page changed since the proposal was made/);
    expect(accepted.stdout).toMatch(/\+Alice's better idea about alpha\./);
    expect(await outsideState(root)).toEqual(before);
  });
});
