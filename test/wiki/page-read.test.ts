import { link, mkdir, mkdtemp, rename, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readPage, readPageBytes } from '../../src/wiki/page-read.js';

const SECRET = 'outside-the-workspace-secret';

/** A workspace with wiki/concepts/attention.md, and beside it a folder outside holding a page of the same name. */
async function workspaceBesideOutside(): Promise<{ root: string; outside: string }> {
  const parent = await mkdtemp(path.join(os.tmpdir(), 'wiki-page-read-'));
  const root = path.join(parent, 'ws');
  const outside = path.join(parent, 'outside');
  await mkdir(path.join(root, 'wiki/concepts'), { recursive: true });
  await mkdir(outside);
  await writeFile(path.join(root, 'wiki/concepts/attention.md'), '---\ntitle: Attention\nsummary: Inside.\n---\n\nInside the wiki.\n');
  await writeFile(path.join(outside, 'attention.md'), `---\ntitle: Attention\nsummary: Outside.\n---\n\n${SECRET}\n`);
  return { root, outside };
}

describe('readPage', () => {
  it('reads a page inside the workspace, also through a workspace root that is itself a link', async () => {
    const { root } = await workspaceBesideOutside();
    expect(readPage(root, 'wiki/concepts/attention.md')).toContain('Inside the wiki.');
    const alias = `${root}-alias`;
    await symlink(root, alias);
    expect(readPage(alias, 'wiki/concepts/attention.md')).toContain('Inside the wiki.');
  });

  it.each([
    ['a folder on the way swapped for a link to outside', 'wiki/concepts', (outside: string) => outside],
    ['the wiki folder swapped for a link to a folder outside holding concepts/', 'wiki', (outside: string) => path.dirname(outside)],
  ])('reads nothing through %s (O_NOFOLLOW guards only the last name)', async (_name, swapped, target) => {
    const { root, outside } = await workspaceBesideOutside();
    if (swapped === 'wiki') {
      await mkdir(path.join(path.dirname(outside), 'concepts'), { recursive: true });
      await writeFile(path.join(path.dirname(outside), 'concepts/attention.md'), `---\ntitle: A\nsummary: B\n---\n\n${SECRET}\n`);
    }
    await rename(path.join(root, swapped), path.join(root, `${swapped}-moved`));
    await symlink(target(outside), path.join(root, swapped));
    expect(readPage(root, 'wiki/concepts/attention.md')).toBeUndefined();
    expect(readPageBytes(root, 'wiki/concepts/attention.md')).toEqual({ refused: 'outside', links: 1 });
  });

  it.each([
    ['a hard link', async (root: string, outside: string) => link(path.join(outside, 'attention.md'), path.join(root, 'wiki/concepts/linked.md')), { refused: 'hard-link', links: 2 }],
    ['a symbolic link to a page outside', async (root: string, outside: string) => symlink(path.join(outside, 'attention.md'), path.join(root, 'wiki/concepts/linked.md')), { refused: 'unreadable', links: 0 }],
    ['a folder', async (root: string) => mkdir(path.join(root, 'wiki/concepts/linked.md')), { refused: 'not-a-file', links: 2 }],
    ['a page that does not exist', async () => undefined, { refused: 'unreadable', links: 0 }],
  ])('refuses %s and says why, reading none of its bytes', async (_name, make, why) => {
    const { root, outside } = await workspaceBesideOutside();
    await make(root, outside);
    expect(readPageBytes(root, 'wiki/concepts/linked.md')).toEqual(why);
    expect(readPage(root, 'wiki/concepts/linked.md')).toBeUndefined();
  });

  it('gives a page its exact bytes, not valid UTF-8 included', async () => {
    const { root } = await workspaceBesideOutside();
    const latin1 = Buffer.from([0x43, 0x61, 0x66, 0xe9, 0x0a]);
    await writeFile(path.join(root, 'wiki/concepts/cafe.md'), latin1);
    const read = readPageBytes(root, 'wiki/concepts/cafe.md');
    expect('bytes' in read && read.bytes.equals(latin1)).toBe(true);
  });
});
