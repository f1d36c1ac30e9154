import type { Command } from 'commander';
import { addAgentOptions, runAgentCommand, type AgentFlags } from '../cli/agent-command.js';
import { addConfigFlags } from '../cli/config-flags.js';
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
  addConfigFlags(command, ['jobs']);
  addAgentOptions(command, { dryRun: true });
  command
    .addHelpText(
      'after',
      '\nA folder\'s files that are not sources (images, archives, Word documents) are listed once as skipped, with why.\n' +
        'A large source starts with the read windows and turns it will need; a web page keeps its author and date.\n' +
        '\nExamples:\n  $ wiki ingest raw/attention.md\n  $ wiki ingest raw/                      (only what is new or changed)\n  $ wiki ingest raw/ --jobs 8             (eight sources at once)\n  $ wiki ingest ~/papers/*.pdf            (copied into raw/ first)\n  $ wiki ingest https://example.org/post  (saved under raw/ with its URL)\n  $ wiki ingest raw/notes.md --dry-run    (show the diff, change nothing)\n  $ wiki ingest raw/notes.md --review     (a proposal to accept or reject: wiki review)',
    )
    .action(async (sources: string[], flags: IngestFlags, cmd: Command) => {
      const [{ ingestSources }, { renderIngest }, { createJobBoard }, { ingestExitCode }] = await load('ingestOperation', 'renderRun', 'jobBoard', 'exitCodes');
      await runAgentCommand(
        cmd,
        flags,
        async ({ out, ws, settings, writesUnderReview }) => {
          // One live line per running source (tagged plain lines off a terminal).
          const board = createJobBoard(out, { maxTurns: ws.config.config.maxTurns });
          const reporters = new Map<string, { finish(): void }>();
          try {
            return await ingestSources(ws, sources, {
              ...settings,
              ...writesUnderReview(),
              cwd: process.cwd(),
              force: Boolean(flags.force),
              listenerFor: (source) => {
                const reporter = board.reporterFor(source);
                reporters.set(source, reporter);
                return (event) => {
                  reporter.listener(event);
                  if (event.type === 'run_end') reporter.finish();
                };
              },
            });
          } finally {
            reporters.forEach((r) => r.finish());
            board.finish();
          }
        },
        (report, out, pricing) => {
          out.result(report, () => renderIngest(report, out.c, pricing));
          return { exitCode: ingestExitCode(report) };
        },
      );
    });
}
