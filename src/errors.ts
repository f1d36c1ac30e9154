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
