import { spawnSync } from 'node:child_process';
import { mkdir, readFile, readdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MODELS } from '../../src/providers/defaults.js';
import { CLI, hashTree, initWorkspace, runCli, tempDir } from '../helpers/cli.js';

describe('wiki --help / --version', () => {
  it('prints help with the commands and exit codes', async () => {
    const result = await runCli(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/init/);
    expect(result.stdout).toMatch(/Exit codes/);
  });

  it('prints the package version', async () => {
    const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    const result = await runCli(['--version']);
    expect(result.stdout.trim()).toBe(pkg.version);
  });

  it.each(['init', 'status', 'config'])('%s --help shows examples', async (command) => {
    const result = await runCli([command, '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Examples:/);
  });

  it('an unknown command is a usage error (exit 2)', async () => {
    const result = await runCli(['frobnicate']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/unknown command/);
  });
});

describe('wiki init', () => {
  it('writes the workspace from templates', async () => {
    const parent = await tempDir();
    const result = await runCli(['init', 'demo'], { cwd: parent });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Next steps/);
    const root = path.join(parent, 'demo');
    for (const file of ['schema.md', 'wiki.config.json', 'wiki/index.md', 'wiki/log.md', '.gitignore']) {
      expect((await readFile(path.join(root, file), 'utf8')).length).toBeGreaterThan(0);
    }
    for (const folder of ['raw', 'wiki/sources', 'wiki/concepts', 'wiki/entities']) {
      expect(await readdir(path.join(root, folder))).toEqual([]);
    }
    expect(await readFile(path.join(root, '.gitignore'), 'utf8')).toContain('.wiki/');
    expect(await readFile(path.join(root, 'schema.md'), 'utf8')).toContain('## Workflow: answer a query');
    expect(await readFile(path.join(root, 'wiki/index.md'), 'utf8')).toContain('<!-- wiki:catalog:start -->');
    expect(await readFile(path.join(root, 'wiki/log.md'), 'utf8')).toMatch(/^## \[\d{4}-\d{2}-\d{2}\] init \| workspace created$/m);
    expect(JSON.parse(await readFile(path.join(root, 'wiki.config.json'), 'utf8'))).toMatchObject({ maxTurns: 40 });
  });

  it('prints next steps that work as printed, from where init ran, with `wiki` on PATH', async () => {
    const parent = await tempDir();
    const result = await runCli(['init', "my research's wiki"], { cwd: parent });
    expect(result.code).toBe(0);
    const steps = result.stdout.split('Next steps:\n')[1]?.split('\n\n')[0]?.split('\n').map((line) => line.trim()) ?? [];
    expect(steps[0]).toBe(`cd 'my research'\\''s wiki'`);
    expect(steps).toContain('wiki status');
    expect(steps.some((step) => step.startsWith('export ANTHROPIC_API_KEY='))).toBe(true);
    // The steps a new user can take before a key is set, run by a shell as printed.
    const bin = await tempDir();
    await symlink(CLI, path.join(bin, 'wiki'));
    const runnable = steps.filter((step) => step.startsWith('cd ') || step === 'wiki status');
    const shell = spawnSync('sh', ['-c', runnable.join(' && ')], {
      cwd: parent,
      encoding: 'utf8',
      env: { PATH: `${bin}${path.delimiter}${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}`, HOME: parent },
    });
    expect(shell.stderr).toBe('');
    expect(shell.status).toBe(0);
    expect(shell.stdout).toContain(`wiki at ${path.join(parent, "my research's wiki")}`);
  });

  it('refuses to overwrite, naming the file, and writes nothing; --force overwrites', async () => {
    const root = await initWorkspace();
    await writeFile(path.join(root, 'schema.md'), 'my own schema');
    const refused = await runCli(['init', root]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/schema\.md already exists/);
    expect(await readFile(path.join(root, 'schema.md'), 'utf8')).toBe('my own schema');
    const forced = await runCli(['init', root, '--force']);
    expect(forced.code).toBe(0);
    expect(await readFile(path.join(root, 'schema.md'), 'utf8')).toContain('contract:');
  });

  it('--json prints one JSON result', async () => {
    const dir = path.join(await tempDir(), 'w');
    const result = await runCli(['init', dir, '--json']);
    expect(JSON.parse(result.stdout)).toMatchObject({ root: dir, overwritten: [] });
  });

  it("the tests' workspaces (initWorkspace, a copy of one init) are what `wiki init` writes in that folder, each its own", async () => {
    const [first, second] = [await initWorkspace(), await initWorkspace()];
    const real = path.join(await tempDir(), 'a folder named otherwise');
    expect((await runCli(['init', real])).code).toBe(0);
    // The log's init entry is dated: the copy may come from the day before, if the run crossed midnight.
    const undated = async (root: string): Promise<unknown> => ({
      files: [...(await hashTree(root))].filter(([file]) => file !== 'wiki/log.md'),
      log: (await readFile(path.join(root, 'wiki/log.md'), 'utf8')).replace(/\d{4}-\d{2}-\d{2}/g, 'DATE'),
    });
    expect(await undated(first)).toEqual(await undated(real));
    await writeFile(path.join(first, 'schema.md'), 'changed in the first copy');
    expect(await undated(second)).toEqual(await undated(real));
    const status = await runCli(['status', '--json'], { cwd: second });
    expect((JSON.parse(status.stdout) as { root: string }).root).toBe(second);
  });
});

describe('workspace discovery', () => {
  it('finds the workspace from a subfolder', async () => {
    const root = await initWorkspace();
    const sub = path.join(root, 'wiki', 'concepts');
    const result = await runCli(['status', '--json'], { cwd: sub });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).root).toBe(root);
  });

  it('--root overrides discovery', async () => {
    const root = await initWorkspace();
    const elsewhere = await tempDir();
    const result = await runCli(['--root', root, 'status', '--json'], { cwd: elsewhere });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).root).toBe(root);
  });

  it('no workspace: exit 2 telling to run wiki init', async () => {
    const result = await runCli(['status'], { cwd: await tempDir() });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/run `wiki init`/);
  });

  it('with --json a failure is still one JSON document on stdout', async () => {
    const result = await runCli(['status', '--json'], { cwd: await tempDir() });
    expect(result.code).toBe(2);
    expect(JSON.parse(result.stdout)).toEqual({
      error: { message: expect.stringMatching(/no wiki workspace/), hint: expect.stringMatching(/wiki init/), exitCode: 2, type: 'ConfigError' },
    });
  });

  it('--root without schema.md: exit 2', async () => {
    const result = await runCli(['--root', await tempDir(), 'status']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/no schema\.md/);
  });

  it('a broken schema.md contract: exit 2 naming the field', async () => {
    const root = await initWorkspace();
    const schema = await readFile(path.join(root, 'schema.md'), 'utf8');
    await writeFile(path.join(root, 'schema.md'), schema.replace('index: wiki/index.md', 'index: 42'));
    const result = await runCli(['status'], { cwd: root });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/contract\.index/);
  });
});

