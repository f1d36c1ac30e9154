import { type Argument, Command, Help, Option } from 'commander';
import { registerConfig } from '../commands/config.js';
import { registerFacts } from '../commands/facts.js';
import { registerGraph } from '../commands/graph.js';
import { registerInit } from '../commands/init.js';
import { registerIngest } from '../commands/ingest.js';
import { registerQuery } from '../commands/query.js';
import { registerSearch } from '../commands/search.js';
import { registerLint } from '../commands/lint.js';
import { registerMcp } from '../commands/mcp.js';
import { registerServe } from '../commands/serve.js';
import { registerPromote } from '../commands/promote.js';
import { registerRm } from '../commands/rm.js';
import { userOf } from './context.js';
import { registerStatus } from '../commands/status.js';
import { registerStore } from '../commands/store.js';
import { registerUndo } from '../commands/undo.js';
import { registerReview } from '../commands/review.js';
import { registerTranslate } from '../commands/translate.js';
import { packageVersion } from '../util/package-root.js';

/** An option's help line with a text default shown as typed (`default: 10`), not JSON-quoted (`default: "10"`). */
function unquotedDefaults(this: Help, option: Option): string {
  if (option.defaultValueDescription === undefined && typeof option.defaultValue === 'string') option.defaultValueDescription = option.defaultValue;
  return Help.prototype.optionDescription.call(this, option);
}

/** The same for a command's arguments (`dir … (default: .)`). */
function unquotedArgumentDefaults(this: Help, argument: Argument): string {
  if (argument.defaultValueDescription === undefined && typeof argument.defaultValue === 'string') argument.defaultValueDescription = argument.defaultValue;
  return Help.prototype.argumentDescription.call(this, argument);
}

/** The command tree. Each command file registers itself; only working commands appear. */
export function buildProgram(): Command {
  const program = new Command('wiki')
    .description('Build and keep a markdown knowledge base from raw sources, written by a language model and kept valid by deterministic code.')
    .version(packageVersion(), '-V, --version')
    .option('--root <dir>', 'workspace folder (default: nearest parent holding schema.md)')
    .option('--json', 'print one machine-readable JSON result on stdout')
    .option('-q, --quiet', 'no progress output (wiki query: the answer alone)')
    .option('--user <name>', 'see your scratch pages in wiki/user/<name>/ over the team\'s (default: WIKI_USER)')
    .addOption(new Option('--no-color', 'disable colour (NO_COLOR is respected too)'))
    .showHelpAfterError('(run with --help for usage)')
    // Each command's --help lists the global options it accepts (--json, --quiet, --root, --user).
    .configureHelp({ showGlobalOptions: true, optionDescription: unquotedDefaults, argumentDescription: unquotedArgumentDefaults })
    .exitOverride()
    .addHelpText(
      'after',
      '\nExit codes: 0 success · 1 ran and found or left problems · 2 usage, configuration or input error\n\nExamples:\n  $ wiki init my-research && cd my-research\n  $ wiki status\n  $ wiki config',
    );
  registerInit(program);
  registerIngest(program);
  registerQuery(program);
  registerSearch(program);
  registerFacts(program);
  registerStatus(program);
  registerStore(program);
  registerConfig(program);
  registerLint(program);
  registerGraph(program);
  registerUndo(program);
  registerReview(program);
  registerTranslate(program);
  registerMcp(program);
  registerServe(program);
  registerPromote(program);
  registerRm(program);
  for (const command of program.commands) command.exitOverride();
  // `--user` reaches every layer as WIKI_USER, the one place runs look for the user.
  program.hook('preAction', (_program, action) => {
    const user = userOf(action);
    if (user !== undefined) process.env.WIKI_USER = user;
  });
  return program;
}
