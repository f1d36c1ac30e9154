import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { initWorkspace, runCli } from '../helpers/cli.js';

/** State files of the wrong kind are the user's to fix: exit 2, the path named, what to do — never "unexpected failure". */
describe('state paths of the wrong kind', () => {
  it.each([
    ['.wiki is a file', async (root: string) => {
      await rm(path.join(root, '.wiki'), { recursive: true, force: true });
      await writeFile(path.join(root, '.wiki'), 'x');
    }, '.wiki', 'is a file where the tool keeps a folder'],
    ['.wiki/search is a file', async (root: string) => {
      await rm(path.join(root, '.wiki/search'), { recursive: true, force: true });
      await mkdir(path.join(root, '.wiki'), { recursive: true });
      await writeFile(path.join(root, '.wiki/search'), 'x');
    }, '.wiki/search', 'is in the way of the tool’s own state'],
  ])('%s: search exits 2 naming it', async (_what, breakIt, named, problem) => {
    const root = await initWorkspace();
    await breakIt(root);
    const result = await runCli(['search', 'anything'], { cwd: root });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${named} ${problem}`);
    expect(result.stderr).toContain(`mv ${named} ${named}.bak`);
    expect(result.stderr).not.toMatch(/unexpected failure/);
  });

  it('.wiki/lock is a folder: a mutating command exits 2 naming it, and the folder is left alone', async () => {
    const root = await initWorkspace();
    await mkdir(path.join(root, '.wiki/lock/inside'), { recursive: true });
    const result = await runCli(['lint', '--fix'], { cwd: root });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('.wiki/lock is a folder where the tool keeps a file');
    expect(result.stderr).toContain('mv .wiki/lock .wiki/lock.bak');
    expect(result.stderr).not.toMatch(/unexpected failure/);
    expect((await stat(path.join(root, '.wiki/lock/inside'))).isDirectory()).toBe(true);
  });
});