describe('wiki config', () => {
  it('shows values with their source; flags > env > file > defaults; secrets masked', async () => {
    const root = await initWorkspace();
    const result = await runCli(['config', '--json'], {
      cwd: root,
      env: { WIKI_MODEL: 'env-model', ANTHROPIC_API_KEY: 'sk-ant-very-secret' },
    });
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain('sk-ant-very-secret');
    const report = JSON.parse(result.stdout) as { entries: Array<{ key: string; value: unknown; source: string }>; secrets: unknown[] };
    const byKey = Object.fromEntries(report.entries.map((e) => [e.key, e]));
    expect(byKey.model).toMatchObject({ value: 'env-model', source: 'WIKI_MODEL' });
    expect(byKey.maxTurns).toMatchObject({ value: 40, source: 'wiki.config.json' });
    expect(byKey['search.k']).toMatchObject({ value: 60, source: 'default' });
    expect(report.secrets).toEqual([
      { name: 'ANTHROPIC_API_KEY', set: true, from: 'environment' },
      { name: 'OPENAI_API_KEY', set: false },
    ]);
    const human = await runCli(['config'], { cwd: root, env: { ANTHROPIC_API_KEY: 'sk-ant-very-secret' } });
    expect(human.stdout).toMatch(/ANTHROPIC_API_KEY: set/);
    expect(human.stdout).not.toContain('sk-ant-very-secret');
  });

  it('config set validates and edits the file', async () => {
    const root = await initWorkspace();
    expect((await runCli(['config', 'set', 'search.weights.lexical', '1.2'], { cwd: root })).code).toBe(0);
    const file = JSON.parse(await readFile(path.join(root, 'wiki.config.json'), 'utf8'));
    expect(file.search.weights.lexical).toBe(1.2);
    const bad = await runCli(['config', 'set', 'maxTurns', 'lots'], { cwd: root });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/maxTurns/);
    expect(JSON.parse(await readFile(path.join(root, 'wiki.config.json'), 'utf8')).maxTurns).toBe(40);
  });

  it('shows the provider, model and base URL a run would use, not "undefined"', async () => {
    const root = await initWorkspace();
    const keyed = await runCli(['config', '--json'], { cwd: root, env: { ANTHROPIC_API_KEY: 'sk-ant-x' } });
    const byKey = Object.fromEntries((JSON.parse(keyed.stdout) as { entries: Array<{ key: string }> }).entries.map((e) => [e.key, e]));
    expect(byKey.provider).toEqual({ key: 'provider', value: 'anthropic', source: 'ANTHROPIC_API_KEY is set' });
    expect(byKey.model).toEqual({ key: 'model', value: DEFAULT_MODELS.anthropic, source: 'default for anthropic' });
    const local = await runCli(['config'], { cwd: root, env: { OPENAI_BASE_URL: 'http://localhost:11434/v1' } });
    expect(local.stdout).toMatch(/^provider +"openai" +\(OPENAI_BASE_URL is set\)$/m);
    expect(local.stdout).toMatch(/^model +"gpt-[^"]+" +\(default for openai\)$/m);
    expect(local.stdout).toMatch(/^baseUrl +"http:\/\/localhost:11434\/v1" +\(OPENAI_BASE_URL\)$/m);
    const none = await runCli(['config'], { cwd: root });
    expect(none.stdout).not.toContain('undefined');
    expect(none.stdout).toMatch(/^provider +not set +\(default\)$/m);
    expect(none.stdout).toMatch(/provider in use: none — set ANTHROPIC_API_KEY/);
  });

  it.each([
    [['model'], { OPENAI_API_KEY: 'sk-x' }, /^"gpt-[^"]+" +\(default for openai\)$/],
    [['model'], { OPENAI_API_KEY: 'sk-x', WIKI_MODEL: 'mine' }, /^"mine" +\(WIKI_MODEL\)$/],
    [['maxTurns'], {}, /^40 +\(wiki.config.json\)$/],
    [['search.weights.semantic'], {}, /^1.5 +\(default\)$/],
    [['maxCost'], {}, /^not set +\(default\)$/],
  ])('config get %s', async (args, env, expected) => {
    const root = await initWorkspace();
    const result = await runCli(['config', 'get', ...args], { cwd: root, env });
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toMatch(expected);
  });

  it('config get refuses an unknown key', async () => {
    const result = await runCli(['config', 'get', 'modle'], { cwd: await initWorkspace() });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/unknown config key "modle"/);
  });

  it('config set KEY null says it unset the key', async () => {
    const root = await initWorkspace();
    const result = await runCli(['config', 'set', 'maxTurns', 'null'], { cwd: root });
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe('unset maxTurns in wiki.config.json (the default applies)');
    expect(JSON.parse(await readFile(path.join(root, 'wiki.config.json'), 'utf8'))).not.toHaveProperty('maxTurns');
  });

  it('validation errors name what was wrong, not a file that was not changed', async () => {
    const root = await initWorkspace();
    const before = await readFile(path.join(root, 'wiki.config.json'), 'utf8');
    const refused = await runCli(['config', 'set', 'maxTurns', '-3'], { cwd: root });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/wiki config set maxTurns: invalid maxTurns/);
    expect(refused.stderr).toMatch(/wiki\.config\.json was not changed/);
    const fromEnv = await runCli(['config'], { cwd: root, env: { WIKI_MAX_TURNS: '-3' } });
    expect(fromEnv.code).toBe(2);
    expect(fromEnv.stderr).toMatch(/environment variable WIKI_MAX_TURNS: invalid maxTurns/);
    expect(fromEnv.stderr).toMatch(/wiki\.config\.json is not the cause/);
    expect(await readFile(path.join(root, 'wiki.config.json'), 'utf8')).toBe(before);
  });

  it.each([['ingest', 'raw/'], ['query', 'why?'], ['lint'], ['undo']])('wiki %s --wait soon: one parser, one usage error', async (...args) => {
    const result = await runCli([...args, '--wait', 'soon'], { cwd: await initWorkspace() });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--wait soon: not a number of seconds/);
  });

  it('an invalid wiki.config.json: exit 2 with the field path', async () => {
    const root = await initWorkspace();
    await writeFile(path.join(root, 'wiki.config.json'), JSON.stringify({ search: { weights: { token: 'high' } } }));
    const result = await runCli(['status'], { cwd: root });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/search\.weights\.token/);
  });
});

