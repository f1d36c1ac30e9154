import { mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { listPageFiles } from '../../src/wiki/page-files.js';
import { listPagePaths } from '../../src/wiki/pages.js';

let root: string;

async function put(file: string, text = 'x'): Promise<void> {
  await mkdir(path.dirname(path.join(root, file)), { recursive: true });
  await writeFile(path.join(root, file), text);
}

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'wiki-page-files-'));
  await put('wiki/index.md');
  await put('wiki/concepts/a.md', 'abc');
  await put('wiki/entities/deep/b.md');
  await put('wiki/user/ann/c.md');
  await put('wiki/.obsidian/hidden.md');
  await put('wiki/concepts/.trash/d.md');
  await put('wiki/.hidden.md');
  await put('wiki/node_modules/e.md');
  await put('wiki/concepts/notes.txt');
  await mkdir(path.join(root, 'wiki/folder.md'), { recursive: true });
  await put('outside/f.md');
  await symlink(path.join(root, 'outside'), path.join(root, 'wiki', 'linked-folder'));
  await symlink(path.join(root, 'outside', 'f.md'), path.join(root, 'wiki', 'concepts', 'linked.md'));
  await symlink('nowhere.md', path.join(root, 'wiki', 'concepts', 'dangling.md'));
});

describe('listPageFiles', () => {
  it('lists regular markdown files under wiki/ with their stats: no hidden entries, node_modules, folders or symbolic links', () => {
    const files = listPageFiles(root);
    expect(files.map((file) => file.path).sort()).toEqual(['wiki/concepts/a.md', 'wiki/entities/deep/b.md', 'wiki/index.md', 'wiki/user/ann/c.md']);
    expect(files.find((file) => file.path === 'wiki/concepts/a.md')).toMatchObject({ size: 3, mtimeMs: expect.any(Number) });
  });

  it.each([
    ['one folder', 'wiki/user/ann', ['wiki/user/ann/c.md']],
    ['one folder, trailing slash', 'wiki/user/ann/', ['wiki/user/ann/c.md']],
    ['a missing folder', 'wiki/user/bob', []],
    ['a file, not a folder', 'wiki/index.md', []],
  ])('%s', (_name, folder, expected) => {
    expect(listPageFiles(root, folder).map((file) => file.path)).toEqual(expected);
  });

  it('counts markdown names folder by folder, before stat-ing them', () => {
    const counts: number[] = [];
    listPageFiles(root, 'wiki', (names) => counts.push(names));
    expect(counts.length).toBeGreaterThan(3);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    // Every `.md` name is counted, pages or not (hidden ones, links, the folder named folder.md).
    expect(counts.at(-1)).toBeGreaterThan(listPageFiles(root).length);
  });

  it('listPagePaths gives the same pages, sorted', async () => {
    expect(await listPagePaths(root)).toEqual(listPageFiles(root).map((file) => file.path).sort());
  });
});
