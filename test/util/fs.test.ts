import { chmod, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { atomicTempOwner, atomicTempPath, removeAbandonedTempFiles, writeFileAtomic } from '../../src/util/fs.js';
import { tempDir } from '../helpers/cli.js';

describe('writeFileAtomic', () => {
  it.each([0o600, 0o644, 0o664, 0o755, 0o400])('a rewrite keeps the file mode %o', async (mode) => {
    const dir = await tempDir();
    const file = path.join(dir, 'page.md');
    await writeFile(file, 'old');
    await chmod(file, mode);
    await writeFileAtomic(file, 'new');
    expect(await readFile(file, 'utf8')).toBe('new');
    expect((await stat(file)).mode & 0o7777).toBe(mode);
    expect(await readdir(dir)).toEqual(['page.md']);
  });

  it('a new file gets the mode the umask gives any new file', async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, 'plain.md'), 'x');
    await writeFileAtomic(path.join(dir, 'sub', 'atomic.md'), 'x');
    expect((await stat(path.join(dir, 'sub', 'atomic.md'))).mode & 0o7777).toBe((await stat(path.join(dir, 'plain.md'))).mode & 0o7777);
  });
});

describe('atomic-write temp files', () => {
  it('are named next to the target and parsed back to the pid that wrote them', () => {
    const temp = atomicTempPath('/w/wiki/concepts/page.md');
    expect(path.dirname(temp)).toBe('/w/wiki/concepts');
    expect(atomicTempOwner(path.basename(temp))).toBe(process.pid);
  });

  it.each(['page.md', '.page.md.tmp', '.page.md.12.zz.tmp', 'page.md.123.abcd1234.tmp'])('%s is not one', (name) => {
    expect(atomicTempOwner(name)).toBeUndefined();
  });
});

describe('removeAbandonedTempFiles', () => {
  it('removes the temp files of writers that are gone, and nothing else', async () => {
    const root = await tempDir();
    await mkdir(path.join(root, 'wiki/concepts'), { recursive: true });
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    const dead = `.page.md.${gone}.0123abcd.tmp`;
    const mine = path.basename(atomicTempPath(path.join(root, 'wiki/page.md')));
    await writeFile(path.join(root, 'wiki/concepts', dead), 'half');
    await writeFile(path.join(root, 'wiki', mine), 'in progress');
    await writeFile(path.join(root, 'wiki/concepts/page.md'), 'page');
    expect(await removeAbandonedTempFiles(root, ['wiki', 'raw'])).toEqual([`wiki/concepts/${dead}`]);
    expect((await readdir(path.join(root, 'wiki'))).sort()).toEqual([mine, 'concepts'].sort());
    expect(await readdir(path.join(root, 'wiki/concepts'))).toEqual(['page.md']);
  });
});
