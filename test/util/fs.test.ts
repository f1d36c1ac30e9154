import { chmod, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../src/util/fs.js';
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
