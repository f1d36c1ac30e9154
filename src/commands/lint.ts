import type { Command } from 'commander';
import { addAgentOptions, runAgentCommand, type AgentFlags } from '../cli/agent-command.js';
import { load } from '../cli/lazy.js';

interface LintFlags extends AgentFlags {
  fix?: boolean;
  llm: boolean;
  strict?: boolean;
  all?: boolean;
  rule?: string;
}

export function registerLint(program: Command): void {
  const command = program
    .command('lint')
    .description('check the wiki against schema.md (broken links, unindexed and orphan pages, missing fields and sources, duplicates, log format), then have the model review what rules cannot see')
    .option('--fix', 'repair: the safe deterministic fixes (index catalog, unique near-match links, derivable fields, a changed source\'s citations moved to its new lines), then the model fixes what it can')
    .option('--no-llm', 'run only the deterministic checks and fixes (no model; cron-safe)')
    .option('--strict', 'count warnings as failures (exit 1)')
    .option('--all', 'list every finding in full (by default a few of each rule, about 50 lines)')
    .option('--rule <rules>', 'list only these rules\' findings, in full (comma-separated, e.g. miscited,orphan); the exit code still counts all');
  addAgentOptions(command, { dryRun: true });
  command
    .addHelpText(
      'after',
      '\nWithout a configured provider, `wiki lint` runs the deterministic part only and says so.\nModel findings carry rule ids prefixed `llm-` (contradiction, stale-claim, missing-page, missing-link, summary-mismatch); one about a page that does not exist is dropped with a note.\nWith --fix, the rule repairs run again after the model\'s rewrites (a repair it undid is redone, reported once).\n\nExit codes: 0 no errors (warnings allowed unless --strict) · 1 errors found or left · 2 usage or workspace error\n\nExamples:\n  $ wiki lint\n  $ wiki lint --rule miscited      (every sentence its cited lines do not support)\n  $ wiki lint --no-llm --strict --json\n  $ wiki lint --fix --no-llm      (cron-safe; a second run changes nothing)\n  $ wiki lint --fix --dry-run     (show the diff of the repairs, change nothing)\n  $ wiki lint --fix --review      (the repairs wait for wiki review)',
    )
    .action(async (opts: LintFlags, cmd: Command) => {
      const fix = Boolean(opts.fix);
      const strict = Boolean(opts.strict);
      const [{ runLint }, { lintRunJson, renderLintRun }, { withProgress }, { chooseProvider }, { lintExitCode }] = await load('lintOperation', 'renderLint', 'progress', 'providerChoice', 'exitCodes');
      await runAgentCommand(
        cmd,
        opts,
        async ({ out, ws, settings, writesUnderReview }) => {
          let useModel = opts.llm;
          if (useModel && !chooseProvider(ws.config).provider) {
            out.warn('no model provider is configured: ran the deterministic checks only (set ANTHROPIC_API_KEY or OPENAI_API_KEY, or pass --no-llm)');
            useModel = false;
          }
          return withProgress(out, { maxTurns: ws.config.config.maxTurns, label: 'lint' }, (listener) =>
            runLint(ws, {
              ...settings,
              fix,
              // Only --fix writes: without it, review has nothing to hold.
              ...(fix ? writesUnderReview() : {}),
              model: useModel ? settings.model : undefined,
              price: useModel ? settings.price : undefined,
              listener,
            }),
          );
        },
        (report, out) => {
          const view = { all: Boolean(opts.all), rules: opts.rule ? opts.rule.split(',').map((r) => r.trim()).filter(Boolean) : undefined };
          // Under --review the report names the proposals it left (cli/review-notice.ts).
          const { proposals, proposalsWaiting } = report as { proposals?: unknown; proposalsWaiting?: unknown };
          const json = proposals === undefined ? lintRunJson(report, fix, view) : { ...lintRunJson(report, fix, view), proposals, proposalsWaiting };
          out.result(json, () => renderLintRun(report, out.c, { fix, strict, view }));
          return { exitCode: lintExitCode(report, strict) };
        },
      );
    });
}
