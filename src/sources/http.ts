import { InputError } from '../errors.js';
import type { AddressCheck } from './address-policy.js';
import type { GetImpl } from './pinned-get.js';

/**
 * One HTTP GET with a deadline covering headers and body, and a byte cap enforced while
 * the body streams in (a huge or endless body is cut off, never buffered whole).
 */

export interface RequestOptions {
  timeoutMs: number;
  /** The GET itself; it connects to the address the check returned (pinned-get.ts). */
  getImpl: GetImpl;
  accept: string;
  /** Asked before every request, redirects included; throws to refuse an address, returns the one to connect to. */
  checkAddress: AddressCheck;
}

/** Redirects followed for one URL before giving up. */
export const MAX_REDIRECTS = 5;

export interface OpenResponse {
  /** URL after redirects. */
  finalUrl: string;
  status: number;
  statusText: string;
  /** Lower-case media type without parameters; '' when the server sent none. */
  mime: string;
  contentType: string | null;
  /** Read the body, failing with InputError once it passes `maxBytes`. */
  readBody(maxBytes: number): Promise<Uint8Array>;
  /** Drop the body unread. */
  discard(): Promise<void>;
}

const USER_AGENT = 'wiki (markdown knowledge-base builder)';

/**
 * GET `url`, following redirects one by one so each new address is checked before it is
 * asked (a page may not bounce the tool to a private address).
 */
export async function openUrl(url: string, options: RequestOptions): Promise<OpenResponse> {
  const signal = AbortSignal.timeout(options.timeoutMs);
  let current = new URL(url);
  let response: Response;
  for (let redirects = 0; ; redirects += 1) {
    // The connection goes to the address the check approved, not to a second lookup's answer.
    const address = await options.checkAddress(current);
    try {
      response = await options.getImpl(current, { signal, address, headers: { accept: options.accept, 'user-agent': USER_AGENT } });
    } catch (error) {
      throw requestFailure(url, error, signal, options.timeoutMs);
    }
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || location === null) break;
    await response.body?.cancel().catch(() => undefined);
    if (redirects >= MAX_REDIRECTS) throw new InputError(`${url}: more than ${MAX_REDIRECTS} redirects; nothing was saved`);
    current = new URL(location, current);
  }
  const contentType = response.headers.get('content-type');
  const finalUrl = current.href;
  return {
    finalUrl,
    status: response.status,
    statusText: response.statusText,
    mime: (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '',
    contentType,
    discard: async () => {
      await response.body?.cancel().catch(() => undefined);
    },
    readBody: async (maxBytes) => {
      const declared = Number(response.headers.get('content-length') ?? NaN);
      if (Number.isFinite(declared) && declared > maxBytes) {
        await response.body?.cancel().catch(() => undefined);
        throw oversize(url, maxBytes);
      }
      try {
        return await readCapped(response, maxBytes, url);
      } catch (error) {
        if (error instanceof InputError) throw error;
        throw requestFailure(url, error, signal, options.timeoutMs);
      }
    },
  };
}

async function readCapped(response: Response, maxBytes: number, url: string): Promise<Uint8Array> {
  if (!response.body) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw oversize(url, maxBytes);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** A body past the byte cap; `limit` is the cap. */
export class OversizeError extends InputError {
  readonly limit: number;
  constructor(url: string, limit: number) {
    super(`${url} is larger than the ${formatBytes(limit)} size cap; nothing was saved`);
    this.limit = limit;
  }
}

function oversize(url: string, maxBytes: number): OversizeError {
  return new OversizeError(url, maxBytes);
}

function requestFailure(url: string, error: unknown, signal: AbortSignal, timeoutMs: number): InputError {
  if (signal.aborted) {
    return new InputError(`${url} did not finish loading within ${formatSeconds(timeoutMs)}; nothing was saved`);
  }
  // fetch wraps the socket's error as `cause`; a plain request throws it as is.
  const failure = error as { code?: string; message?: string; cause?: { code?: string; message?: string } } | undefined;
  const cause = failure?.cause ?? failure;
  switch (cause?.code) {
    case 'ECONNREFUSED':
      return new InputError(`${url}: connection refused`);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new InputError(`${url}: host not found`);
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return new InputError(`${url}: the server closed the connection`);
    default: {
      const detail = cause?.message ?? (error instanceof Error ? error.message : String(error));
      return new InputError(`${url} could not be fetched: ${detail}`);
    }
  }
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${trimNumber(bytes / (1024 * 1024))} MB`;
  if (bytes >= 1024) return `${trimNumber(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}

function formatSeconds(ms: number): string {
  return `${trimNumber(ms / 1000)} s`;
}

function trimNumber(value: number): string {
  return String(Number(value.toFixed(1)));
}
