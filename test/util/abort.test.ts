import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { rejectOnAbort, unlessAborted } from '../../src/util/abort.js';

/** unlessAborted: the work's result, or "stopped" as soon as the signal fires — whichever comes first. */
describe('unlessAborted', () => {
  const never = (): Promise<string> => new Promise<string>(() => undefined);
  it.each([
    { what: 'work done, no signal', work: () => Promise.resolve('done'), abort: 'never' as const, expected: 'done' },
    { what: 'work done before the abort', work: () => Promise.resolve('done'), abort: 'later' as const, expected: 'done' },
    { what: 'signal already fired', work: never, abort: 'before' as const, expected: 'stopped' },
    { what: 'abort while the work hangs', work: never, abort: 'during' as const, expected: 'stopped' },
    { what: 'work fails after the abort', work: () => new Promise<string>((_, reject) => setTimeout(() => reject(new Error('late')), 20)), abort: 'during' as const, expected: 'stopped' },
  ])('$what → $expected', async ({ work, abort, expected }) => {
    const controller = new AbortController();
    if (abort === 'before') controller.abort();
    const result = unlessAborted(work(), abort === 'never' ? undefined : controller.signal, () => 'stopped');
    if (abort === 'during') setTimeout(() => controller.abort(), 5);
    expect(await result).toBe(expected);
    if (abort === 'later') controller.abort();
  });

  it('passes a failure of the work through when no abort came first', async () => {
    await expect(unlessAborted(Promise.reject(new Error('boom')), new AbortController().signal, () => 'stopped')).rejects.toThrow('boom');
  });
});

describe('rejectOnAbort', () => {
  it('gives the work\'s result, or its failure, when no abort came first', async () => {
    const signal = new AbortController().signal;
    expect(await rejectOnAbort(Promise.resolve('done'), signal)).toBe('done');
    await expect(rejectOnAbort(Promise.reject(new Error('boom')), signal)).rejects.toThrow('boom');
  });

  it('rejects with an AbortError when the signal fires first, or had fired', async () => {
    const before = new AbortController();
    before.abort();
    await expect(rejectOnAbort(new Promise(() => undefined), before.signal)).rejects.toMatchObject({ name: 'AbortError' });
    const during = new AbortController();
    const waiting = rejectOnAbort(new Promise(() => undefined), during.signal);
    during.abort();
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
  });
});

/** A long-lived signal (a whole run's) is raced many times: no race may leave its listener behind. */
describe('abort races leave no listener on the signal', () => {
  const outcomes = {
    resolves: () => Promise.resolve('done'),
    rejects: () => Promise.reject(new Error('failed')),
  };
  it.each(Object.keys(outcomes) as Array<keyof typeof outcomes>)('work that %s, raced 100 times', async (outcome) => {
    const signal = new AbortController().signal;
    for (let i = 0; i < 100; i++) {
      await rejectOnAbort(outcomes[outcome](), signal).catch(() => undefined);
      await unlessAborted(outcomes[outcome](), signal, () => 'stopped').catch(() => undefined);
    }
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });
});
