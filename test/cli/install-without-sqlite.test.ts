import { cp, mkdir, mkdtemp, readFile, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli } from '../helpers/cli.js';

/**
 * better-sqlite3 is an optional dependency: where its native addon neither downloads nor
 * builds, npm leaves the package out and the install still succeeds. Such an install is
 * laid out here for real: the shipped files (package.json `files`) and only the packages
 * `dependencies` names, so the bundle finds no better-sqlite3 at all.
 */
let cli: string;

beforeAll(async () => {
  const manifest = JSON.parse(await readFile(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
    bin: { wiki: string };
    files: string[];
    dependencies: Record<string, string>;
    optionalDependencies: Record<string, string>;
  };
  expect(Object.keys(manifest.optionalDependencies)).toContain('better-sqlite3');
  const installed = await mkdtemp(path.join(os.tmpdir(), 'wiki-no-sqlite-'));
  await cp(path.join(REPO_ROOT, 'package.json'), path.join(installed, 'package.json'));
  for (const shipped of manifest.files) await cp(path.join(REPO_ROOT, shipped), path.join(installed, shipped), { recursive: true });
  await mkdir(path.join(installed, 'node_modules'));
  for (const name of Object.keys(manifest.dependencies)) {
    await mkdir(path.dirname(path.join(installed, 'node_modules', name)), { recursive: true });
    await symlink(path.join(REPO_ROOT, 'node_modules', name), path.join(installed, 'node_modules', name), 'dir');
  }
  cli = path.join(installed, manifest.bin.wiki);
});

/** A user's own WIKI_SQLITE_BINDING would name another addon, and another fix. */
const NO_BINDING = { WIKI_SQLITE_BINDING: undefined };

describe('an install that left the optional SQLite addon out', () => {
  it('runs every command that needs no facts, and the facts commands exit 2 with one line naming the addon and a fix', async () => {
    const home = await mkdtemp(path.join(os.tmpdir(), 'wiki-no-sqlite-home-'));
    const init = await runCli(['init', '--example', 'example'], { cwd: home, cli, env: NO_BINDING });
    expect(init.code, init.stderr).toBe(0);
    const root = path.join(home, 'example');
    for (const command of [['status'], ['search', 'associative trail'], ['lint', '--no-llm'], ['graph', '--format', 'json']]) {
      const result = await runCli(command, { cwd: root, cli, env: NO_BINDING });
      expect(result.code, `wiki ${command.join(' ')}: ${result.stderr}`).toBe(0);
    }
    for (const command of [['facts', 'stats'], ['query', '--facts', 'what is a memex?']]) {
      const result = await runCli(command, { cwd: root, cli, env: NO_BINDING });
      expect(result.code, `wiki ${command.join(' ')}`).toBe(2);
      expect(result.stderr).toMatch(/^error: the facts store \(\.wiki\/facts\.db\) needs SQLite, and better-sqlite3's native addon could not be loaded: Cannot find package 'better-sqlite3'[^\n]* — run `npm install` in the folder wiki is installed in[^\n]+\n$/);
    }
  });
});
