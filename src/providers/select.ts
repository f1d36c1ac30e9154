import type { ChatModel } from '../agent/types.js';
import type { EffectiveConfig } from '../config/load.js';
import { chooseProvider, type ProviderName } from '../config/provider-choice.js';
import { ConfigError } from '../errors.js';
import { AnthropicChatModel } from './anthropic.js';
import { DEFAULT_MODELS, PLACEHOLDER_KEY } from './defaults.js';
import { OpenAiChatModel } from './openai.js';
import { RateLimiter } from './rate-limiter.js';
import type { ProviderSettings } from './settings.js';
import { maxToolArgumentChars } from './tool-arguments.js';

export interface ProviderOverrides {
  provider?: string;
  model?: string;
  baseUrl?: string;
}

const PROVIDERS: readonly ProviderName[] = ['anthropic', 'openai'];

const NO_PROVIDER_HINT = 'set ANTHROPIC_API_KEY (or OPENAI_API_KEY, or OPENAI_BASE_URL for a local server)';

/**
 * The model a run talks to: provider from flags > environment > wiki.config.json, else
 * from which key is set (see `chooseProvider`); model from the same layers, else the
 * provider's default. A custom base URL without a key gets a placeholder key, since
 * local OpenAI-compatible servers need none. Throws ConfigError (exit 2) naming what to set.
 */
export function createChatModel(
  effective: EffectiveConfig,
  env: NodeJS.ProcessEnv = process.env,
  overrides: ProviderOverrides = {},
): ChatModel {
  const applied = applyOverrides(effective, overrides);
  const choice = chooseProvider(applied, env);
  const provider = choice.provider;
  if (provider === undefined) {
    throw new ConfigError('no model provider is configured', NO_PROVIDER_HINT);
  }
  const keyVariable = choice.keyVariable ?? '';
  const key = env[keyVariable];
  if (!key && choice.baseUrl === undefined) {
    throw new ConfigError(
      `${keyVariable} is not set (provider ${provider}: ${choice.from})`,
      provider === 'openai' ? `set ${keyVariable}, or OPENAI_BASE_URL for a local server` : `set ${keyVariable}, or choose another provider with --provider`,
    );
  }
  const { config } = applied;
  const settings: ProviderSettings = {
    model: config.model ?? DEFAULT_MODELS[provider],
    apiKey: key || PLACEHOLDER_KEY,
    baseUrl: choice.baseUrl,
    timeoutMs: config.requestTimeoutMs,
    maxRetries: config.maxRetries,
    stream: config.stream,
    keyIsPlaceholder: !key,
    maxToolArgumentChars: maxToolArgumentChars(config.limits.pageWriteBytes),
    // One back-off for every request of this model: the runs of `wiki ingest --jobs N` share the model.
    limiter: new RateLimiter(),
  };
  return provider === 'anthropic' ? new AnthropicChatModel(settings) : new OpenAiChatModel(settings);
}

/** Command-line flags win over everything, as if they were configuration set by flag. */
function applyOverrides(effective: EffectiveConfig, overrides: ProviderOverrides): EffectiveConfig {
  const config = { ...effective.config };
  const sources = { ...effective.sources };
  if (overrides.provider !== undefined) {
    const name = overrides.provider.trim().toLowerCase();
    if (!isProviderName(name)) {
      throw new ConfigError(`unknown provider '${overrides.provider}'`, `use --provider ${PROVIDERS.join(' or --provider ')}`);
    }
    config.provider = name;
    sources.provider = 'flag';
  }
  if (overrides.model !== undefined) {
    if (overrides.model.trim() === '') throw new ConfigError('--model is empty', 'give a model name, e.g. --model ' + DEFAULT_MODELS.anthropic);
    config.model = overrides.model.trim();
    sources.model = 'flag';
  }
  if (overrides.baseUrl !== undefined) {
    config.baseUrl = checkedUrl(overrides.baseUrl);
    sources.baseUrl = 'flag';
  }
  if (config.provider !== undefined && !isProviderName(config.provider)) {
    throw new ConfigError(`unknown provider '${String(config.provider)}'`, `use ${PROVIDERS.join(' or ')}`);
  }
  return { ...effective, config, sources };
}

function checkedUrl(raw: string): string {
  try {
    const url = new URL(raw.trim());
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
    return raw.trim();
  } catch {
    throw new ConfigError(`--base-url '${raw}' is not an http(s) URL`, 'e.g. --base-url http://localhost:11434/v1');
  }
}

function isProviderName(name: string): name is ProviderName {
  return (PROVIDERS as readonly string[]).includes(name);
}
