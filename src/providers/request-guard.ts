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
