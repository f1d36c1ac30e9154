import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { MODULE_CLI, REPO_ROOT, initWorkspace, runCli, tempDir, type CliResult } from '../helpers/cli.js';

/**
 * These runs use the compiled CLI before bundling (one file per module), so they can see
 * which modules load; the shipped bundle splits at the same dynamic imports.
 *
 * Start-up cost is module loading: every command registers at start-up, so a command
 * file that imports its operation statically makes `--version` and every other command
 * pay for it. These runs record which files the built CLI loads (a module resolve hook,
 * and the CommonJS module cache at exit) and check the heavy ones (zod, yaml, gray-matter, fast-glob, stemmer,
 * the search engine, operations) stay out until a command needs them.
 */
let hookEnv: Record<string, string>;

beforeAll(async () => {
  const dir = await tempDir('wiki-loads-');
  await writeFile(
    path.join(dir, 'hook.mjs'),
    "export async function resolve(specifier, context, next) {\n  const result = await next(specifier, context);\n  if (result.url.startsWith('file:')) process.stderr.write('LOADED ' + result.url + '\\n');\n  return result;\n}\n",
  );
  // ES modules are seen as they resolve; CommonJS ones (required lazily, or by a package) are listed at exit.
  await writeFile(
    path.join(dir, 'register.mjs'),
    [
      "import { createRequire, register } from 'node:module';",
      "import { pathToFileURL } from 'node:url';",
      "register('./hook.mjs', import.meta.url);",
      'const { cache } = createRequire(import.meta.url);',
      "process.on('exit', () => { for (const file of Object.keys(cache)) process.stderr.write('LOADED ' + pathToFileURL(file).href + '\\n'); });",
      '',
    ].join('\n'),
  );
  hookEnv = { NODE_OPTIONS: `--import=${pathToFileURL(path.join(dir, 'register.mjs')).href}` };
});

/** Repository-relative paths of the files the run loaded, e.g. `node_modules/zod/index.js`, `dist/src/cli/main.js`. */
function loaded(result: CliResult): string[] {
  const prefix = `${pathToFileURL(REPO_ROOT).href}/`;
  return result.stderr
    .split('\n')
    .filter((line) => line.startsWith('LOADED '))
    .map((line) => line.slice('LOADED '.length))
    .map((url) => (url.startsWith(prefix) ? url.slice(prefix.length) : url));
}

function packagesIn(files: string[]): Set<string> {
  const names = new Set<string>();
  for (const file of files) {
    const match = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file);
    if (match?.[1]) names.add(match[1]);
  }
  return names;
}

