import type { ProviderName } from '../config/provider-choice.js';

/**
 * Provider facts that change with the market (model ids) or never (variable names),
 * kept in one place so a new default model is a one-line change.
 */
export const DEFAULT_MODELS: Record<ProviderName, string> = {
  anthropic: 'claude-sonnet-5-5',
  openai: 'gpt-5.5',
};

/** Where each SDK sends requests when no base URL is configured. */
export const DEFAULT_BASE_URLS: Record<ProviderName, string> = {
  anthropic: 'https://api.anthropic.com',
  openai: 'https://api.openai.com/v1',
};

export const KEY_VARIABLES: Record<ProviderName, string> = {
  anthropic: 'ANTHROPIC_API_KEY',
  openai: 'OPENAI_API_KEY',
};

export const BASE_URL_VARIABLES: Record<ProviderName, string> = {
  anthropic: 'ANTHROPIC_BASE_URL',
  openai: 'OPENAI_BASE_URL',
};

/**
 * Sent as the key to a server at a custom base URL when no key is set: local
 * OpenAI-compatible servers ignore it, but the SDKs refuse to run without one.
 */
export const PLACEHOLDER_KEY = 'not-needed';

/**
 * The context window a run keeps its requests within when wiki.config.json sets no
 * `contextTokens`: Claude models take 200k tokens; OpenAI's own models at least 128k; a
 * model behind an OpenAI-compatible server (Ollama, llama.cpp, vLLM…) is assumed small,
 * since most local models are served with 32k or less.
 */
export const ANTHROPIC_CONTEXT_TOKENS = 200_000;
export const OPENAI_CONTEXT_TOKENS = 128_000;
export const COMPATIBLE_SERVER_CONTEXT_TOKENS = 24_000;

export function defaultContextTokens(provider: ProviderName, officialEndpoint: boolean): number {
  if (provider === 'anthropic') return ANTHROPIC_CONTEXT_TOKENS;
  return officialEndpoint ? OPENAI_CONTEXT_TOKENS : COMPATIBLE_SERVER_CONTEXT_TOKENS;
}
