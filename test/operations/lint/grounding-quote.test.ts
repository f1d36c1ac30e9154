import { describe, expect, it } from 'vitest';
import { citedExcerpt } from '../../../src/operations/lint/grounding-message.js';

/** What a grounding finding quotes of the lines its sentence cites. */
describe('citedExcerpt', () => {
  const lines = Array.from({ length: 200 }, (_, i) => `line ${i + 1}: ${'word '.repeat(20)}`);
  const read = (file: string): readonly string[] | undefined => (file === 'raw/src.md' ? lines : undefined);

  it('quotes every cited range, each its share: a sentence citing two showed only the first', () => {
    const quote = citedExcerpt([{ file: 'raw/src.md', first: 10, last: 20 }, { file: 'raw/src.md', first: 169, last: 171 }], read) ?? '';
    expect(quote).toContain('10│line 10');
    expect(quote).toContain('169│line 169');
    expect(quote.length).toBeLessThanOrEqual(320);
  });

  it('one range may use the whole quote', () => {
    const quote = citedExcerpt([{ file: 'raw/src.md', first: 10, last: 20 }], read) ?? '';
    expect(quote).toContain('11│line 11');
  });
});
