import type { ChatResponse } from '../agent/types.js';
import { abortedError, isTransportFailure, streamCutError, streamStallError, toProviderError } from './errors.js';
import type { ProviderErrorContext, ProviderSettings } from './settings.js';

/**
 * One model request's cancellation: follows the caller's signal, and aborts when a
 * stream goes silent for longer than the idle limit (the SDKs' own timeouts stop
 * counting once the response headers have arrived).
 */
export class RequestGuard {
  readonly #controller = new AbortController();
  readonly #outer: AbortSignal | undefined;
  readonly #idleMs: number;
  readonly #onOuterAbort = (): void => this.#controller.abort();
  #timer: NodeJS.Timeout | undefined;
  #stalled = false;

  constructor(outer: AbortSignal | undefined, idleMs: number) {
    this.#outer = outer;
    this.#idleMs = idleMs;
    if (outer?.aborted) this.#controller.abort();
    else outer?.addEventListener('abort', this.#onOuterAbort, { once: true });
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** The stream stayed silent past the idle limit and was aborted for it. */
  get stalled(): boolean {
    return this.#stalled;
  }

  /** The caller cancelled the request. */
  get cancelled(): boolean {
    return this.#outer?.aborted === true;
  }

  /** Data arrived: restart the idle clock. */
  touch(): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#stalled = true;
      this.#controller.abort();
    }, this.#idleMs);
  }

  dispose(): void {
    clearTimeout(this.#timer);
    this.#outer?.removeEventListener('abort', this.#onOuterAbort);
  }
}

/** Builds one response from a stream's chunks (each provider's wire module has one). */
export interface StreamAccumulator<Chunk> {
  add(chunk: Chunk): void;
  /** The stream said it was done; a stream that ends without saying so was cut. */
  readonly finished: boolean;
  result(fallbackModel: string): ChatResponse;
}

/** One provider request: how to make it, whole or streamed, through the provider's SDK. */
export interface ProviderCall<Chunk> {
  whole(signal: AbortSignal): Promise<ChatResponse>;
  stream(signal: AbortSignal): Promise<AsyncIterable<Chunk>>;
  accumulator: StreamAccumulator<Chunk>;
}

export interface GuardedCallOptions {
  model: string;
  /** The caller's cancellation. */
  signal: AbortSignal | undefined;
  settings: Pick<ProviderSettings, 'stream' | 'timeoutMs'>;
  errors: ProviderErrorContext;
}

/**
 * The body both providers share around their SDK call: the request guard, the stream read
 * through the accumulator, and every failure mapped to one ProviderError (or the caller's
 * cancellation), whatever the SDK threw or how the stream ended.
 */
export async function guardedCall<Chunk>(call: ProviderCall<Chunk>, options: GuardedCallOptions): Promise<ChatResponse> {
  const { errors } = options;
  const guard = new RequestGuard(options.signal, options.settings.timeoutMs);
  let receiving = false;
  try {
    if (!options.settings.stream) return await call.whole(guard.signal);
    const chunks = await call.stream(guard.signal);
    receiving = true;
    guard.touch();
    for await (const chunk of chunks) {
      guard.touch();
      call.accumulator.add(chunk);
    }
    // The SDKs end the iteration quietly when their signal aborts.
    if (guard.cancelled) throw abortedError();
    if (guard.stalled) throw streamStallError(errors);
    if (!call.accumulator.finished) throw streamCutError(errors);
    return call.accumulator.result(options.model);
  } catch (error) {
    if (guard.cancelled) throw abortedError();
    if (guard.stalled) throw streamStallError(errors);
    if (receiving && isTransportFailure(error)) throw streamCutError(errors, error);
    throw toProviderError(error, errors);
  } finally {
    guard.dispose();
  }
}
