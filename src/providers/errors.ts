import * as AnthropicSdk from '@anthropic-ai/sdk';
import * as OpenAiSdk from 'openai';
import { ProviderError } from '../errors.js';
import type { ProviderErrorContext } from './settings.js';

/**
 * Turns whatever an SDK threw into a ProviderError with a one-line reason and the fix.
 * The SDKs have already retried 408/409/429/5xx/529 and connection failures (honouring
 * retry-after) by the time an error reaches here, so "after N retries" is accurate.
 */
export function toProviderError(error: unknown, context: ProviderErrorContext): ProviderError {
  if (error instanceof ProviderError) return error;
  if (isUserAbort(error)) return abortedError();
  if (isTimeout(error)) {
    return withCause(
      new ProviderError(
        'timeout',
        `no response from ${context.baseUrl} within ${seconds(context.timeoutMs)} ${retriesPhrase(context.maxRetries)}`,
        'check that the server is healthy, or raise requestTimeoutMs in wiki.config.json',
      ),
      error,
    );
  }
  if (isConnectionError(error)) {
    const code = networkCode(error);
    return withCause(
      new ProviderError(
        'unreachable',
        `cannot reach ${context.baseUrl} — is the server running?`,
        `${code ? `${describeNetworkCode(code)}; ` : ''}start the server, or fix the URL (${context.baseUrlVariable}, --base-url or baseUrl in wiki.config.json)`,
      ),
      error,
    );
  }
  if (isApiError(error)) {
    const status = error.status;
    const detail = serverMessage(error);
    if (status === undefined) return withCause(midStreamError(detail, errorCode(error), context), error);
    return withCause(statusError(status, detail, errorCode(error), context), error);
  }
  const message = error instanceof Error ? error.message : String(error);
  if (/terminated|other side closed|socket hang up|ECONNRESET/i.test(message)) {
    return withCause(
      new ProviderError(
        'bad-response',
        `the response from ${context.baseUrl} was cut off before it was complete`,
        'run again; if it keeps happening, check proxies between you and the server',
      ),
      error,
    );
  }
  return withCause(
    new ProviderError(
      'bad-response',
      `unexpected response from ${context.baseUrl}: ${oneLine(message)}`,
      'run again; if it keeps happening, the server does not speak the expected API',
    ),
    error,
  );
}

function statusError(
  status: number,
  detail: string | undefined,
  code: string | undefined,
  context: ProviderErrorContext,
): ProviderError {
  const said = detail ? `: ${detail}` : '';
  if (status === 401 || status === 403) {
    const message = context.keyIsPlaceholder
      ? `authentication failed (${status}) — ${context.baseUrl} wants a key: set ${context.keyVariable}`
      : `authentication failed (${status}) — check ${context.keyVariable}`;
    return new ProviderError('auth', message, `the server said${said || ' nothing more'}`, 2);
  }
  if (isContextOverflow(status, detail, code)) {
    return new ProviderError(
      'context-overflow',
      `the request does not fit the model's context window (${status}${said})`,
      'give the run less to read at once, or use a model with a larger context window',
    );
  }
  if (status === 429) {
    return new ProviderError(
      'rate-limited',
      `rate limited by ${context.baseUrl} (429) ${retriesPhrase(context.maxRetries)}`,
      `wait a while and run again, or raise maxRetries in wiki.config.json${detail ? ` (server: ${detail})` : ''}`,
    );
  }
  if (status === 408) {
    return new ProviderError(
      'timeout',
      `the server at ${context.baseUrl} timed out the request (408) ${retriesPhrase(context.maxRetries)}`,
      'run again later',
    );
  }
  if (status >= 500) {
    const label = status === 529 ? '529 overloaded' : String(status);
    return new ProviderError(
      'server',
      `server error (${label}) from ${context.baseUrl} ${retriesPhrase(context.maxRetries)}`,
      `the provider is having trouble; run again later${detail ? ` (server: ${detail})` : ''}`,
    );
  }
  if (isModelNotFound(status, detail, code)) {
    return new ProviderError(
      'bad-request',
      `model '${context.model}' is not available at ${context.baseUrl} (${status}${said})`,
      'set --model or "model" in wiki.config.json to a model the server offers',
      2,
    );
  }
  return new ProviderError(
    'bad-request',
    `request rejected by ${context.baseUrl} (${status}${said})`,
    status === 404
      ? `check the base URL (${context.baseUrlVariable}, --base-url) — it should end where the API's paths begin`
      : 'this is likely a bug in wiki or an unsupported server; the transcript in .wiki/runs/ has the request',
  );
}

/** An error event inside an otherwise successful stream (Anthropic `event: error`, OpenAI `{"error": …}` chunk). */
function midStreamError(detail: string | undefined, code: string | undefined, context: ProviderErrorContext): ProviderError {
  const said = detail ?? code ?? 'no details';
  if (/overload|rate.?limit|capacity|unavailable|api_error|server_error|timeout/i.test(`${code ?? ''} ${said}`)) {
    return new ProviderError(
      'server',
      `${context.baseUrl} reported an error in the middle of the response: ${said}`,
      'the provider is busy; run again later',
    );
  }
  return new ProviderError(
    'bad-response',
    `${context.baseUrl} reported an error in the middle of the response: ${said}`,
    'run again; if it keeps happening, set "stream": false in wiki.config.json',
  );
}

