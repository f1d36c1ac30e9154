import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hashTree, runCli, tempDir } from '../helpers/cli.js';
import { freshWorkspace } from './cron-fixtures.js';

/** `wiki init` never nests a workspace in another, and a file where a folder must be is the user's input, named (exit 2). */

describe('wiki init refuses what would break a wiki', () => {
  it('inside an existing workspace: exit 2 naming the enclosing one, nothing written', async () => {
    const root = await freshWorkspace();
    const before = await hashTree(root);
    const result = await runCli(['init', 'wiki/concepts/myresearch'], { cwd: root });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/wiki\/concepts\/myresearch is inside the workspace .* \(it holds schema\.md\)/);
    expect(result.stderr).toContain(root);
    expect(await hashTree(root)).toEqual(before);
    const lint = await runCli(['lint', '--no-llm'], { cwd: root });
    expect(lint.code, lint.stdout).toBe(0);
  });

  it('a new workspace beside another (not inside it) is fine', async () => {
    const parent = await tempDir();
    expect((await runCli(['init', 'one'], { cwd: parent })).code).toBe(0);
    expect((await runCli(['init', 'two'], { cwd: parent })).code).toBe(0);
  });

  it('`wiki init afile` and `wiki init afile/sub`: exit 2 "afile is a file", not an unexpected failure', async () => {
    const parent = await tempDir();
    await writeFile(path.join(parent, 'afile'), 'not a folder');
    for (const dir of ['afile', 'afile/sub']) {
      const result = await runCli(['init', dir], { cwd: parent });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^error: afile is a file/);
      expect(result.stderr).not.toMatch(/EEXIST|ENOTDIR|unexpected/);
    }
  });
});

describe('wiki graph --out through a file', () => {
  it('`--out afile/g.html`: exit 2 "afile is a file"', async () => {
    const root = await freshWorkspace();
    await writeFile(path.join(root, 'afile'), 'not a folder');
    const result = await runCli(['graph', '--out', 'afile/g.html'], { cwd: root });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: afile is a file/);
    expect(result.stderr).not.toMatch(/EEXIST|ENOTDIR|unexpected/);
  });
});
