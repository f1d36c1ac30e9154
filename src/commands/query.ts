import type { Command } from 'commander';
import { addAgentOptions, runAgentCommand, type AgentFlags } from '../cli/agent-command.js';
import { userOf } from '../cli/context.js';
import { load } from '../cli/lazy.js';

interface QueryFlags extends AgentFlags {
  save?: boolean;
  facts?: boolean;
  explain?: boolean;
}

export function registerQuery(program: Command): void {
  const command = program
    .command('query')
    .description('answer a question from the wiki, citing [[key]] pages; --save files the answer as a page')
    .argument('<question...>', 'the question (quote it, or pass several words)')
    .option('--save', 'file the answer as a page in wiki/concepts/ (refs to the cited pages, their sources)')
    .option('--explain', 'also print the evidence chain the answer was drawn from, and the run\'s turns, tokens and cost')
    .option('--facts', "answer only from the sources' facts (.wiki/facts.db), citing each as [^fact-id]; no model call when none match");
  addAgentOptions(command, { dryRun: true });
  command
    .addHelpText(
      'after',
      '\nPrints the answer, then `cited: …` (and, with --save, the page created or updated); -q prints the answer alone.\n\nExamples:\n  $ wiki query "how does scaled dot-product attention work?"\n  $ wiki query "why does BM25 saturate term frequency?" --explain\n  $ wiki query "compare BM25 and LSA" --save\n  $ wiki query "compare BM25 and LSA" --save --review   (the page waits for wiki review)\n  $ wiki query "what is RRF?" --json | jq -r .answer',
    )
    .action(async (words: string[], flags: QueryFlags, cmd: Command) => {
      if (flags.facts) return answerFromFactsCommand(words.join(' '), flags, cmd);
      const [{ queryWiki }, { renderQuery, renderOutcomeProblems }, { withProgress }] = await load('queryOperation', 'renderRun', 'progress');
      await runAgentCommand(
        cmd,
        flags,
        ({ out, ws, settings, writesUnderReview }) =>
          withProgress(out, { maxTurns: ws.config.config.maxTurns, label: 'query' }, (listener) =>
            queryWiki(ws, words.join(' '), {
              ...settings,
              save: Boolean(flags.save),
              // Only a saved answer writes a page: without --save, review has nothing to hold.
              ...(flags.save ? writesUnderReview() : {}),
              listener,
            }),
          ),
        (report, out, pricing) => {
          out.result(report, () => renderQuery(report, out.c, { quiet: out.quiet, explain: Boolean(flags.explain), pricing }));
          if (out.quiet && !out.json) for (const line of renderOutcomeProblems(report, out.c)) out.warn(line.trim());
          const failed = report.status !== 'done' || report.state === 'nothing-in-wiki' || report.notSaved !== undefined;
          return { exitCode: report.status !== 'done' ? (report.errorExitCode ?? 1) : failed ? 1 : 0 };
        },
      );
    });
}

async function answerFromFactsCommand(question: string, flags: QueryFlags, cmd: Command): Promise<void> {
  const [{ answerFromFacts, factsAnswerOk }, { renderFactsAnswer }] = await load('factsQueryOperation', 'renderFacts');
  await runAgentCommand(
    cmd,
    flags,
    ({ ws, model, signal }) => answerFromFacts(ws, question, model.get, { signal, user: userOf(cmd) }),
    (report, out) => {
      out.result(report, () => renderFactsAnswer(report, out.c));
      return { exitCode: factsAnswerOk(report) ? 0 : 1 };
    },
  );
}
