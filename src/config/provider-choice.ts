import type { EffectiveConfig } from './load.js';

export type ProviderName = 'anthropic' | 'openai';

export interface ProviderChoice {
  provider: ProviderName | undefined;
  /** How the provider was chosen, e.g. "flag", "wiki.config.json", "ANTHROPIC_API_KEY is set". */
  from: string;
  baseUrl: string | undefined;
  baseUrlFrom: string | undefined;
  keyVariable: string | undefined;
  keySet: boolean;
}

const KEY_VAR: Record<ProviderName, string> = { anthropic: 'ANTHROPIC_API_KEY', openai: 'OPENAI_API_KEY' };
const BASE_VAR: Record<ProviderName, string> = { anthropic: 'ANTHROPIC_BASE_URL', openai: 'OPENAI_BASE_URL' };

/**
 * Which provider a run would use: explicit (flag > env > config file), else auto from
 * which API key is set (Anthropic first), else an OpenAI-compatible base URL alone
 * (a local server needs no key).
 */
export function chooseProvider(effective: EffectiveConfig, env: NodeJS.ProcessEnv = process.env): ProviderChoice {
  const { config, sources } = effective;
  let provider: ProviderName | undefined = config.provider;
  let from = provider ? sourceLabel(sources.provider, effective.envNames.provider) : 'not configured';
  if (!provider) {
    if (env.ANTHROPIC_API_KEY) {
      provider = 'anthropic';
      from = 'ANTHROPIC_API_KEY is set';
    } else if (env.OPENAI_API_KEY) {
      provider = 'openai';
      from = 'OPENAI_API_KEY is set';
    } else if (env.OPENAI_BASE_URL || config.baseUrl) {
      provider = 'openai';
      from = env.OPENAI_BASE_URL ? 'OPENAI_BASE_URL is set' : 'baseUrl in configuration';
    } else if (env.ANTHROPIC_BASE_URL) {
      provider = 'anthropic';
      from = 'ANTHROPIC_BASE_URL is set';
    }
  }
  let baseUrl: string | undefined;
  let baseUrlFrom: string | undefined;
  if (config.baseUrl) {
    baseUrl = config.baseUrl;
    baseUrlFrom = sourceLabel(sources.baseUrl, effective.envNames.baseUrl);
  } else if (provider && env[BASE_VAR[provider]]) {
    baseUrl = env[BASE_VAR[provider]];
    baseUrlFrom = BASE_VAR[provider];
  }
  const keyVariable = provider ? KEY_VAR[provider] : undefined;
  return { provider, from, baseUrl, baseUrlFrom, keyVariable, keySet: Boolean(keyVariable && env[keyVariable]) };
}

export function sourceLabel(source: string | undefined, envName?: string): string {
  switch (source) {
    case 'flag':
      return 'command-line flag';
    case 'env':
      return envName ?? 'environment';
    case 'file':
      return 'wiki.config.json';
    default:
      return 'default';
  }
}
