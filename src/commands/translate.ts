import type { Command } from 'commander';
import { runAgentCommand, waitOption, type AgentFlags } from '../cli/agent-command.js';
import { addConfigFlags } from '../cli/config-flags.js';
import { load } from '../cli/lazy.js';
import { UsageError } from '../errors.js';

interface TranslateFlags extends AgentFlags {
  to?: string;
}

export function registerTranslate(program: Command): void {
  const command = program
    .command('translate')
    .description("write the wiki's pages anew in another language (one undoable run): keys, links and citations stay; a person's lines and owner fields stay word for word");
  // --to sets `language` for this run, so the model is asked for it as any run with `language` is.
  addConfigFlags(command, ['to', 'provider', 'model', 'baseUrl', 'maxTurns', 'maxTokens', 'maxCost']);
  command.addOption(waitOption());
  command.option('--dry-run', 'run against an overlay: change nothing, print the diff of what would change');
  addConfigFlags(command, ['review']);
  command.option('--no-review', 'write wiki/ directly even when `review: true` is in wiki.config.json');
  command
    .addHelpText(
      'after',
      '\nPages whose `lang` is already the language are left as they are. The report names every page where lines a person wrote, or owner fields, were kept untranslated.\n`wiki undo` restores every page the run rewrote; under --review (or `review: true`) the pages wait for `wiki review`.\n\nExamples:\n  $ wiki translate --to de\n  $ wiki translate --to zh --review\n  $ wiki translate --to pt-BR --dry-run',
    )
    .action(async (flags: TranslateFlags, cmd: Command) => {
      if (flags.to === undefined) throw new UsageError('wiki translate needs --to TAG: the language to write the pages in', 'e.g. `wiki translate --to de` (a BCP 47 tag: de, fr, zh, ja, pt-BR)');
      const to = flags.to;
      const [{ translateWiki }, { renderTranslate }, { withProgress }] = await load('translateOperation', 'renderTranslate', 'progress');
      await runAgentCommand(
        cmd,
        flags,
        ({ out, ws, settings, writesUnderReview }) =>
          withProgress(out, { maxTurns: ws.config.config.maxTurns, label: 'translate' }, (listener) => translateWiki(ws, to, { ...settings, ...writesUnderReview(), listener })),
        (report, out, pricing) => {
          out.result(report, () => renderTranslate(report, out.c, pricing));
          const left = report.pages.length - report.rewritten.length;
          return { exitCode: report.status !== 'done' ? (report.errorExitCode ?? 1) : left > 0 || report.lost.length > 0 ? 1 : 0 };
        },
      );
    });
}
