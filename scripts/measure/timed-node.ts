import { spawn } from 'node:child_process';

export interface TimedRun {
  code: number;
  stdout: string;
  stderr: string;
  /** Wall time of the whole process, spawn to exit. */
  ms: number;
}

/** Run `node ARGS` as a fresh process and time it as a whole, output collected. */
export function timedNode(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<TimedRun> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr, ms: performance.now() - started }));
  });
}
