import type { Command } from 'commander';

/** Global options that take a value as the next word. */
const VALUED_GLOBALS: ReadonlySet<string> = new Set(['--root', '--user']);
const HELP_FLAGS: ReadonlySet<string> = new Set(['--help', '-h']);
const VERSION_FLAGS: ReadonlySet<string> = new Set(['--version', '-V']);

/** The first word that is not an option (nor a global option's value): the command name, if any. */
export function firstOperand(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (arg === '--') return args[i + 1];
    if (VALUED_GLOBALS.has(arg)) i++;
    else if (!arg.startsWith('-')) return arg;
  }
  return undefined;
}

/**
 * How the argv is to be read, before commander sees it:
 * - `wiki` alone (global flags at most) is a request for help: printed on stdout, exit 0;
 * - `wiki nosuch --help` would print the general help and exit 0, as if all were well:
 *   the help flag is dropped, so commander says the command is unknown, names the closest
 *   one and exits 2.
 */
export function readArgv(program: Command, argv: readonly string[]): { help: true } | { help: false; argv: string[] } {
  const args = argv.slice(2);
  const operand = firstOperand(args);
  if (operand === undefined) {
    const asksForSomething = args.some((arg) => HELP_FLAGS.has(arg) || VERSION_FLAGS.has(arg));
    return asksForSomething ? { help: false, argv: [...argv] } : { help: true };
  }
  const known = operand === 'help' || program.commands.some((command) => command.name() === operand || command.aliases().includes(operand));
  if (known || !args.some((arg) => HELP_FLAGS.has(arg))) return { help: false, argv: [...argv] };
  return { help: false, argv: argv.filter((arg, i) => i < 2 || !HELP_FLAGS.has(arg)) };
}
