/**
 * The few error classes the whole tool uses. The top-level handler maps each to an
 * exit code (ARCHITECTURE §6) and prints `message` plus `hint` (what to do about it).
 */
export type ExitCode = 0 | 1 | 2 | 130 | 143;

export abstract class WikiError extends Error {
  abstract readonly exitCode: ExitCode;
  readonly hint: string | undefined;
  constructor(message: string, hint?: string) {
    super(message);
    this.name = new.target.name;
    this.hint = hint;
  }
}

/** The disk (or the user's quota) is full: a write could not be made. Nothing half-written is kept. */
export class DiskFullError extends WikiError {
  readonly exitCode = 1 as const;
  readonly path: string;
  constructor(filePath: string) {
    super(`disk full: could not write ${filePath}`, 'free some space and run the command again; files are never left half-written, and `wiki undo` puts back what a run had changed');
    this.path = filePath;
  }
}

/** Whether `error` says the disk or quota is full (ENOSPC, EDQUOT). */
export function isDiskFull(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return error instanceof DiskFullError || code === 'ENOSPC' || code === 'EDQUOT';
}

/** Bad flags or arguments. */
export class UsageError extends WikiError {
  readonly exitCode = 2 as const;
}

/** Missing workspace, invalid schema.md contract or wiki.config.json, missing key. */
export class ConfigError extends WikiError {
  readonly exitCode = 2 as const;
}

/** A source or argument the operation cannot take (missing file, binary, empty…). */
export class InputError extends WikiError {
  readonly exitCode = 2 as const;
}

/** A path the sandbox refuses. Normally returned to the model as a tool error. */
export class SandboxError extends WikiError {
  readonly exitCode = 2 as const;
}

/** The model provider failed after the run started (auth, unreachable, retries exhausted). */
export class ProviderError extends WikiError {
  readonly exitCode: ExitCode;
  readonly kind: ProviderFailureKind;
  constructor(kind: ProviderFailureKind, message: string, hint?: string, exitCode: ExitCode = 1) {
    super(message, hint);
    this.kind = kind;
    this.exitCode = exitCode;
  }
}

export type ProviderFailureKind =
  | 'auth'
  | 'unreachable'
  | 'rate-limited'
  | 'server'
  | 'timeout'
  | 'context-overflow'
  | 'bad-request'
  | 'bad-response'
  | 'aborted';

export function isWikiError(error: unknown): error is WikiError {
  return error instanceof WikiError;
}
