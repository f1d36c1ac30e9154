import type { Command } from 'commander';
import type { EffectiveConfig } from '../config/load.js';
import { UsageError } from '../errors.js';
import type { Schema } from '../wiki/contract.js';
import { load } from './lazy.js';
import { Output, type GlobalOptions } from './output.js';

export interface Workspace {
  root: string;
  schema: Schema;
  config: EffectiveConfig;
}

export function globalOptions(command: Command): GlobalOptions {
  const opts = command.optsWithGlobals<{ root?: string; json?: boolean; quiet?: boolean; color?: boolean }>();
  const options: GlobalOptions = {
    json: Boolean(opts.json),
    quiet: Boolean(opts.quiet),
    color: opts.color !== false && !process.env.NO_COLOR,
  };
  if (opts.root) options.root = opts.root;
  return options;
}

/**
 * The user whose scratch scope (wiki/user/<name>/) is seen: `--user NAME`, else WIKI_USER;
 * undefined when neither is set. A name must be usable as one folder name.
 */
export function userOf(command: Command, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const flag = command.optsWithGlobals<{ user?: string }>().user;
  const name = (flag ?? env.WIKI_USER ?? '').trim();
  if (name === '') return undefined;
  if (!/^[a-z0-9][a-z0-9_-]*$/.test(name)) {
    throw new UsageError(`the user name "${name}" cannot name a folder under wiki/user/`, 'use lowercase letters, digits, "-" and "_", e.g. --user alice');
  }
  return name;
}

export function outputFor(command: Command): Output {
  return new Output(globalOptions(command));
}

/**
 * Find the workspace, load schema.md and the effective configuration — from the settings
 * cache when both files are as last validated (config/settings.ts).
 */
export async function openWorkspace(command: Command, flags: Record<string, unknown> = {}, options: { modelFree?: boolean } = {}): Promise<Workspace> {
  const { root: explicitRoot } = globalOptions(command);
  // Loaded on first use, not at start-up: `--version`, `--help` and usage errors need none of it.
  const [{ resolveWorkspaceRoot }, { loadSettings, saveSettings }, { withoutModelOverrides }, { readKeysFromDotenv }] = await load(
    'workspaceRoot',
    'settings',
    'configSources',
    'dotenv',
  );
  const root = await resolveWorkspaceRoot(explicitRoot, process.cwd());
  // An API key kept in the workspace's .env counts as set (the environment wins over it).
  readKeysFromDotenv(root);
  // A command that calls no model is not stopped by a bad WIKI_PROVIDER or WIKI_MODEL.
  const env = options.modelFree ? withoutModelOverrides(process.env) : process.env;
  const { schema, config, unsaved } = await loadSettings(root, { flags: dropUndefined(flags), env });
  // Freshly validated settings are kept when the command is done, and only if it ran: a
  // refused command (exit 2) and a dry run leave every byte of the workspace as it was.
  const dryRun = command.optsWithGlobals<{ dryRun?: boolean }>().dryRun === true;
  if (unsaved !== undefined && !dryRun) {
    process.once('beforeExit', () => {
      const code = Number(process.exitCode ?? 0);
      if (code === 0 || code === 1) void saveSettings(root, unsaved);
    });
  }
  return { root, schema, config };
}

function dropUndefined(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
}
