import type { Command } from 'commander';
import { addConfigFlags, CONFIG_FLAGS, configFlagLayer, type ConfigFlagName } from '../cli/config-flags.js';
import { openWorkspace, outputFor } from '../cli/context.js';
import { renderConfig, renderConfigEntry, renderConfigSet } from '../cli/render-config.js';
import { load } from '../cli/lazy.js';

export function registerConfig(program: Command): void {
  const config = program
    .command('config')
    .description('show the effective configuration and where each value comes from')
    .addHelpText(
      'after',
      '\nPrecedence: flags (the ones below, as a run would take them) > environment (WIKI_PROVIDER, WIKI_MODEL, WIKI_BASE_URL, WIKI_MAX_TURNS, WIKI_EMBEDDER) > wiki.config.json > defaults.\nAPI keys are read from ANTHROPIC_API_KEY / OPENAI_API_KEY in the environment, or in .env at the workspace root (the environment wins), and are never printed.\n\nExamples:\n  $ wiki config\n  $ wiki config --json\n  $ wiki config --jobs 8 --max-turns 60   (what a run with these flags would use)\n  $ wiki config get model\n  $ wiki config set provider openai\n  $ wiki config set search.weights.semantic 1.5\n  $ wiki config set model null      (unset)',
    );
  // Every config flag, so `wiki config --jobs 8` shows what a run with those flags would use.
  addConfigFlags(config, Object.keys(CONFIG_FLAGS) as ConfigFlagName[]).action(async (_opts: unknown, command: Command) => {
    const out = outputFor(command);
    const ws = await openWorkspace(command, await configFlagLayer(command));
    const [{ describeConfig }] = await load('configOperation');
    const report = describeConfig(ws.config);
    out.result(report, () => renderConfig(report, out.c));
  });

  config
    .command('get')
    .description('print the value a run would use for KEY, and where it comes from')
    .argument('<key>', 'dotted field path, e.g. model or search.weights.lexical')
    .action(async (key: string, _opts: unknown, command: Command) => {
      const out = outputFor(command);
      const ws = await openWorkspace(command);
      const [{ configEntry, describeConfig }] = await load('configOperation');
      const entry = configEntry(describeConfig(ws.config), key);
      out.result(entry, () => renderConfigEntry(entry, out.c));
    });

  config
    .command('set')
    .description('set KEY to VALUE in wiki.config.json (validated; VALUE is JSON or a string; null unsets)')
    .argument('<key>', 'dotted field path, e.g. search.weights.lexical')
    .argument('<value>', 'new value')
    .addHelpText(
      'after',
      '\nExamples:\n  $ wiki config set provider openai\n  $ wiki config set maxTurns 60\n  $ wiki config set search.weights.semantic 1.5\n  $ wiki config set query.seeds 3\n  $ wiki config set model null      (unset: back to the default)',
    )
    .action(async (key: string, value: string, _opts: unknown, command: Command) => {
      const out = outputFor(command);
      const ws = await openWorkspace(command);
      const [{ parseConfigValue, setConfigValue }] = await load('configOperation');
      await setConfigValue(ws.root, key, value);
      const parsed = parseConfigValue(value);
      out.result({ key, value: parsed, unset: parsed === null, file: 'wiki.config.json' }, () => renderConfigSet(key, parsed));
    });
}
