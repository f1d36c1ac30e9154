import type { Command } from 'commander';
import { load } from '../cli/lazy.js';
import { openWorkspace, outputFor } from '../cli/context.js';
import { UsageError } from '../errors.js';

export function registerFacts(program: Command): void {
  const facts = program
    .command('facts')
    .description('the facts extracted from raw/ sentence by sentence (.wiki/facts.db, or the shared database with store.kind postgres): search, show, stats, rebuild')
    .addHelpText('after', '\nExamples:\n  $ wiki facts search "attention heads"\n  $ wiki facts show f-1a2b3c4d5e6f\n  $ wiki facts stats --json\n  $ wiki facts rebuild');

  facts
    .command('search')
    .description('facts matching the words, best first (BM25)')
    .argument('<query...>', 'words to search for')
    .option('-n, --limit <n>', 'how many facts', '10')
    .addHelpText('after', '\nExamples:\n  $ wiki facts search "attention heads"\n  $ wiki facts search softmax scaling --limit 3 --json')
    .action(async (words: string[], opts: { limit: string }, command: Command) => {
      const out = outputFor(command);
      if (!/^\d+$/.test(opts.limit.trim())) throw new UsageError(`--limit must be a whole number (got "${opts.limit}")`);
      const query = words.join(' ');
      if (!query.trim()) throw new UsageError('the search query is empty', 'e.g. wiki facts search "attention heads"');
      const ws = await openWorkspace(command, {}, { modelFree: true });
      // Loaded here, not at start-up: the native database is for this command only.
      const [{ searchFacts }, { renderFactHits }] = await load('factsOperation', 'renderFacts');
      const hits = await searchFacts(ws.root, ws.config, query, Number(opts.limit));
      out.result({ query, facts: hits }, () => renderFactHits(hits, out.c));
    });

  facts
    .command('show')
    .description('one fact: its text, provenance and lineage')
    .argument('<id>', 'a fact id, e.g. f-1a2b3c4d5e6f')
    .action(async (id: string, _opts: unknown, command: Command) => {
      const out = outputFor(command);
      const ws = await openWorkspace(command, {}, { modelFree: true });
      const [{ showFact }, { renderFact }] = await load('factsOperation', 'renderFacts');
      const fact = await showFact(ws.root, ws.config, id.trim());
      out.result(fact, () => renderFact(fact, out.c));
    });

  facts
    .command('stats')
    .description('facts, sources, duplicates merged, tombstoned')
    .action(async (_opts: unknown, command: Command) => {
      const out = outputFor(command);
      const ws = await openWorkspace(command, {}, { modelFree: true });
      const [{ factStats }, { renderFactStats }] = await load('factsOperation', 'renderFacts');
      const stats = await factStats(ws.root, ws.config);
      out.result(stats, () => renderFactStats(stats));
    });

  facts
    .command('rebuild')
    .description('recreate .wiki/facts.db from every source in raw/ (with store.kind postgres, then redo the database\'s facts of those sources)')
    .addHelpText('after', '\nExamples:\n  $ wiki facts rebuild\n  $ wiki facts rebuild --json     (what was extracted, skipped and why)')
    .action(async (_opts: unknown, command: Command) => {
      const out = outputFor(command);
      const ws = await openWorkspace(command, {}, { modelFree: true });
      const [{ rebuildWorkspaceFacts }, { renderExtraction }] = await load('factsOperation', 'renderFacts');
      const report = await rebuildWorkspaceFacts(ws.root, ws.config, { onNotice: (message) => out.info(message) });
      out.result(report, () => renderExtraction(report));
    });
}
