import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli, tempDir, type CliResult } from '../helpers/cli.js';

/**
 * Start-up cost is module loading: every command registers at start-up, so a command
 * file that imports its operation statically makes `--version` and every other command
 * pay for it. These runs record which files the built CLI resolves (a module resolve
 * hook) and check the heavy ones (zod, yaml, gray-matter, fast-glob, minisearch, stemmer,
 * the search engine, operations) stay out until a command needs them.
 */
let hookEnv: Record<string, string>;

beforeAll(async () => {
  const dir = await tempDir('wiki-loads-');
  await writeFile(
    path.join(dir, 'hook.mjs'),
    "export async function resolve(specifier, context, next) {\n  const result = await next(specifier, context);\n  if (result.url.startsWith('file:')) process.stderr.write('LOADED ' + result.url + '\\n');\n  return result;\n}\n",
  );
  await writeFile(path.join(dir, 'register.mjs'), "import { register } from 'node:module';\nregister('./hook.mjs', import.meta.url);\n");
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
    const result = await runCli(args, { env: hookEnv });
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
