import { execFile } from 'node:child_process';

export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** git is not on PATH (or cannot be started). */
export class GitMissingError extends Error {}

const MAX_OUTPUT = 64 * 1024 * 1024;

/**
 * Run `git <args>` in `cwd` without a shell. Resolves with the exit code whatever it is; rejects
 * only when git cannot be started. Pathspecs are literal (no globs), prompts are disabled, and
 * output is in English so messages can be shown as they are.
 */
export function git(cwd: string, args: readonly string[]): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      [...args],
      {
        cwd,
        encoding: 'utf8',
        maxBuffer: MAX_OUTPUT,
        env: { ...process.env, GIT_LITERAL_PATHSPECS: '1', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' },
        windowsHide: true,
      },
      (error, stdout, stderr) => {
        if (error && typeof error.code === 'string') {
          reject(error.code === 'ENOENT' ? new GitMissingError('git is not installed or not on PATH') : error);
          return;
        }
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** Split `-z` output into its NUL-terminated fields. */
export function splitNul(output: string): string[] {
  return output.split('\0').filter((field) => field.length > 0);
}

/** The first line git wrote to stderr, for a one-line reason. */
export function firstErrorLine(result: GitResult): string {
  const line = result.stderr.split('\n').find((l) => l.trim() !== '') ?? result.stdout.split('\n').find((l) => l.trim() !== '');
  return (line ?? `git exited with code ${result.code}`).trim();
}
