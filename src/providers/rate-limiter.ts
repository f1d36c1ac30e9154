import { setTimeout as sleep } from 'node:timers/promises';
import { abortError, rejectOnAbort } from '../util/abort.js';

/**
 * One back-off for every request a model makes, whichever run makes it. A 429 (rate
 * limited) or 529 (overloaded) pauses all of them until the server's retry-after has
 * passed; then one request goes first, and the rest follow only once it was answered
 * with something else — so N jobs hitting a limit do not retry N at once and trip it
 * again. It sits under the SDKs as their `fetch`, so their own retries (which honour
 * retry-after too) pass through it as well.
 */

export interface LimiterClock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

const realClock: LimiterClock = {
  now: () => Date.now(),
  sleep: (ms, signal) => sleep(ms, undefined, { signal }),
};

/** Back-off when the server gives no retry-after: doubles from 0.5 s up to 8 s, as the SDKs do. */
const FIRST_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 8_000;
/** A retry-after longer than this is capped (a server asking for an hour is not waited out here). */
const MAX_RETRY_AFTER_MS = 60_000;

/** What a request holds while it is in flight. */
export interface LimiterTicket {
  /** The first request after a back-off: the others wait for its answer. */
  readonly probe: boolean;
}

export class RateLimiter {
  #pausedUntil = 0;
  /** Set by a back-off, cleared by the first answer that is not a 429/529. */
  #recovering = false;
  #probe: { done: Promise<void>; release: () => void } | undefined;
  #backOffs = 0;
  #consecutive = 0;

  constructor(private readonly clock: LimiterClock = realClock) {}

  /** Back-offs so far (429/529 answers seen). */
  get backOffs(): number {
    return this.#backOffs;
  }

  /** True while requests are held back. */
  get paused(): boolean {
    return this.clock.now() < this.#pausedUntil || this.#probe !== undefined;
  }

  /** Wait until a request may go. Rejects when `signal` aborts. */
  async acquire(signal?: AbortSignal): Promise<LimiterTicket> {
    for (;;) {
      if (signal?.aborted) throw abortError(signal);
      const wait = this.#pausedUntil - this.clock.now();
      if (wait > 0) {
        await this.clock.sleep(wait, signal);
        continue;
      }
      if (this.#probe) {
        await rejectOnAbort(this.#probe.done, signal);
        continue;
      }
      if (!this.#recovering) return { probe: false };
      let release: () => void = () => undefined;
      const done = new Promise<void>((resolve) => (release = resolve));
      this.#probe = { done, release };
      return { probe: true };
    }
  }

  /** The answer's status (`undefined`: no answer, the request failed) and the retry-after it carried. */
  settle(ticket: LimiterTicket, status: number | undefined, retryAfterMs?: number): void {
    if (status === 429 || status === 529) {
      this.#backOffs += 1;
      this.#consecutive += 1;
      const fallback = Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** (this.#consecutive - 1));
      const delay = Math.min(MAX_RETRY_AFTER_MS, retryAfterMs ?? fallback);
      this.#pausedUntil = Math.max(this.#pausedUntil, this.clock.now() + delay);
      this.#recovering = true;
    } else if (status !== undefined && (ticket.probe || !this.#recovering)) {
      this.#consecutive = 0;
      this.#recovering = false;
    }
    if (ticket.probe && this.#probe) {
      const probe = this.#probe;
      this.#probe = undefined;
      probe.release();
    }
  }
}

/** A `fetch` for the SDKs that goes through `limiter`. */
export function limitedFetch(limiter: RateLimiter, base: typeof fetch = globalThis.fetch): typeof fetch {
  return async (input, init) => {
    const ticket = await limiter.acquire(init?.signal ?? undefined);
    let response: Response;
    try {
      response = await base(input, init);
    } catch (error) {
      limiter.settle(ticket, undefined);
      throw error;
    }
    limiter.settle(ticket, response.status, retryAfterMs(response.headers));
    return response;
  };
}

/** retry-after-ms, else retry-after (seconds or an HTTP date), in milliseconds; undefined when absent or unreadable. */
export function retryAfterMs(headers: Headers, now: number = Date.now()): number | undefined {
  const ms = Number(headers.get('retry-after-ms') ?? Number.NaN);
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const raw = headers.get('retry-after');
  if (raw === null) return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
