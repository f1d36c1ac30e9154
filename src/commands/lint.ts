import type { Command } from 'commander';
import { addAgentOptions, budgetOf, configFlags, exitCodeForSignal, interruptible, lazyModel, waitSecondsOf, type AgentFlags } from '../cli/agent-command.js';
import { openWorkspace, outputFor } from '../cli/context.js';
import { chooseProvider } from '../config/provider-choice.js';

interface LintFlags extends AgentFlags {
  fix?: boolean;
  llm: boolean;
  strict?: boolean;
}

export function registerLint(program: Command): void {
  const command = program
    .command('lint')
    .description('check the wiki against schema.md (broken links, unindexed and orphan pages, missing fields and sources, duplicates, log format), then have the model review what rules cannot see')
    .option('--fix', 'repair: the safe deterministic fixes (index catalog, unique near-match links, derivable fields, field order), then the model fixes what it can')
    .option('--no-llm', 'run only the deterministic checks and fixes (no model; cron-safe)')
    .option('--strict', 'count warnings as failures (exit 1)');
  addAgentOptions(command, { dryRun: true });
  command
    .addHelpText(
      'after',
      '\nWithout a configured provider, `wiki lint` runs the deterministic part only and says so.\nModel findings carry rule ids prefixed `llm-` (contradiction, stale-claim, missing-page, missing-link, summary-mismatch).\n\nExit codes: 0 no errors (warnings allowed unless --strict) · 1 errors found or left · 2 usage or workspace error\n\nExamples:\n  $ wiki lint\n  $ wiki lint --no-llm --strict --json\n  $ wiki lint --fix --no-llm      (cron-safe; a second run changes nothing)\n  $ wiki lint --fix --dry-run     (show the diff of the repairs, change nothing)',
    )
    .action(async (opts: LintFlags, cmd: Command) => {
      const out = outputFor(cmd);
      const ws = await openWorkspace(cmd, configFlags(opts));
      const fix = Boolean(opts.fix);
      const strict = Boolean(opts.strict);
      let useModel = opts.llm;
      if (useModel && !chooseProvider(ws.config).provider) {
        out.warn('no model provider is configured: ran the deterministic checks only (set ANTHROPIC_API_KEY or OPENAI_API_KEY, or pass --no-llm)');
        useModel = false;
      }
      const [{ runLint }, { lintJson, renderLint }, { createProgressReporter }] = await Promise.all([
        import('../operations/lint-run.js'),
        import('../cli/render-lint.js'),
        import('../progress/reporter.js'),
      ]);
      const model = useModel ? await lazyModel(ws) : undefined;
      const reporter = createProgressReporter(out, { maxTurns: ws.config.config.maxTurns, label: 'lint' });
      const interrupt = interruptible();
      try {
        const report = await runLint(ws, {
          fix,
          dryRun: Boolean(opts.dryRun),
          waitSeconds: waitSecondsOf(opts),
          budget: budgetOf(ws),
          model: model?.get,
          ...(model ? { price: model.pricer } : {}),
          listener: reporter.listener,
          signal: interrupt.signal,
          onNotice: (message) => out.warn(message),
        });
        reporter.finish();
        const json = { ...lintJson(report, fix), ...(report.review ? { review: report.review } : {}), ...(report.diff !== undefined ? { diff: report.diff } : {}) };
        out.result(json, () => {
          const text = renderLint(report, out.c, { fix, strict });
          const review = report.review ? `\nmodel review: ${report.review.status}, ${report.review.turns} turn(s), ${report.review.tokens} tokens` : '';
          const diff = report.diff !== undefined ? `\n${report.diff || '(dry run: nothing would change)'}` : '';
          return `${text}${review}${diff}`;
        });
        const signalCode = exitCodeForSignal(interrupt.received());
        if (signalCode) process.exitCode = signalCode;
        else if (report.errors > 0 || (strict && report.warnings > 0) || (report.review && report.review.status !== 'done')) process.exitCode = 1;
      } finally {
        reporter.finish();
        interrupt.dispose();
      }
    });
}
