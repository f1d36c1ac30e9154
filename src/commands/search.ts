import type { Command } from 'commander';
import { openWorkspace, outputFor, userOf } from '../cli/context.js';
import { UsageError } from '../errors.js';
import { load } from '../cli/lazy.js';

export function registerSearch(program: Command): void {
  program
    .command('search')
    .description('hybrid search over the wiki (lexical + semantic + token lanes, fused by weighted RRF)')
    .argument('[query...]', 'words to search for')
    .option('-n, --limit <n>', 'how many results', '10')
    .option('--explain', "show each lane's status, rank and contribution")
    .addHelpText(
      'after',
      '\nExamples:\n  $ wiki search "scaled dot-product attention"\n  $ wiki search attention heads --limit 5 --explain\n  $ wiki search "transformer" --json',
    )
    .action(async (words: string[], opts: { limit: string; explain?: boolean }, command: Command) => {
      const out = outputFor(command);
      const limit = Number(opts.limit);
      if (!/^\d+$/.test(opts.limit.trim())) throw new UsageError(`--limit must be a whole number (got "${opts.limit}")`);
      const query = words.join(' ');
      if (!query.trim()) throw new UsageError('the search query is empty', 'e.g. wiki search "attention heads"');
      const ws = await openWorkspace(command);
      const [{ searchWorkspace }, { renderSearch }] = await load('searchOperation', 'renderSearch');
      const response = await searchWorkspace(ws.root, ws.schema, ws.config, { query, limit, explain: Boolean(opts.explain), user: userOf(command) });
      out.result(response, () => renderSearch(response, out.c, Boolean(opts.explain)));
    });
}
