import type { Command } from 'commander';
import { openWorkspace, outputFor, userOf } from '../cli/context.js';
import { UsageError } from '../errors.js';
import { load } from '../cli/lazy.js';

interface SearchFlags {
  limit: string;
  explain?: boolean;
  minScore?: string;
  files?: boolean;
  full?: boolean;
}

export function registerSearch(program: Command): void {
  program
    .command('search')
    .description('hybrid search over the wiki (lexical + semantic + token lanes, fused by weighted scores)')
    .argument('[query...]', 'words to search for')
    .option('-n, --limit <n>', 'how many results', '10')
    .option('--explain', "show each lane's status, rank and contribution")
    .option('--min-score <x>', 'leave out results whose fused score is below x')
    .option('--files', 'print the result paths only, one per line')
    .option('--full', 'print each result page whole')
    // `-word` excludes a word: let it through to the query instead of failing as an option.
    .allowUnknownOption()
    .addHelpText(
      'after',
      '\nQuery syntax: "exact phrase" (quoted inside the shell quotes) · -word or -"phrase" leaves out pages holding it\n' +
        '\nExamples:\n  $ wiki search "scaled dot-product attention"\n  $ wiki search attention heads --limit 5 --explain\n' +
        '  $ wiki search \'"boundary layer" -turbulent\' --files\n  $ wiki search "transformer" --json --full\n' +
        '\nExit codes: 0 pages found · 1 no page matches (found: false) · 2 usage or configuration error',
    )
    .action(async (words: string[], opts: SearchFlags, command: Command) => {
      const out = outputFor(command);
      const limit = Number(opts.limit);
      if (!/^\d+$/.test(opts.limit.trim())) throw new UsageError(`--limit must be a whole number (got "${opts.limit}")`);
      const minScore = opts.minScore === undefined ? undefined : Number(opts.minScore);
      if (minScore !== undefined && (opts.minScore?.trim() === '' || !Number.isFinite(minScore))) {
        throw new UsageError(`--min-score must be a number (got "${opts.minScore}")`, 'e.g. --min-score 0.5');
      }
      if (opts.files && opts.full) throw new UsageError('--files and --full are two output modes: give one');
      const unknown = words.find((word) => /^--[^-]/.test(word));
      if (unknown) throw new UsageError(`unknown option '${unknown}'`, 'see wiki search --help; -word (one dash) leaves out pages holding the word');
      const query = words.join(' ');
      if (!query.trim()) throw new UsageError('the search query is empty', 'e.g. wiki search "attention heads"');
      const ws = await openWorkspace(command, {}, { modelFree: true });
      const [{ searchWorkspace }, { renderSearch, renderSearchFiles, renderSearchFull }] = await load('searchOperation', 'renderSearch');
      const explain = Boolean(opts.explain);
      const request = { query, limit, explain, minScore, withContent: Boolean(opts.full), user: userOf(command) };
      const response = await searchWorkspace(ws.root, ws.schema, ws.config, request);
      if (opts.files) {
        // Paths alone cannot say a phrase fell back to its words: stderr does (and --json's phrasesNotFound).
        const phrasesNotFound = response.found ? response.phrasesNotFound : undefined;
        if (phrasesNotFound && !out.json) out.warn(`no page holds the exact phrase ${phrasesNotFound.map((p) => `"${p}"`).join(', ')}; these pages hold its words`);
        out.result({ files: response.results.map((r) => r.path), ...(phrasesNotFound ? { phrasesNotFound } : {}) }, () => renderSearchFiles(response));
      }
      else if (opts.full) out.result(response, () => renderSearchFull(response, out.c));
      else out.result(response, () => renderSearch(response, out.c, explain));
      // Like `query`: nothing in the wiki on this is exit 1 (found: false), so scripts can tell.
      if (!response.found) process.exitCode = 1;
    });
}
