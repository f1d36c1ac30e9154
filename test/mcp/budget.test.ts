import { describe, expect, it } from 'vitest';
import { fitToBudget } from '../../src/mcp/budget.js';

describe('fitToBudget', () => {
  it('leaves an answer within the budget as it is', () => {
    const value = { found: true, results: [1, 2, 3] };
    expect(fitToBudget(value, 1000)).toBe(JSON.stringify(value));
  });

  it('drops whole items off the end of the longest list, and says how many of how many', () => {
    const results = Array.from({ length: 100 }, (_, i) => ({ key: `page-${i}`, summary: 'x'.repeat(80) }));
    const text = fitToBudget({ query: 'q', results }, 2000);
    expect(text.length).toBeLessThanOrEqual(2000);
    const parsed = JSON.parse(text) as { results: Array<{ key: string }>; truncated: { originalChars: number; maxChars: number; cut: string[] } };
    expect(parsed.results[0]?.key).toBe('page-0');
    expect(parsed.results.length).toBeGreaterThan(0);
    expect(parsed.truncated).toEqual({
      originalChars: JSON.stringify({ query: 'q', results }).length,
      maxChars: 2000,
      cut: [`results: ${100 - parsed.results.length} of 100 items dropped`],
    });
  });

  it('cuts the end of the longest text when that is what is long', () => {
    const body = 'word '.repeat(2000);
    const parsed = JSON.parse(fitToBudget({ key: 'a', body }, 1500)) as { body: string; truncated: { cut: string[] } };
    expect(body.startsWith(parsed.body)).toBe(true);
    expect(parsed.truncated.cut).toEqual([`body: ${body.length - parsed.body.length} of ${body.length} characters cut`]);
  });
});
