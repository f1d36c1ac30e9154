import type { Command } from 'commander';
import { addAgentOptions, runAgentCommand, type AgentFlags } from '../cli/agent-command.js';
import { load } from '../cli/lazy.js';

interface IngestFlags extends AgentFlags {
  force?: boolean;
}

export function registerIngest(program: Command): void {
  const command = program
    .command('ingest')
    .description('read sources into the wiki: one model run per new or changed source, then index, log and manifest upkeep')
    .argument('<sources...>', 'files, folders, globs or http(s) URLs; files outside raw/ are copied into raw/')
    .option('--force', 're-ingest sources that have not changed');
  addAgentOptions(command, { dryRun: true });
  command
    .addHelpText(
      'after',
      '\nExamples:\n  $ wiki ingest raw/attention.md\n  $ wiki ingest raw/                      (only what is new or changed)\n  $ wiki ingest ~/papers/*.pdf            (copied into raw/ first)\n  $ wiki ingest https://example.org/post  (saved under raw/ with its URL)\n  $ wiki ingest raw/notes.md --dry-run    (show the diff, change nothing)',
    )
    .action(async (sources: string[], flags: IngestFlags, cmd: Command) => {
      const [{ ingestSources }, { renderIngest }, { createProgressReporter }, { ingestExitCode }] = await load('ingestOperation', 'renderRun', 'progress', 'exitCodes');
      await runAgentCommand(
        cmd,
        flags,
        async ({ out, ws, model, signal, waitSeconds, budget, onNotice }) => {
          // One live status line per source, each closed before the next starts.
          const reporters: Array<{ finish(): void }> = [];
          try {
            return await ingestSources(ws, sources, {
              cwd: process.cwd(),
              force: Boolean(flags.force),
              dryRun: Boolean(flags.dryRun),
              overwriteEdits: Boolean(flags.overwriteEdits),
              waitSeconds,
              budget,
              model: model.get,
              price: model.pricer,
              signal,
              onNotice,
              listenerFor: (source) => {
                reporters.forEach((r) => r.finish());
                const reporter = createProgressReporter(out, { maxTurns: ws.config.config.maxTurns, label: source });
                reporters.push(reporter);
                return reporter.listener;
              },
            });
          } finally {
            reporters.forEach((r) => r.finish());
          }
        },
        (report, out) => {
          out.result(report, () => renderIngest(report, out.c));
          return { exitCode: ingestExitCode(report) };
        },
      );
    });
}
