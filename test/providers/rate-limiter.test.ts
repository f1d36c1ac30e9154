import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { RateLimiter, limitedFetch, retryAfterMs, type LimiterClock } from '../../src/providers/rate-limiter.js';
import type { Message } from '../../src/agent/types.js';
import { fakeServers } from '../helpers/use-fake-llm.js';
import type { RecordedRequest, ScriptStep, WireApi } from '../helpers/fake-llm-server.js';
import { baseUrlOf, modelFor, request } from './harness.js';

/**
 * The one back-off all runs of a model share: a 429/529 holds every request back until the
 * retry-after has passed, then lets one through first and the rest only after its answer.
 * A hand-driven clock: nothing here depends on timing.
 */

class ManualClock implements LimiterClock {
  time = 0;
  private sleepers: Array<{ until: number; wake: () => void }> = [];
  now(): number {
    return this.time;
  }
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      this.sleepers.push({ until: this.time + ms, wake: resolve });
      signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')), { once: true });
    });
  }
  async advance(ms: number): Promise<void> {
    this.time += ms;
    const due = this.sleepers.filter((s) => s.until <= this.time);
    this.sleepers = this.sleepers.filter((s) => s.until > this.time);
    for (const sleeper of due) sleeper.wake();
    await settle();
  }
}

/** Let every promise continuation that can run, run. */
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}

function track<T>(promise: Promise<T>): { done: () => boolean; value: Promise<T> } {
  let finished = false;
  const value = promise.then((v) => {
    finished = true;
    return v;
  });
  return { done: () => finished, value };
}

describe('RateLimiter', () => {
  it('lets requests through at once while no limit was hit', async () => {
    const limiter = new RateLimiter(new ManualClock());
    const tickets = await Promise.all([limiter.acquire(), limiter.acquire(), limiter.acquire()]);
    expect(tickets.map((t) => t.probe)).toEqual([false, false, false]);
  });

  it('a 429 holds every job back for the retry-after; then one goes first and the others wait for its answer', async () => {
    const clock = new ManualClock();
    const limiter = new RateLimiter(clock);
    const first = await limiter.acquire();
    limiter.settle(first, 429, 2000);
    expect(limiter.backOffs).toBe(1);

    const a = track(limiter.acquire());
    const b = track(limiter.acquire());
    const c = track(limiter.acquire());
    await clock.advance(1999);
    expect([a.done(), b.done(), c.done()]).toEqual([false, false, false]);
    await clock.advance(1);
    // Exactly one request is let through: the probe.
    expect([a.done(), b.done(), c.done()].filter(Boolean)).toHaveLength(1);
    const probe = await a.value;
    expect(probe.probe).toBe(true);
    limiter.settle(probe, 200);
    await settle();
    expect([b.done(), c.done()]).toEqual([true, true]);
    expect((await b.value).probe).toBe(false);
  });

  it('a probe that is limited again pauses everyone again, longer without a retry-after', async () => {
    const clock = new ManualClock();
    const limiter = new RateLimiter(clock);
    limiter.settle(await limiter.acquire(), 529, undefined); // first back-off: 0.5 s
    const probe = track(limiter.acquire());
    const other = track(limiter.acquire());
    await clock.advance(500);
    expect(probe.done()).toBe(true);
    limiter.settle(await probe.value, 529, undefined); // second: 1 s
    await clock.advance(999);
    expect(other.done()).toBe(false);
    await clock.advance(1);
    expect(other.done()).toBe(true);
    expect((await other.value).probe).toBe(true);
  });

  it('a waiting request gives up when its signal aborts', async () => {
    const limiter = new RateLimiter(new ManualClock());
    limiter.settle(await limiter.acquire(), 429, 10_000);
    const controller = new AbortController();
    const waiting = limiter.acquire(controller.signal);
    controller.abort();
    await expect(waiting).rejects.toThrow(/abort/i);
  });

  it('a request sleeping out a real back-off gives up with an AbortError when its signal aborts', async () => {
    const limiter = new RateLimiter();
    limiter.settle(await limiter.acquire(), 429, 60_000);
    const controller = new AbortController();
    const waiting = limiter.acquire(controller.signal);
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('requests sharing one signal leave no abort listener on it, through the back-off sleep and the wait for the probe', async () => {
    const limiter = new RateLimiter();
    const signal = new AbortController().signal;
    for (let round = 0; round < 5; round++) {
      limiter.settle(await limiter.acquire(signal), 429, 1);
      const waiting = Array.from({ length: 20 }, () => limiter.acquire(signal));
      // The first request through the pause is the probe; its answer lets the other 19 go.
      const probe = await Promise.race(waiting);
      expect(probe.probe).toBe(true);
      limiter.settle(probe, 200);
      const tickets = await Promise.all(waiting);
      expect(tickets.filter((ticket) => ticket.probe)).toHaveLength(1);
    }
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });

  it.each([
    ['retry-after-ms', { 'retry-after-ms': '250' }, 250],
    ['retry-after in seconds', { 'retry-after': '3' }, 3000],
    ['retry-after as a date', { 'retry-after': new Date(10_000).toUTCString() }, 10_000],
    ['none', {}, undefined],
    ['unreadable', { 'retry-after': 'soon' }, undefined],
  ])('reads %s', (_name, headers, expected) => {
    expect(retryAfterMs(new Headers(headers), 0)).toBe(expected);
  });

  it('limitedFetch settles the ticket with the answer, and with nothing when the request fails', async () => {
    const clock = new ManualClock();
    const limiter = new RateLimiter(clock);
    const limited = limitedFetch(limiter, async () => new Response('{}', { status: 429, headers: { 'retry-after': '1' } }));
    await limited('http://127.0.0.1/x');
    expect(limiter.backOffs).toBe(1);
    expect(limiter.paused).toBe(true);
    const failing = limitedFetch(limiter, async () => {
      throw new TypeError('fetch failed');
    });
    const attempt = failing('http://127.0.0.1/x');
    await clock.advance(1000);
    await expect(attempt).rejects.toThrow('fetch failed');
    // The failed probe released the others.
    const next = track(limiter.acquire());
    await settle();
    expect(next.done()).toBe(true);
  });
});

const serve = fakeServers();

describe.each(['anthropic', 'openai'] as WireApi[])('two runs sharing one %s model', (api) => {
  it('a 429 answered to one run holds the other back: after it, one request at a time until one is answered', async () => {
    let limited = false;
    let inFlight = 0;
    let mostInFlight = 0;
    const fake = await serve(async (req: RecordedRequest): Promise<ScriptStep> => {
      if (!limited) {
        limited = true;
        return { fault: 'status', status: 429, retryAfterMs: 200 };
      }
      inFlight += 1;
      mostInFlight = Math.max(mostInFlight, inFlight);
      // Answers take longer than the back-off, so two requests let go together would overlap here.
      await new Promise((resolve) => setTimeout(resolve, 300));
      inFlight -= 1;
      return { text: `answer to ${req.lastUserText ?? ''}` };
    });
    const limiter = new RateLimiter();
    const model = modelFor(api, baseUrlOf(api, fake), { maxRetries: 2, limiter });
    const ask = (text: string): Message[] => [{ role: 'user', content: text }];
    const first = model.complete(request(ask('first run')));
    while (limiter.backOffs === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const second = model.complete(request(ask('second run')));
    const answers = await Promise.all([first, second]);
    expect(answers.map((a) => a.text)).toEqual(['answer to first run', 'answer to second run']);
    expect(fake.requests).toHaveLength(3);
    expect(mostInFlight).toBe(1);
    expect(limiter.backOffs).toBe(1);
  });
});
