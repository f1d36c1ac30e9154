import path from 'node:path';
import { Option, type Command } from 'commander';
import { openWorkspace, outputFor, userOf } from '../cli/context.js';
import { displayPath, renderGraphSummary } from '../cli/render-graph.js';
import { UsageError } from '../errors.js';
import { GRAPH_FORMATS, type GraphFormat } from '../graph/formats.js';
import { load } from '../cli/lazy.js';

export function registerGraph(program: Command): void {
  program
    .command('graph')
    .description('the page graph (nodes by type, edges from refs and [[links]], orphans marked) as an interactive HTML view, JSON or Graphviz DOT')
    .addOption(new Option('--format <format>', 'html, json or dot').choices([...GRAPH_FORMATS]).default('html'))
    .option('--out <file>', 'where to write it; "-" for stdout (default: .wiki/graph.html for html, stdout for json and dot)')
    .option('--max-visibility <level>', 'show pages up to this visibility level, as `wiki mcp` serves them (default: mcp.maxVisibility in wiki.config.json)')
    .addHelpText(
      'after',
      [
        '',
        'The HTML view is one self-contained file (no network): drag nodes, scroll to zoom, search, click a page to read it.',
        'With --json the command prints a summary {format, nodes, edges, orphans, missing, out}, so the graph must go to a file.',
        '',
        'Examples:',
        '  $ wiki graph                                   # writes .wiki/graph.html',
        '  $ wiki graph --out graph.html && xdg-open graph.html',
        '  $ wiki graph --format json | jq \'.stats\'',
        '  $ wiki graph --format dot | dot -Tsvg > graph.svg',
        '  $ wiki graph --format json --out graph.json --json',
      ].join('\n'),
    )
    .action(async (opts: { format: GraphFormat; out?: string; maxVisibility?: string }, command: Command) => {
      const out = outputFor(command);
      const toStdout = opts.out === '-' || (opts.out === undefined && opts.format !== 'html');
      if (toStdout && out.json) {
        throw new UsageError(
          `--json prints a summary on stdout, so the ${opts.format} graph cannot go there too`,
          'add --out FILE',
        );
      }
      const ws = await openWorkspace(command, {}, { modelFree: true });
      const [{ graphWorkspace }] = await load('graphOperation');
      const [{ capRank, visibilityLevels }] = await load('access');
      let maxRank = capRank(ws.schema.contract, opts.maxVisibility ?? ws.config.config.mcp.maxVisibility) ?? 0;
      if (opts.maxVisibility !== undefined) {
        const asked = capRank(ws.schema.contract, opts.maxVisibility);
        if (asked === undefined) throw new UsageError(`"${opts.maxVisibility}" is not a visibility level of this wiki`, `schema.md declares: ${visibilityLevels(ws.schema.contract).levels.join(', ')}`);
        maxRank = asked;
      }
      const viewer = { user: userOf(command), maxRank };
      const result = await graphWorkspace(ws.root, ws.schema, {
        viewer,
        format: opts.format,
        stdout: toStdout,
        out: opts.out && opts.out !== '-' ? path.resolve(process.cwd(), opts.out) : undefined,
      });
      const { summary } = result;
      if (summary.out === null) {
        process.stdout.write(result.document);
        out.info(renderGraphSummary(summary, 'stdout'));
      } else {
        out.result(summary, () => renderGraphSummary(summary, displayPath(summary.out ?? '')));
      }
      if (summary.missing > 0) {
        out.info(`${summary.missing} link${summary.missing === 1 ? '' : 's'} point to pages that do not exist (shown in red; \`wiki lint\` lists them)`);
      }
    });
}