describe('what the CLI loads before a command needs it', () => {
  it.each([
    ['--version', ['--version'], 0],
    ['--help', ['--help'], 0],
    ['search --help', ['search', '--help'], 0],
    ['graph --help', ['graph', '--help'], 0],
    ['an empty search query (a usage error found before the workspace is opened)', ['search', ''], 2],
  ])('%s loads commander and the command files, not the heavy modules', async (_label, args, code) => {
    const result = await runCli(args, { env: hookEnv, cli: MODULE_CLI });
    expect(result.code).toBe(code);
    const files = loaded(result);
    // The hook saw the run at all (else the checks below would pass vacuously).
    expect(files).toContain('dist/src/cli/main.js');
    expect(files).toContain('dist/src/commands/search.js');
    expect([...packagesIn(files)].sort()).toEqual(['commander', 'picocolors']);
    const heavy = files.filter((file) => /^dist\/src\/(search|operations|mcp|providers|agent|sources|tools)\//.test(file));
    expect(heavy).toEqual([]);
  });
});

describe('what `wiki search` loads with a saved index', () => {
  /** The modules that read and validate schema.md and wiki.config.json: zod and the schema-md YAML reader. */
  const SETTINGS_MODULES = /^dist\/src\/(wiki\/(schema-loader|frontmatter|contract-schema)|config\/(load|schema))\.js$/;
  let root: string;

  beforeAll(async () => {
    root = await initWorkspace();
    await writeFile(
      path.join(root, 'wiki', 'concepts', 'attention.md'),
      '---\ntitle: Attention\nsummary: How tokens weigh each other\n---\n\nAttention mixes values by query and key scores.\n',
    );
    // Builds and saves the index; validates schema.md and wiki.config.json and keeps the result in .wiki/cache/.
    expect((await runCli(['--root', root, 'search', 'attention'], { cli: MODULE_CLI })).code).toBe(0);
  });

  async function search(): Promise<{ result: CliResult; files: string[]; validated: boolean }> {
    const result = await runCli(['--root', root, 'search', 'attention', '--json'], { env: hookEnv, cli: MODULE_CLI });
    const files = loaded(result);
    expect(files).toContain('dist/src/cli/main.js');
    const settingsFiles = files.filter((file) => SETTINGS_MODULES.test(file));
    const validated = packagesIn(files).has('zod');
    // Either both the settings modules and zod load (validation) or neither (the cache).
    expect(settingsFiles.length > 0).toBe(validated);
    return { result, files, validated };
  }

  it('no YAML or frontmatter library, glob, graph or schema library: settings as last validated, pages read only for their text', async () => {
    const { result, files, validated } = await search();
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ results: [{ path: 'wiki/concepts/attention.md' }] });
    expect(files).toContain('dist/src/search/index.js');
    expect(validated).toBe(false);
    expect([...packagesIn(files)].filter((name) => ['zod', 'yaml', 'gray-matter', 'fast-glob'].includes(name))).toEqual([]);
    expect(files.filter((file) => /^dist\/src\/(graph\/(?!formats\.js)|wiki\/pages\.js|operations\/(?!inspect\/search\.js))/.test(file))).toEqual([]);
  });

  it('after an edit to wiki.config.json, validates again and the edit takes effect; then the new settings are kept', async () => {
    await writeFile(path.join(root, 'wiki.config.json'), `${JSON.stringify({ search: { embedder: { kind: 'none' } } })}\n`);
    const edited = await search();
    expect(edited.result.code).toBe(0);
    expect(JSON.parse(edited.result.stdout).lanes.semantic).toMatch(/^skipped/);
    expect(edited.validated).toBe(true);

    const next = await search();
    expect(JSON.parse(next.result.stdout).lanes.semantic).toMatch(/^skipped/);
    expect(next.validated).toBe(false);
  });

  it('after an edit to schema.md, validates again: an invalid contract fails as it always did', async () => {
    const schemaFile = path.join(root, 'schema.md');
    const valid = await readFile(schemaFile, 'utf8');
    await writeFile(schemaFile, valid.replace('version: 1', 'version: 2'));
    const edited = await search();
    expect(edited.result.code).toBe(2);
    expect(JSON.parse(edited.result.stdout).error.message).toMatch(/^schema\.md: invalid contract field contract\.version: /);
    expect(edited.validated).toBe(true);

    await writeFile(schemaFile, valid);
    expect((await search()).result.code).toBe(0);
  });
});

describe('what the build worker loads', () => {
  it('reads and analyses pages without the schema library, YAML or gray-matter (its start is on the build critical path)', async () => {
    // Run as a plain script, the worker finds no parent port and exits once loaded.
    const result = await runCli([], { env: hookEnv, cli: path.join(REPO_ROOT, 'dist/src/search/build/build-worker.js') });
    expect(result.code).toBe(0);
    const files = loaded(result);
    expect(files).toContain('dist/src/search/build/page-batch.js');
    expect([...packagesIn(files)].sort()).toEqual(['stemmer']);
    // The one page reader (wiki/page-read.js) is light and is what the worker reads pages with.
    expect(files.filter((file) => /^dist\/src\/(wiki\/(contract|contract-schema|page|page-index|schema-loader)\.js$|config\/)/.test(file))).toEqual([]);
    expect(files).toContain('dist/src/wiki/page-read.js');
  });
});
