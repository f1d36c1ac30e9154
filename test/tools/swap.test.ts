import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfinedIo } from '../../src/confine/confined-io.js';
import { readServedPage } from '../../src/mcp/live-pages.js';
import { startSwapper, type Swap } from '../helpers/swapper.js';
import { call, makeContext, makeWorkspace, page, SECRET, snapshotTree, type TempWorkspace } from './fixtures.js';

/**
 * Issue 13, item 1: check and use act on the same file. A second process flips files and
 * folders between the real thing and a symbolic link to a folder outside the workspace, as
 * fast as it can, while the tools read, write, append and list through them. Whatever the
 * interleaving, no outside content may come back and nothing outside may change: the test
 * asserts "never" over every call, so it does not depend on when the swaps land.
 */

let ws: TempWorkspace;
beforeEach(async () => {
  ws = await makeWorkspace();
  await writeFile(path.join(ws.outside, 'attention.md'), page('Outside', 'Outside copy', `${SECRET}\n`));
  await mkdir(path.join(ws.root, 'wiki/sources'), { recursive: true });
  await writeFile(path.join(ws.root, 'wiki/sources/linked.md'), page('Linked', 'A page swapped for a link'));
});
afterEach(async () => {
  await ws.cleanup();
});

/** What the swapper flips: a workspace path and the outside thing its link points to. */
const SWAPS: Swap[] = [
  { path: 'raw/paper.md', outside: 'secret.txt' },
  { path: 'wiki/concepts', outside: '.' },
  { path: 'wiki/sources/linked.md', outside: 'attention.md' },
];

const ROUNDS = 150;

describe('a swap between check and use', () => {
  it('never reads, lists or writes outside the root through files and folders flipped to links', async () => {
    const before = await snapshotTree(ws.outside);
    const { tools } = makeContext(ws);
    const stop = path.join(ws.base, 'stop');
    const swapper = startSwapper(ws.root, ws.outside, stop, SWAPS);
    await swapper.ready;

    const calls: Array<{ name: string; args: Record<string, unknown> }> = [];
    for (let i = 0; i < ROUNDS; i++) {
      calls.push(
        { name: 'read_file', args: { path: 'raw/paper.md' } },
        { name: 'read_file', args: { path: 'wiki/concepts/attention.md' } },
        { name: 'read_file', args: { path: 'wiki/sources/linked.md' } },
        { name: 'list_directory', args: { path: 'wiki/concepts' } },
        { name: 'write_file', args: { path: `wiki/concepts/new-${i}.md`, content: page(`New ${i}`, 'Written during swaps') } },
        { name: 'write_file', args: { path: 'wiki/sources/linked.md', content: page('Linked', `Rewritten ${i}`) } },
        { name: 'append_to_file', args: { path: 'wiki/concepts/attention.md', content: `Line ${i}.` } },
        { name: 'append_to_file', args: { path: 'wiki/sources/linked.md', content: `Line ${i}.` } },
      );
    }
    const leaks: string[] = [];
    let succeeded = 0;
    try {
      for (let i = 0; i < calls.length; i += 8) {
        const results = await Promise.all(calls.slice(i, i + 8).map(async (c) => ({ c, result: await call(tools, c.name, c.args) })));
        for (const { c, result } of results) {
          if (!result.isError) succeeded++;
          if (result.content.includes(SECRET) || result.content.includes('secret.txt') || result.content.includes('Outside copy')) {
            leaks.push(`${c.name} ${JSON.stringify(c.args)}: ${result.content.slice(0, 200)}`);
          }
        }
      }
    } finally {
      await writeFile(stop, '');
    }
    const flips = await swapper.done;

    expect(leaks).toEqual([]);
    expect(await snapshotTree(ws.outside)).toEqual(before);
    // The attack really ran alongside the calls, and the tools kept working between swaps.
    expect(flips).toBeGreaterThan(0);
    expect(succeeded).toBeGreaterThan(0);
  });

  it('an MCP read_page and a raw confined read never return outside content while the page flips', async () => {
    const stop = path.join(ws.base, 'stop');
    const swapper = startSwapper(ws.root, ws.outside, stop, SWAPS);
    await swapper.ready;
    const io = new ConfinedIo(ws.root);
    const leaks: string[] = [];
    try {
      for (let i = 0; i < 400; i++) {
        const served = await readServedPage(ws.root, 'wiki/sources/linked.md');
        if (served?.includes(SECRET)) leaks.push(`read_page: ${served}`);
        const raw = await io.readBytes(path.join(ws.root, 'raw/paper.md')).then((b) => Buffer.from(b).toString(), () => '');
        if (raw.includes(SECRET)) leaks.push(`read: ${raw}`);
      }
    } finally {
      await writeFile(stop, '');
      await swapper.done;
    }
    expect(leaks).toEqual([]);
  });
});