describe('wiki status', () => {
  it('shows a sane empty wiki', async () => {
    const root = await initWorkspace();
    const result = await runCli(['status'], { cwd: root });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Pages:\s+0/);
    expect(result.stdout).toMatch(/Sources:\s+0 in raw\//);
    expect(result.stdout).toMatch(/init \| workspace created/);
    expect(result.stdout).toMatch(/Provider: none/);
  });

  it('--json: pages by type, uncited raw sources, recent log, provider', async () => {
    const root = await initWorkspace();
    await writeFile(path.join(root, 'raw', 'a.md'), '# A');
    await writeFile(path.join(root, 'raw', 'b.md'), '# B');
    await writeFile(
      path.join(root, 'wiki', 'sources', 'a.md'),
      '---\ntitle: A\nsummary: s\nsources: [raw/a.md]\n---\nbody\n',
    );
    await mkdir(path.join(root, 'wiki', 'concepts'), { recursive: true });
    await writeFile(path.join(root, 'wiki', 'concepts', 'idea.md'), '---\ntitle: Idea\nsummary: s\n---\nbody\n');
    const result = await runCli(['status', '--json'], { cwd: root, env: { OPENAI_API_KEY: 'sk-x' } });
    const report = JSON.parse(result.stdout);
    expect(report.pages).toEqual({ total: 2, byType: { source: 1, concept: 1, entity: 0 } });
    expect(report.raw).toMatchObject({ total: 2, uncited: ['raw/b.md'] });
    expect(report.recentLog[0]).toMatchObject({ op: 'init', title: 'workspace created' });
    expect(report.provider).toMatchObject({ provider: 'openai', from: 'OPENAI_API_KEY is set', keySet: true });
    expect(result.stdout).not.toContain('sk-x');
  });
});
