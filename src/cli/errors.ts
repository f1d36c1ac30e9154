import { CommanderError } from 'commander';
import pc from 'picocolors';
import { DiskFullError, isDiskFull, isWikiError, type ExitCode } from '../errors.js';
import { wrongKindOfStateFile } from '../state/wrong-kind.js';
import { terminalSafe } from '../util/terminal-text.js';

/** The one place errors become exit codes and a one-line message with the fix. */
export function exitCodeFor(error: unknown, stderr: NodeJS.WritableStream = process.stderr): ExitCode {
  const colors = pc.createColors(Boolean((stderr as NodeJS.WriteStream).isTTY) && !process.env.NO_COLOR);
  if (error instanceof CommanderError) {
    // commander has already printed its own message (or the help/version text).
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') {
      return 0;
    }
    return error.exitCode === 0 ? 0 : 2;
  }
  if (isWikiError(error)) {
    const hint = error.hint ? ` — ${error.hint}` : '';
    stderr.write(`${colors.red('error:')} ${terminalSafe(`${error.message}${hint}`)}\n`);
    return error.exitCode;
  }
  if (isDiskFull(error)) {
    // A full disk met outside the atomic writer (the facts store, a transcript): still say so, with the path when known.
    const where = (error as NodeJS.ErrnoException).path;
    return exitCodeFor(new DiskFullError(where ?? 'a file in the workspace'), stderr);
  }
  const wrongKind = wrongKindOfStateFile(error);
  if (wrongKind) {
    stderr.write(`${colors.red('error:')} ${terminalSafe(wrongKind)}\n`);
    return 2;
  }
  const message = error instanceof Error ? error.message : String(error);
  stderr.write(`${colors.red('error:')} ${terminalSafe(message)}\n`);
  if (process.env.WIKI_DEBUG && error instanceof Error && error.stack) stderr.write(`${error.stack}\n`);
  else stderr.write('(an unexpected failure; set WIKI_DEBUG=1 for the stack trace and please report it)\n');
  return 1;
}

/**
 * With --json, a failure is still one JSON document on stdout, so scripts never have to
 * parse stderr: `{"error":{"message","hint","exitCode","type"}}`.
 */
export function errorJson(error: unknown, exitCode: number): string {
  if (isDiskFull(error) && !isWikiError(error)) error = new DiskFullError((error as NodeJS.ErrnoException).path ?? 'a file in the workspace');
  const message = wrongKindOfStateFile(error) ?? (error instanceof Error ? error.message : String(error));
  const hint = isWikiError(error) ? (error.hint ?? null) : null;
  const type = error instanceof Error ? error.name : 'Error';
  return `${JSON.stringify({ error: { message, hint, exitCode, type } }, null, 2)}\n`;
}
