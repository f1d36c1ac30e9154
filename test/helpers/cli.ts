import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { cp, mkdtemp, readdir, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The command as shipped: the package's `bin` (the bundle made by `npm run build`). */
export const CLI = path.join(REPO_ROOT, (JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { bin: { wiki: string } }).bin.wiki);
/** The compiled CLI before bundling, one file per module (to see which modules a command loads). */
export const MODULE_CLI = path.join(REPO_ROOT, 'dist/src/cli/main.js');

export interface CliOptions {
  cwd?: string;
  env?: Record<string, string | undefined>;
  input?: string;
  timeoutMs?: number;
  /** Another build of the command to run (default: the shipped one, `CLI`). */
  cli?: string;
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Spawn the built `wiki` as a real process. The environment is scrubbed of provider
 * keys and base URLs unless the test passes them, so a developer's shell cannot leak in.
 */
export function runCli(
  args: string[],
  opts: CliOptions = {},
): Promise<CliResult> {
  return startCli(args, opts).done;
}

export interface StartedCli {
  /** The running process, for signals (`child.kill('SIGINT')`) and its pid. */
  child: ChildProcessWithoutNullStreams;
  /** Settles when the process has exited and its output is closed. */
  done: Promise<CliResult>;
  /** Output so far, while it runs. */
  stdout(): string;
  stderr(): string;
}

/** Like `runCli`, but hands back the child process so a test can signal or kill it mid-run. */
export function startCli(
  args: string[],
  opts: CliOptions = {},
): StartedCli {
  const child = spawn(process.execPath, [opts.cli ?? CLI, ...args], {
    cwd: opts.cwd ?? os.tmpdir(),
    env: cliEnv(opts.env),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const done = new Promise<CliResult>((resolve, reject) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 300_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? (signal === 'SIGINT' ? 130 : signal === 'SIGTERM' ? 143 : 137), stdout, stderr });
    });
  });
  child.stdin.end(opts.input ?? '');
  return { child, done, stdout: () => stdout, stderr: () => stderr };
}

/** The environment `runCli`/`startCli` give the CLI: provider variables scrubbed, then `extra` applied. */
export function cliEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1' };
  for (const name of ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'ANTHROPIC_BASE_URL', 'OPENAI_BASE_URL', 'WIKI_PROVIDER', 'WIKI_MODEL', 'WIKI_BASE_URL', 'WIKI_MAX_TURNS', 'WIKI_EMBEDDER', 'WIKI_USER']) {
    delete env[name];
  }
  Object.assign(env, extra);
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete env[k];
  return env as NodeJS.ProcessEnv;
}

/** Poll `condition` until it holds; fails with `what` after `timeoutMs`. */
export async function waitFor(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 240_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * sha256 of every file under `dir` (dot-folders such as .wiki/ included), keyed by
 * `/`-separated relative path; folders appear as `path/` → 'folder', so a new empty one shows.
 */
export async function hashTree(dir: string): Promise<Map<string, string>> {
  const hashes = new Map<string, string>();
  const walk = async (relative: string): Promise<void> => {
    const entries = await readdir(path.join(dir, relative), { withFileTypes: true });
    for (const entry of entries) {
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        hashes.set(`${child}/`, 'folder');
        await walk(child);
      } else hashes.set(child, createHash('sha256').update(await readFile(path.join(dir, child))).digest('hex'));
    }
  };
  await walk('');
  return new Map([...hashes].sort(([a], [b]) => (a < b ? -1 : 1)));
}

export async function tempDir(prefix = 'wiki-test-'): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), prefix));
}

let initialised: Promise<string> | undefined;

/**
 * A fresh workspace made by the real `wiki init`: the first call in a test process runs it,
 * later calls copy what it wrote (byte for byte the same, and no process to start; init
 * writes no path of its own — test/cli/foundation checks both).
 */
export async function initWorkspace(): Promise<string> {
  initialised ??= (async () => {
    const dir = path.join(await tempDir('wiki-init-'), 'workspace');
    const result = await runCli(['init', dir]);
    if (result.code !== 0) throw new Error(`wiki init failed: ${result.stderr}`);
    return dir;
  })();
  // A failed init fails every later call alike, with the same message.
  return cloneWorkspace(await initialised);
}

/** A copy of `template` (e.g. one made by `initWorkspace`) in a new temp folder: cheaper than another `wiki init`. */
export async function cloneWorkspace(template: string): Promise<string> {
  const dir = await tempDir();
  await cp(template, dir, { recursive: true });
  return dir;
}
