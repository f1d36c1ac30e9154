import type { Command } from 'commander';
import { openWorkspace, outputFor } from '../cli/context.js';

export function registerConfig(program: Command): void {
  const config = program
    .command('config')
    .description('show the effective configuration and where each value comes from')
    .addHelpText(
      'after',
      '\nPrecedence: flags > environment (WIKI_PROVIDER, WIKI_MODEL, WIKI_BASE_URL, WIKI_MAX_TURNS, WIKI_EMBEDDER) > wiki.config.json > defaults.\nAPI keys are read only from ANTHROPIC_API_KEY / OPENAI_API_KEY and are never printed.\n\nExamples:\n  $ wiki config\n  $ wiki config --json\n  $ wiki config set provider openai\n  $ wiki config set search.weights.semantic 1.5\n  $ wiki config set model null      (unset)',
    )
    .action(async (_opts: unknown, command: Command) => {
      const out = outputFor(command);
      const ws = await openWorkspace(command);
      // Loaded here, not at start-up: every other command would pay for its imports.
      const { describeConfig } = await import('../operations/config.js');
      const report = describeConfig(ws.config);
      out.result(report, () => {
        const width = Math.max(...report.entries.map((e) => e.key.length));
        const lines = report.entries.map(
          (e) => `${e.key.padEnd(width)}  ${JSON.stringify(e.value)}  ${out.c.dim(`(${e.source})`)}`,
        );
        lines.push('');
        for (const secret of report.secrets) lines.push(`${secret.name}: ${secret.set ? 'set' : 'not set'}`);
        const p = report.provider;
        lines.push(`provider in use: ${p.provider ?? 'none'} (${p.from})${p.baseUrl ? `, base URL ${p.baseUrl}` : ''}`);
        return lines.join('\n');
      });
    });

  config
    .command('set')
    .description('set KEY to VALUE in wiki.config.json (validated; VALUE is JSON or a string; null unsets)')
    .argument('<key>', 'dotted field path, e.g. search.weights.lexical')
    .argument('<value>', 'new value')
    .action(async (key: string, value: string, _opts: unknown, command: Command) => {
      const out = outputFor(command);
      const ws = await openWorkspace(command);
      const { setConfigValue } = await import('../operations/config.js');
      await setConfigValue(ws.root, key, value);
      out.result({ key, value: JSON.parse(JSON.stringify(safeParse(value))) as unknown, file: 'wiki.config.json' }, () => `set ${key} = ${value} in wiki.config.json`);
    });
}

function safeParse(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}
