import { describe, expect, it } from 'vitest';
import { parseRateLimit, RateLimiter } from '../../src/serve/rate-limit.js';

describe('the per-token rate limit', () => {
  it('allows the budget at once, then says how long to wait, and refills over time', () => {
    let now = 0;
    const limiter = new RateLimiter({ requests: 3, perSeconds: 60 }, () => now);
    expect([limiter.take('a'), limiter.take('a'), limiter.take('a')]).toEqual([undefined, undefined, undefined]);
    expect(limiter.take('a')).toBe(20);
    expect(limiter.take('b')).toBeUndefined();
    now += 20_000;
    expect(limiter.take('a')).toBeUndefined();
    expect(limiter.take('a')).toBe(20);
  });

  it.each([
    ['120', { requests: 120, perSeconds: 60 }],
    ['4/3600', { requests: 4, perSeconds: 3600 }],
    ['0', undefined],
    ['5/0', undefined],
    ['lots', undefined],
  ])('reads %s', (text, expected) => {
    expect(parseRateLimit(text)).toEqual(expected);
  });
});
