import { spawn } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const CLI = path.join(REPO_ROOT, 'dist/src/cli/main.js');

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
  opts: { cwd?: string; env?: Record<string, string | undefined>; input?: string; timeoutMs?: number } = {},
): Promise<CliResult> {
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1' };
  for (const name of ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'ANTHROPIC_BASE_URL', 'OPENAI_BASE_URL', 'WIKI_PROVIDER', 'WIKI_MODEL', 'WIKI_BASE_URL', 'WIKI_MAX_TURNS', 'WIKI_EMBEDDER']) {
    delete env[name];
  }
  Object.assign(env, opts.env ?? {});
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete env[k];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: opts.cwd ?? os.tmpdir(),
      env: env as NodeJS.ProcessEnv,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? (signal === 'SIGINT' ? 130 : signal === 'SIGTERM' ? 143 : 137), stdout, stderr });
    });
    child.stdin.end(opts.input ?? '');
  });
}

export async function tempDir(prefix = 'wiki-test-'): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), prefix));
}

/** A fresh workspace made by the real `wiki init`. */
export async function initWorkspace(): Promise<string> {
  const dir = await tempDir();
  const result = await runCli(['init', dir]);
  if (result.code !== 0) throw new Error(`wiki init failed: ${result.stderr}`);
  return dir;
}
