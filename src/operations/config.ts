import { getPath, loadConfig, setConfigValue, type EffectiveConfig } from '../config/load.js';
import { chooseProvider, sourceLabel, type ProviderChoice } from '../config/provider-choice.js';
import { SECRET_ENV, configKeys } from '../config/schema.js';

export interface ConfigEntry {
  key: string;
  value: unknown;
  source: string;
}

export interface ConfigReport {
  entries: ConfigEntry[];
  secrets: Array<{ name: string; set: boolean }>;
  provider: ProviderChoice;
}

export function describeConfig(effective: EffectiveConfig, env: NodeJS.ProcessEnv = process.env): ConfigReport {
  const config = effective.config as unknown as Record<string, unknown>;
  const entries = configKeys().map((key) => ({
    key,
    value: getPath(config, key),
    source: sourceLabel(effective.sources[key], effective.envNames[key]),
  }));
  const secrets = SECRET_ENV.map((name) => ({ name, set: Boolean(env[name]) }));
  return { entries, secrets, provider: chooseProvider(effective, env) };
}

export async function configReport(root: string): Promise<ConfigReport> {
  return describeConfig(await loadConfig(root));
}

export { setConfigValue };
