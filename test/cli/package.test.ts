import { cp, mkdir, readFile, symlink } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli, tempDir } from '../helpers/cli.js';

/**
 * The package as installed: only what `files` ships, with only the `dependencies` (and what
 * they need, per package-lock.json) next to it. Every command that needs no model must run
 * there, so a package the bundle loads at run time cannot hide among the devDependencies.
 */
interface Lock {
  packages: Record<string, { dev?: boolean; link?: boolean }>;
}
interface Manifest {
  bin: { wiki: string };
  files: string[];
  dependencies: Record<string, string>;
}

let installed: string;
let cli: string;

beforeAll(async () => {
  const manifest = JSON.parse(await readFile(path.join(REPO_ROOT, 'package.json'), 'utf8')) as Manifest;
  const lock = JSON.parse(await readFile(path.join(REPO_ROOT, 'package-lock.json'), 'utf8')) as Lock;
  installed = path.join(await tempDir(), 'wiki');
  await mkdir(installed, { recursive: true });
  await cp(path.join(REPO_ROOT, 'package.json'), path.join(installed, 'package.json'));
  for (const entry of manifest.files) await cp(path.join(REPO_ROOT, entry), path.join(installed, entry), { recursive: true });
  for (const [location, meta] of Object.entries(lock.packages)) {
    if (location === '' || meta.dev || !location.startsWith('node_modules/') || location.lastIndexOf('node_modules/') !== 0) continue;
    await mkdir(path.dirname(path.join(installed, location)), { recursive: true });
    await symlink(path.join(REPO_ROOT, location), path.join(installed, location), 'dir');
  }
  cli = path.join(installed, manifest.bin.wiki);
});

describe('the installed package', () => {
  it('ships the bundle and templates, not the compiled sources or scripts', async () => {
    const manifest = JSON.parse(await readFile(path.join(REPO_ROOT, 'package.json'), 'utf8')) as Manifest;
    expect(manifest.files.sort()).toEqual(['data', 'dist/bundle', 'templates']);
    expect(Object.keys(manifest.dependencies)).not.toContain('proper-lockfile');
  });

  it('runs every command that needs no model with the production dependencies alone', async () => {
    const parent = await tempDir();
    const init = await runCli(['init', '--example', 'ex'], { cwd: parent, cli });
    expect(init.code, init.stderr).toBe(0);
    const root = path.join(parent, 'ex');
    for (const args of [['status', '--json'], ['lint', '--no-llm', '--json'], ['search', 'memex', '--json'], ['graph', '--format', 'json', '--out', '-'], ['config', 'get', 'maxTurns']]) {
      const result = await runCli(args, { cwd: root, cli });
      expect(result.stderr, args.join(' ')).not.toMatch(/cannot find|error/i);
      expect(result.code, args.join(' ')).toBe(0);
    }
    const lint = await runCli(['lint', '--no-llm', '--json'], { cwd: root, cli });
    expect(JSON.parse(lint.stdout)).toMatchObject({ errors: 0 });
  });
});
