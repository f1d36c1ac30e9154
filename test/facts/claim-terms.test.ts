import { describe, expect, it } from 'vitest';
import { claimTerms } from '../../src/facts/claim-terms.js';

/** What a claim and its evidence are compared on: dates, and the words a negation governs. */
describe('claimTerms: dates', () => {
  it('reads "August of 2016" as "August 2016" (a played page cited "in August of 2016" for "(August 2016)")', () => {
    expect(claimTerms('in August of 2016', true).dates).toEqual(['2016-08']);
    expect(claimTerms('0.1 (August 2016) established the model').dates).toEqual(['2016-08']);
  });
});

describe('claimTerms: what a negation denies', () => {
  it('"yes/no" is one word, no denial', () => {
    const terms = claimTerms('The design space reduces to four yes/no questions about separators.');
    expect(terms.negated).toBe(false);
  });

  it('a negation inside parentheses ends with them: "(not `0o`) and every other flag is taken" denies no flag', () => {
    const terms = claimTerms('`%#o` already prints a leading `0` (not `0o`) and every other flag is taken.');
    expect(terms.negated).toBe(true);
    expect(terms.negatedWords).not.toContain('flag');
    expect(claimTerms('It prints a leading zero and not every other flag is taken.').negatedWords).toContain('flag');
  });

  it('in evidence, "C itself has not," denies what its sentence said before it; a plain "has not added" is read as before', () => {
    const elliptical = claimTerms('Although C++14 added binary integer literals, C itself has not, as of C18.', true);
    expect(elliptical.negatedWords).toContain('add');
    const plain = claimTerms('C++14 added binary integer literals, and C has not added hexadecimal floats.', true);
    expect(plain.negatedWords).not.toContain('binari');
  });

  it('"A, not B" denies only what it has not asserted, and "through" is no content word', () => {
    const terms = claimTerms('It leaves 10 identical pointers to the value 10, not pointers to 0 through 9.');
    expect(terms.negated).toBe(true);
    expect(terms.negatedWords).toEqual([]);
    expect(claimTerms('It does not leave identical pointers.').negatedWords).toContain('pointer');
  });
});

describe('claimTerms: stems', () => {
  it("keeps a word's family together where Porter's short stems split it: embed/embedded, add/added, use/used", () => {
    const words = (text: string) => claimTerms(text, true).words;
    expect(words('embed embeds embedded embedding')).toEqual(['embed']);
    expect(words('add adds added adding')).toEqual(['add']);
    expect(words('use uses used using')).toEqual(['use']);
    expect(words('box boxes')).toEqual(['box']);
  });
});

describe('claimTerms: list labels', () => {
  it('"(1) … (2) … (3)" labels one sentence\'s items: none of them is a number the sentence states (played fenced-frames page flagged its "(3)")', () => {
    const terms = claimTerms('Fenced frames are contexts that (1) may not talk to the embedder; (2) use unique partitions; (3) may read limited unpartitioned data.');
    expect(terms.numbers).toEqual([]);
  });
  it('a lone "(3)", labels that do not count up from 1, and numbers beside labels are still numbers', () => {
    expect(claimTerms('The third step (3) caches 40 entries.').numbers).toEqual([3, 40]);
    expect(claimTerms('Items (2) and (3) were dropped.').numbers).toEqual([2, 3]);
    expect(claimTerms('It (1) holds 12 pages and (2) keeps 7 of them.').numbers).toEqual([12, 7]);
  });
});

describe('claimTerms: two-digit years', () => {
  it('"April \'23" in evidence is April 2023 (a played page wrote "April 2023" for it and drew unsupported-number)', () => {
    expect(claimTerms("This presents a new API proposal (April '23, based on #192):", true).dates).toEqual(['2023-04']);
    expect(claimTerms('It was presented in April 2023.').dates).toEqual(['2023-04']);
    expect(claimTerms("Shipped in Dec '99.", true).dates).toEqual(['1999-12']);
    expect(claimTerms("Rock 'n' roll of the '80s.", true).dates).toEqual([]);
  });
});
