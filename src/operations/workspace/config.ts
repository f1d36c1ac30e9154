import { getPath, loadConfig, parseConfigValue, setConfigValue, setPath, type EffectiveConfig } from '../../config/load.js';
import { chooseProvider, sourceLabel, type ProviderChoice } from '../../config/provider-choice.js';
import { SECRET_ENV, configKeys } from '../../config/schema.js';
import { ConfigError } from '../../errors.js';
import { DEFAULT_BASE_URLS, DEFAULT_MODELS, defaultContextTokens } from '../../providers/defaults.js';
import { localServerNote } from '../../providers/local-server.js';
import { isFromDotenv } from '../../config/dotenv.js';

export interface ConfigEntry {
  key: string;
  /** The value a run would use; absent when nothing is set and nothing is implied. */
  value: unknown;
  source: string;
}

export interface ConfigReport {
  entries: ConfigEntry[];
  /** `from`: where a set key comes from — the environment, or the workspace's .env. */
  secrets: Array<{ name: string; set: boolean; from?: 'environment' | '.env' }>;
  provider: ProviderChoice;
  /** With a local server: the model asked for and that no price is known. */
  localServer?: string;
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
  const secrets = SECRET_ENV.map((name) => (env[name] ? { name, set: true, from: isFromDotenv(name) ? ('.env' as const) : ('environment' as const) } : { name, set: false }));
  const localServer = localServerNote(provider, effective.config.model);
  return { entries, secrets, provider, ...(localServer ? { localServer } : {}) };
}

function impliedContextTokens(provider: ProviderChoice): ConfigEntry | undefined {
  if (provider.provider === undefined) return undefined;
  const official = provider.baseUrl === undefined || provider.baseUrl.replace(/\/+$/, '') === DEFAULT_BASE_URLS[provider.provider].replace(/\/+$/, '');
  const source = provider.provider === 'openai' && !official ? 'default for an OpenAI-compatible server' : `default for ${provider.provider}`;
  return { key: 'contextTokens', value: defaultContextTokens(provider.provider, official), source };
}

/**
 * `wiki config get KEY`: one entry of the report; a group such as `search.weights` answers
 * with the object of its values and where they come from. Refused for a key that does not exist.
 */
export function configEntry(report: ConfigReport, key: string): ConfigEntry {
  const entry = report.entries.find((e) => e.key === key);
  if (entry) return entry;
  const members = report.entries.filter((e) => e.key.startsWith(`${key}.`));
  if (members.length === 0) throw new ConfigError(`unknown config key "${key}"`, 'run `wiki config` to list the keys');
  const value: Record<string, unknown> = {};
  for (const member of members) if (member.value !== undefined) setPath(value, member.key.slice(key.length + 1), member.value);
  return { key, value, source: [...new Set(members.map((member) => member.source))].join(', ') };
}

export async function configReport(root: string): Promise<ConfigReport> {
  return describeConfig(await loadConfig(root));
}

export { parseConfigValue, setConfigValue };
