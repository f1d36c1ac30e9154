import { limitedFetch, type RateLimiter } from './rate-limiter.js';
import type { ProviderName } from '../config/provider-choice.js';
import { BASE_URL_VARIABLES, DEFAULT_BASE_URLS, KEY_VARIABLES } from './defaults.js';

/** Everything a provider adapter needs, resolved from configuration and environment by `select.ts`. */
export interface ProviderSettings {
  model: string;
  apiKey: string;
  /** `undefined` = the provider's public endpoint. */
  baseUrl: string | undefined;
  /** Per attempt: the SDK's request timeout, and the longest silence tolerated inside a stream. */
  timeoutMs: number;
  /** Retries the SDK makes on 408/409/429/5xx/529 and connection failures, honouring retry-after. */
  maxRetries: number;
  /** Server-sent events instead of one JSON response. */
  stream: boolean;
  /** True when no key was set and a placeholder is sent to a custom base URL. */
  keyIsPlaceholder: boolean;
  /** Longest tool-call arguments a streamed response may carry (from limits.pageWriteBytes); longer ones are dropped as they arrive. */
  maxToolArgumentChars?: number;
  /** The back-off every request of this model goes through (shared by runs side by side); absent: none. */
  limiter?: RateLimiter;
}

/** What error messages need to name the fix: the URL that was called and the variables involved. */
export interface ProviderErrorContext {
  provider: ProviderName;
  baseUrl: string;
  model: string;
  keyVariable: string;
  baseUrlVariable: string;
  keyIsPlaceholder: boolean;
  maxRetries: number;
  timeoutMs: number;
}

export function errorContext(provider: ProviderName, settings: ProviderSettings): ProviderErrorContext {
  return {
    provider,
    baseUrl: settings.baseUrl ?? DEFAULT_BASE_URLS[provider],
    model: settings.model,
    keyVariable: KEY_VARIABLES[provider],
    baseUrlVariable: BASE_URL_VARIABLES[provider],
    keyIsPlaceholder: settings.keyIsPlaceholder,
    maxRetries: settings.maxRetries,
    timeoutMs: settings.timeoutMs,
  };
}

/**
 * The client options both SDKs take, every one explicit, so neither SDK reads the
 * environment or credential files; requests go through the shared back-off when there is one.
 */
export function sdkClientOptions(provider: ProviderName, settings: ProviderSettings): SdkClientOptions {
  return {
    apiKey: settings.apiKey,
    baseURL: settings.baseUrl ?? DEFAULT_BASE_URLS[provider],
    timeout: settings.timeoutMs,
    maxRetries: settings.maxRetries,
    fetch: settings.limiter ? limitedFetch(settings.limiter) : undefined,
  };
}

export interface SdkClientOptions {
  apiKey: string;
  baseURL: string;
  timeout: number;
  maxRetries: number;
  fetch: typeof fetch | undefined;
}