describe.each([
  { mode: 'descriptor walk', descriptorPaths: true },
  { mode: 'check after open', descriptorPaths: false },
])('ConfinedIo ($mode) refuses a link wherever it is met, however it got there', ({ descriptorPaths }) => {
  it.each([
    { what: 'a file that is a link', link: 'raw/paper.md', to: 'secret.txt', read: 'raw/paper.md' },
    { what: 'a folder that is a link', link: 'raw/sub', to: '.', read: 'raw/sub/secret.txt' },
    { what: 'a deeper folder link', link: 'wiki/concepts', to: '.', read: 'wiki/concepts/attention.md' },
  ])('read: $what', async ({ link, to, read }) => {
    const { rm, symlink } = await import('node:fs/promises');
    await rm(path.join(ws.root, link), { recursive: true, force: true });
    await symlink(path.join(ws.outside, to), path.join(ws.root, link));
    const io = new ConfinedIo(ws.root, { descriptorPaths });
    await expect(io.readBytes(path.join(ws.root, read))).rejects.toThrow(/symbolic link/);
  });

  it.each([
    { what: 'write into a folder that is a link', op: 'write' as const },
    { what: 'append through a folder that is a link', op: 'append' as const },
    { what: 'list a folder that is a link', op: 'list' as const },
  ])('$what', async ({ op }) => {
    const { rm, symlink } = await import('node:fs/promises');
    const before = await snapshotTree(ws.outside);
    await rm(path.join(ws.root, 'wiki/concepts'), { recursive: true, force: true });
    await symlink(ws.outside, path.join(ws.root, 'wiki/concepts'));
    const io = new ConfinedIo(ws.root, { descriptorPaths });
    const target = path.join(ws.root, 'wiki/concepts/attention.md');
    const attempt =
      op === 'write' ? io.write(target, 'x') : op === 'append' ? io.append(target, 'x') : io.list(path.join(ws.root, 'wiki/concepts'));
    await expect(attempt).rejects.toThrow(/symbolic link/);
    expect(await snapshotTree(ws.outside)).toEqual(before);
  });

  it('reads, writes, appends and lists where nothing is a link', async () => {
    const io = new ConfinedIo(ws.root, { descriptorPaths });
    const target = path.join(ws.root, 'wiki/fresh/deeper/page.md');
    await io.write(target, 'one\n');
    await io.append(target, 'two\n');
    expect(Buffer.from(await io.readBytes(target)).toString()).toBe('one\ntwo\n');
    expect(await io.list(path.join(ws.root, 'wiki/fresh/deeper'))).toEqual([{ name: 'page.md', kind: 'file', size: 8 }]);
  });

  it('refuses a path outside the root it was made for', async () => {
    const io = new ConfinedIo(ws.root, { descriptorPaths });
    await expect(io.readBytes(path.join(ws.outside, 'secret.txt'))).rejects.toThrow(/outside the workspace root/);
  });
});
