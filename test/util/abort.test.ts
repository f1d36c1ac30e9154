import { describe, expect, it } from 'vitest';
import { unlessAborted } from '../../src/util/abort.js';

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
