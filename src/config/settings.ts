import {
  readSettingsCache,
  settingsCacheContent,
  settingsKey,
  writeSettingsCache,
  type CachedSettings,
} from './settings-cache.js';
import type { Schema } from '../wiki/contract.js';
import { readSchemaText } from '../wiki/schema-file.js';
import type { EffectiveConfig } from './load.js';
import { overridesSet, readConfigText, secretsSet } from './sources.js';

/**
 * A workspace's settings — schema.md's contract and the effective configuration — for a
 * command to run with. Validating them (YAML, then the schema library) was a large part
 * of a short command's time, so what one pair of files validated to is kept in
 * `.wiki/cache/settings.json` (config/settings-cache.ts) and taken from there while both
 * files are byte for byte the same; any change validates afresh, so an invalid edit fails
 * exactly as it would without a cache.
 *
 * Only the files are cached: with an override variable (WIKI_MODEL…) or a flag set,
 * everything is validated as it comes. Which secret variables are set is read each time.
 */
export interface WorkspaceSettings {
  schema: Schema;
  config: EffectiveConfig;
}

export interface LoadedSettings extends WorkspaceSettings {
  /** Validated afresh and cacheable: the cache file's content, for saveSettings. */
  unsaved?: string;
}

export interface SettingsOptions {
  env?: NodeJS.ProcessEnv;
  /** Config values from flags (undefined ones left out). */
  flags?: Record<string, unknown>;
}

export async function loadSettings(root: string, options: SettingsOptions = {}): Promise<LoadedSettings> {
  const env = options.env ?? process.env;
  const flags = options.flags ?? {};
  const [schemaText, configText] = await Promise.all([readSchemaText(root), readConfigText(root)]);
  const cacheable = Object.keys(flags).length === 0 && overridesSet(env).length === 0;
  const key = cacheable ? await settingsKey({ schemaText, configText }) : undefined;
  if (key === undefined) return validate(schemaText, configText, env, flags);
  const cached = await readSettingsCache(root, key);
  if (cached) return fromCache(cached, schemaText, env);
  const settings = await validate(schemaText, configText, env, flags);
  return { ...settings, unsaved: settingsCacheContent(key, toCached(settings)) };
}

/** Keep settings that loadSettings validated; never fails (false: not kept). */
export function saveSettings(root: string, unsaved: string): Promise<boolean> {
  return writeSettingsCache(root, unsaved);
}

/** The uncached path, in the order and with the errors of loadSchema and loadConfig. */
async function validate(
  schemaText: string,
  configText: string | undefined,
  env: NodeJS.ProcessEnv,
  flags: Record<string, unknown>,
): Promise<WorkspaceSettings> {
  const [{ parseSchema }, { parseConfigText, resolveConfig }] = await Promise.all([
    import('../wiki/schema-loader.js'),
    import('./load.js'),
  ]);
  const schema = parseSchema(schemaText);
  const config = resolveConfig(parseConfigText(configText), { env, flags });
  return { schema, config };
}

function toCached({ schema, config }: WorkspaceSettings): CachedSettings {
  return { contract: schema.contract, body: schema.body, config: config.config, sources: config.sources };
}

function fromCache(cached: CachedSettings, schemaText: string, env: NodeJS.ProcessEnv): WorkspaceSettings {
  return {
    schema: { contract: cached.contract, body: cached.body, text: schemaText },
    // No override and no flag was set (else nothing is cached), so no value came from the environment.
    config: { config: cached.config, sources: cached.sources, envNames: {}, secrets: secretsSet(env) },
  };
}
