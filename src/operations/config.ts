import { getPath, loadConfig, parseConfigValue, setConfigValue, type EffectiveConfig } from '../config/load.js';
import { chooseProvider, sourceLabel, type ProviderChoice } from '../config/provider-choice.js';
import { SECRET_ENV, configKeys } from '../config/schema.js';
import { ConfigError } from '../errors.js';
import { DEFAULT_BASE_URLS, DEFAULT_MODELS, defaultContextTokens } from '../providers/defaults.js';

export interface ConfigEntry {
  key: string;
  /** The value a run would use; absent when nothing is set and nothing is implied. */
  value: unknown;
  source: string;
}

export interface ConfigReport {
  entries: ConfigEntry[];
  secrets: Array<{ name: string; set: boolean }>;
  provider: ProviderChoice;
}

/**
 * Every key with the value a run would use and where it comes from. `provider`, `model` and
 * `baseUrl` are unset in most files; they show what a run picks (the provider from the keys
 * set, its default model, the SDK's base URL variable) rather than a bare "undefined".
 */
export function describeConfig(effective: EffectiveConfig, env: NodeJS.ProcessEnv = process.env): ConfigReport {
  const config = effective.config as unknown as Record<string, unknown>;
  const provider = chooseProvider(effective, env);
  const implied: Record<string, ConfigEntry | undefined> = {
    provider: provider.provider && { key: 'provider', value: provider.provider, source: provider.from },
    model: provider.provider && { key: 'model', value: DEFAULT_MODELS[provider.provider], source: `default for ${provider.provider}` },
    baseUrl: provider.baseUrl !== undefined ? { key: 'baseUrl', value: provider.baseUrl, source: provider.baseUrlFrom ?? 'default' } : undefined,
    contextTokens: provider.provider && impliedContextTokens(provider),
  };
  const entries = configKeys().map((key): ConfigEntry => {
    const value = getPath(config, key);
    if (value === undefined && implied[key]) return implied[key];
    return { key, value, source: sourceLabel(effective.sources[key], effective.envNames[key]) };
  });
  const secrets = SECRET_ENV.map((name) => ({ name, set: Boolean(env[name]) }));
  return { entries, secrets, provider };
}

function impliedContextTokens(provider: ProviderChoice): ConfigEntry | undefined {
  if (provider.provider === undefined) return undefined;
  const official = provider.baseUrl === undefined || provider.baseUrl.replace(/\/+$/, '') === DEFAULT_BASE_URLS[provider.provider].replace(/\/+$/, '');
  const source = provider.provider === 'openai' && !official ? 'default for an OpenAI-compatible server' : `default for ${provider.provider}`;
  return { key: 'contextTokens', value: defaultContextTokens(provider.provider, official), source };
}

/** `wiki config get KEY`: one entry of the report, refused for a key that does not exist. */
export function configEntry(report: ConfigReport, key: string): ConfigEntry {
  const entry = report.entries.find((e) => e.key === key);
  if (!entry) throw new ConfigError(`unknown config key "${key}"`, 'run `wiki config` to list the keys');
  return entry;
}

export async function configReport(root: string): Promise<ConfigReport> {
  return describeConfig(await loadConfig(root));
}

export { parseConfigValue, setConfigValue };
