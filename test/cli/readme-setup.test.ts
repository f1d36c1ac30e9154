import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli } from '../helpers/cli.js';

/** What a new user reads before installing, and what happens when `wiki` runs inside the checkout (a workspace itself). */

describe('README set-up', () => {
  it('states Node ≥ 20.19 before the install commands, matching package.json engines', async () => {
    const readme = await readFile(path.join(REPO_ROOT, 'README.md'), 'utf8');
    const engines = (JSON.parse(await readFile(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
    expect(engines).toBe('>=20.19');
    const node = readme.indexOf('Node.js ≥ 20.19');
    expect(node).toBeGreaterThan(-1);
    expect(node).toBeLessThan(readme.indexOf('npm install '));
  });

  it('says npm install may take minutes and may need a C++ toolchain, and that the checkout is a workspace', async () => {
    const readme = await readFile(path.join(REPO_ROOT, 'README.md'), 'utf8');
    expect(readme).toMatch(/`npm install` may take a few minutes/);
    expect(readme).toMatch(/C\+\+\s+toolchain/);
    expect(readme).toMatch(/The checkout is itself a workspace/);
  });
});

describe('wiki inside the checkout', () => {
  it('finds the checkout as its workspace, and `wiki init` there is refused naming it (nothing written)', async () => {
    const status = await runCli(['status', '--json'], { cwd: path.join(REPO_ROOT, 'src') });
    expect(status.code, status.stderr).toBe(0);
    expect((JSON.parse(status.stdout) as { root: string }).root).toBe(REPO_ROOT);
    const init = await runCli(['init', 'my-research'], { cwd: path.join(REPO_ROOT, 'src') });
    expect(init.code).toBe(2);
    expect(init.stderr).toContain(`is inside the workspace ${REPO_ROOT}`);
  });
});
