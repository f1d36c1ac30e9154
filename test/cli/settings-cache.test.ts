import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cloneWorkspace, hashTree, initWorkspace, runCli } from '../helpers/cli.js';

/**
 * The settings cache (.wiki/cache/settings.json) as the shipped command uses it: kept
 * after a command that ran, used while schema.md and wiki.config.json are unchanged,
 * never a reason for a command to fail or to write where it promises not to.
 */
let template: string;

beforeAll(async () => {
  template = await initWorkspace();
});

/** A copy of a fresh `wiki init` workspace, with a .wiki/ as any workspace that ran a command has. */
async function workspaceWithState(): Promise<string> {
  const root = await cloneWorkspace(template);
  await mkdir(path.join(root, '.wiki'), { recursive: true });
  return root;
}

const cacheFile = (root: string): string => path.join(root, '.wiki', 'cache', 'settings.json');

interface ConfigReport {
  entries: Array<{ key: string; value: unknown; source: string }>;
  secrets: Array<{ name: string; set: boolean }>;
}

async function configReport(root: string, env: Record<string, string> = {}): Promise<ConfigReport> {
  const result = await runCli(['--root', root, 'config', '--json'], { env });
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as ConfigReport;
}

const entry = (report: ConfigReport, key: string) => report.entries.find((e) => e.key === key);

describe('wiki config with the settings cache', () => {
  it('reports the same from the cache as when validating, and `config set` takes effect at once', async () => {
    const root = await workspaceWithState();
    const first = await configReport(root);
    expect(existsSync(cacheFile(root))).toBe(true);
    const cache = await readFile(cacheFile(root), 'utf8');
    expect(await configReport(root)).toEqual(first);
    expect(await readFile(cacheFile(root), 'utf8')).toBe(cache); // a hit rewrites nothing

    const set = await runCli(['--root', root, 'config', 'set', 'maxTurns', '12']);
    expect(set.code, set.stderr).toBe(0);
    const after = await configReport(root);
    expect(entry(after, 'maxTurns')).toEqual({ key: 'maxTurns', value: 12, source: 'wiki.config.json' });
    expect(await configReport(root)).toEqual(after);
  });

  it('environment overrides and secrets are read each time and never stored', async () => {
    const root = await workspaceWithState();
    await configReport(root); // cached without overrides
    const secret = 'sk-ant-never-in-the-cache';
    const report = await configReport(root, { WIKI_MODEL: 'env-model', ANTHROPIC_API_KEY: secret });
    expect(entry(report, 'model')).toMatchObject({ value: 'env-model', source: expect.stringContaining('WIKI_MODEL') });
    expect(report.secrets).toContainEqual({ name: 'ANTHROPIC_API_KEY', set: true, from: 'environment' });
    const plain = await configReport(root, { ANTHROPIC_API_KEY: secret });
    expect(entry(plain, 'model')?.source).not.toContain('WIKI_MODEL');
    expect(plain.secrets).toContainEqual({ name: 'ANTHROPIC_API_KEY', set: true, from: 'environment' });
    expect(await readFile(cacheFile(root), 'utf8')).not.toContain(secret);
    expect(await readFile(cacheFile(root), 'utf8')).not.toContain('env-model');
  });
});

describe('when the cache is not written', () => {
  it('a refused command (exit 2) leaves every byte as it was', async () => {
    const root = await workspaceWithState();
    const before = await hashTree(root);
    const result = await runCli(['--root', root, 'ingest', 'raw/nope.md']);
    expect(result.code).toBe(2);
    expect(await hashTree(root)).toEqual(before);
  });

  it('a workspace that never ran anything gets no .wiki/ for it', async () => {
    const root = await cloneWorkspace(template);
    await configReport(root);
    expect(existsSync(path.join(root, '.wiki'))).toBe(false);
  });

  it('a .wiki/ that cannot hold it: the command still works', async () => {
    const root = await workspaceWithState();
    await writeFile(path.join(root, '.wiki', 'cache'), 'a file where the cache folder would be');
    for (let run = 0; run < 2; run++) {
      const result = await runCli(['--root', root, 'search', 'anything', '--json']);
      // It ran (no page matches: found: false, exit 1), and said nothing about the cache.
      expect(result.code, result.stderr).toBe(1);
      expect(JSON.parse(result.stdout)).toMatchObject({ found: false });
      expect(result.stderr).toBe('');
    }
  });
});