/**
 * A failure while reading a response body that the server did not send on purpose
 * (socket dropped, garbage instead of JSON), as opposed to an HTTP or in-stream API error.
 */
export function isTransportFailure(error: unknown): boolean {
  return !(error instanceof ProviderError) && !isApiError(error) && !isUserAbort(error);
}

export function streamCutError(context: ProviderErrorContext, cause?: unknown): ProviderError {
  return withCause(
    new ProviderError(
      'bad-response',
      `the response stream was cut off before the model finished (${context.baseUrl})`,
      'run again; if it keeps happening, check proxies between you and the server or set "stream": false in wiki.config.json',
    ),
    cause,
  );
}

export function streamStallError(context: ProviderErrorContext): ProviderError {
  return new ProviderError(
    'timeout',
    `the response stream from ${context.baseUrl} stalled for ${seconds(context.timeoutMs)}`,
    'check that the server is healthy, or raise requestTimeoutMs in wiki.config.json',
  );
}

export function abortedError(): ProviderError {
  return new ProviderError('aborted', 'the model request was cancelled');
}

const CONTEXT_OVERFLOW_PATTERNS = [
  /prompt is too long/i,
  /context[ _-]?length/i,
  /context[ _-]?window/i,
  /maximum context/i,
  /exceeds? (the )?(available )?context/i,
  /exceed_context_size/i,
  /too many (input )?tokens/i,
  /input (length|is too long)/i,
];

/** Anthropic "prompt is too long", OpenAI `context_length_exceeded`, vLLM and llama.cpp phrasings. */
export function isContextOverflow(status: number, detail: string | undefined, code: string | undefined): boolean {
  if (status === 413) return true;
  if (status !== 400 && status !== 422) return false;
  if (code && /context_length|exceed_context/i.test(code)) return true;
  return detail !== undefined && CONTEXT_OVERFLOW_PATTERNS.some((pattern) => pattern.test(detail));
}

function isModelNotFound(status: number, detail: string | undefined, code: string | undefined): boolean {
  if (code === 'model_not_found') return true;
  if (status !== 404 && status !== 400) return false;
  return detail !== undefined && /model/i.test(detail) && /not (be )?found|does not exist|unknown|not available|pull/i.test(detail);
}

interface SdkApiError {
  status: number | undefined;
  error: unknown;
  message: string;
}

function isApiError(error: unknown): error is SdkApiError & Error {
  return error instanceof AnthropicSdk.APIError || error instanceof OpenAiSdk.APIError;
}

function isUserAbort(error: unknown): boolean {
  return (
    error instanceof AnthropicSdk.APIUserAbortError ||
    error instanceof OpenAiSdk.APIUserAbortError ||
    (error instanceof Error && error.name === 'AbortError')
  );
}

function isTimeout(error: unknown): boolean {
  return error instanceof AnthropicSdk.APIConnectionTimeoutError || error instanceof OpenAiSdk.APIConnectionTimeoutError;
}

function isConnectionError(error: unknown): boolean {
  return error instanceof AnthropicSdk.APIConnectionError || error instanceof OpenAiSdk.APIConnectionError;
}

/** The server's own explanation: Anthropic `{error: {message}}`, OpenAI `{message}` (already unwrapped by the SDK). */
function serverMessage(error: SdkApiError): string | undefined {
  const body = error.error;
  const nested = field(field(body, 'error'), 'message');
  const direct = field(body, 'message');
  const text = typeof nested === 'string' ? nested : typeof direct === 'string' ? direct : undefined;
  if (text !== undefined) return oneLine(text);
  if (typeof body === 'string' && body.trim() !== '') return oneLine(body);
  return undefined;
}

function errorCode(error: SdkApiError): string | undefined {
  const body = error.error;
  for (const candidate of [field(body, 'code'), field(field(body, 'error'), 'code'), field(field(body, 'error'), 'type'), field(body, 'type')]) {
    if (typeof candidate === 'string') return candidate;
  }
  return undefined;
}

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

/** ECONNREFUSED, ENOTFOUND… from the fetch error's cause chain. */
function networkCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current !== undefined && current !== null; depth += 1) {
    const code = field(current, 'code');
    if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return code;
    const errors = field(current, 'errors');
    if (Array.isArray(errors)) {
      const inner = errors.map(networkCode).find((found) => found !== undefined);
      if (inner) return inner;
    }
    current = field(current, 'cause');
  }
  return undefined;
}

function describeNetworkCode(code: string): string {
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused (ECONNREFUSED)';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `the host name does not resolve (${code})`;
    case 'ECONNRESET':
      return 'the connection was reset (ECONNRESET)';
    default:
      return code;
  }
}

export function retriesPhrase(maxRetries: number): string {
  if (maxRetries === 0) return 'with retries turned off';
  return `after ${maxRetries} ${maxRetries === 1 ? 'retry' : 'retries'}`;
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${(ms / 1000).toFixed(1)}s`;
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 240 ? `${flat.slice(0, 237)}...` : flat;
}

function withCause(error: ProviderError, cause: unknown): ProviderError {
  if (cause !== undefined) error.cause = cause;
  return error;
}
