import type { Command } from 'commander';
import {
  addAgentOptions,
  budgetOf,
  configFlags,
  exitCodeForSignal,
  exitIfInterruptedWhileWaiting,
  interruptible,
  lazyModel,
  waitSecondsOf,
  type AgentFlags,
} from '../cli/agent-command.js';
import { openWorkspace, outputFor } from '../cli/context.js';

interface QueryFlags extends AgentFlags {
  save?: boolean;
}

export function registerQuery(program: Command): void {
  const command = program
    .command('query')
    .description('answer a question from the wiki, citing [[key]] pages; --save files the answer as a page')
    .argument('<question...>', 'the question (quote it, or pass several words)')
    .option('--save', 'file the answer as a page in wiki/concepts/ (refs to the cited pages, their sources)');
  addAgentOptions(command, { dryRun: true });
  command
    .addHelpText(
      'after',
      '\nExamples:\n  $ wiki query "how does scaled dot-product attention work?"\n  $ wiki query "compare BM25 and LSA" --save\n  $ wiki query "what is RRF?" --json | jq -r .answer',
    )
    .action(async (words: string[], flags: QueryFlags, cmd: Command) => {
      const out = outputFor(cmd);
      const ws = await openWorkspace(cmd, configFlags(flags));
      const [{ queryWiki }, { renderQuery }, { createProgressReporter }] = await Promise.all([
        import('../operations/query.js'),
        import('../cli/render-run.js'),
        import('../progress/reporter.js'),
      ]);
      const model = await lazyModel(ws);
      const interrupt = interruptible();
      const reporter = createProgressReporter(out, { maxTurns: ws.config.config.maxTurns, label: 'query' });
      try {
        const report = await queryWiki(ws, words.join(' '), {
          save: Boolean(flags.save),
          dryRun: Boolean(flags.dryRun),
          waitSeconds: waitSecondsOf(flags),
          budget: budgetOf(ws),
          model: model.get,
          price: model.pricer,
          listener: reporter.listener,
          signal: interrupt.signal,
          onNotice: (message) => out.warn(message),
        });
        reporter.finish();
        out.result(report, () => renderQuery(report, out.c));
        const signalCode = exitCodeForSignal(interrupt.received());
        if (signalCode) process.exitCode = signalCode;
        else if (report.status !== 'done') process.exitCode = report.errorExitCode ?? 1;
      } catch (error) {
        exitIfInterruptedWhileWaiting(error, interrupt.received(), out);
      } finally {
        reporter.finish();
        interrupt.dispose();
      }
    });
}
