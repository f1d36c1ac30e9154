import type { Command } from 'commander';
import { outputFor } from '../cli/context.js';
import { renderInit } from '../cli/render-init.js';
import { load } from '../cli/lazy.js';

export function registerInit(program: Command): void {
  program
    .command('init')
    .description('create a workspace: schema.md, wiki.config.json, raw/, wiki/ with index and log')
    .argument('[dir]', 'folder to create the workspace in', '.')
    .option('--force', 'overwrite existing workspace files')
    .option('--example', 'also write a small sample wiki (sources in raw/ and their pages) to try without an API key')
    .addHelpText('after', '\nExamples:\n  $ wiki init my-research\n  $ wiki init --example wiki-example\n  $ wiki init --force')
    .action(async (dir: string, opts: { force?: boolean; example?: boolean }, command: Command) => {
      const out = outputFor(command);
      const [{ initWorkspace }] = await load('initOperation');
      const result = await initWorkspace(dir, { force: Boolean(opts.force), example: Boolean(opts.example) });
      out.result(result, () => renderInit(result, dir, out.c, Boolean(opts.example)));
    });
}
