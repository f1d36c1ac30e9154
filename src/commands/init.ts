import type { Command } from 'commander';
import { outputFor } from '../cli/context.js';

export function registerInit(program: Command): void {
  program
    .command('init')
    .description('create a workspace: schema.md, wiki.config.json, raw/, wiki/ with index and log')
    .argument('[dir]', 'folder to create the workspace in', '.')
    .option('--force', 'overwrite existing workspace files')
    .addHelpText('after', '\nExamples:\n  $ wiki init my-research\n  $ wiki init --force')
    .action(async (dir: string, opts: { force?: boolean }, command: Command) => {
      const out = outputFor(command);
      // Loaded here, not at start-up: every other command would pay for its imports.
      const { initWorkspace } = await import('../operations/init.js');
      const result = await initWorkspace(dir, { force: Boolean(opts.force) });
      out.result(result, () => {
        const lines = [`${out.c.green('Created')} a wiki workspace in ${result.root}`];
        for (const file of result.created) lines.push(`  + ${file}`);
        for (const file of result.overwritten) lines.push(`  ~ ${file} (overwritten)`);
        const cd = dir === '.' ? '' : `cd ${dir} && `;
        lines.push(
          '',
          'Next steps:',
          `  1. ${cd}export ANTHROPIC_API_KEY=…   (or OPENAI_API_KEY, or OPENAI_BASE_URL for a local server)`,
          '  2. put sources in raw/, then: wiki ingest raw/paper.md',
          '  3. wiki query "what does the wiki say about …?"',
          '  4. read and edit schema.md to change how the wiki is written',
        );
        return lines.join('\n');
      });
    });
}
