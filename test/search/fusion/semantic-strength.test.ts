import { describe, expect, it } from 'vitest';
import { rankOf, semanticStrength, semanticWeightScale, strengthProbes, type StrengthProbe } from '../../../src/search/fusion/semantic-strength.js';

// The semantic lane's strength in a corpus: its pages found from their titles by the
// semantic lane against the lexical lane, and the weight it earns in fusion from that.

describe('semanticWeightScale', () => {
  const params = { reference: 0.69, exponent: 2 };
  it.each([
    { case: 'unknown strength (an embedder not trained on the corpus)', strength: undefined, scale: 1 },
    { case: 'at the reference', strength: 0.69, scale: 1 },
    { case: 'a weak lane (CACM-like)', strength: 0.46, scale: (0.46 / 0.69) ** 2 },
    { case: 'a strong lane (Cranfield-like)', strength: 0.87, scale: (0.87 / 0.69) ** 2 },
    { case: 'stronger than the lexical lane counts as equal', strength: 3, scale: (1 / 0.69) ** 2 },
    { case: 'a lane that finds nothing', strength: 0, scale: 0 },
    { case: 'not a number', strength: Number.NaN, scale: 1 },
  ])('$case', ({ strength, scale }) => {
    expect(semanticWeightScale(strength, params)).toBeCloseTo(scale, 12);
  });

  it('is 1 at exponent 0 (the configured weight as it is)', () => {
    expect(semanticWeightScale(0.2, { reference: 0.69, exponent: 0 })).toBe(1);
  });

  it('never lowers the weight of a stronger lane below a weaker one’s', () => {
    const strengths = [0, 0.1, 0.3, 0.5, 0.69, 0.8, 1, 1.5];
    const scales = strengths.map((strength) => semanticWeightScale(strength, params));
    for (let i = 1; i < scales.length; i++) expect(scales[i]!).toBeGreaterThanOrEqual(scales[i - 1]!);
  });
});

describe('rankOf', () => {
  it.each([
    { case: 'the best by slot', target: 2, scores: [0.1, 0.3, 0.9], slots: undefined, rank: 1 },
    { case: 'third by slot', target: 0, scores: [0.1, 0.3, 0.9], slots: undefined, rank: 3 },
    { case: 'ties do not count against it', target: 1, scores: [0.5, 0.5, 0.2], slots: undefined, rank: 1 },
    { case: 'not scored', target: 2, scores: [0.5, 0.4, 0], slots: undefined, rank: 0 },
    { case: 'listed slots', target: 7, scores: [0.2, 0.8, 0.5], slots: [3, 9, 7], rank: 2 },
    { case: 'absent from the listed slots', target: 4, scores: [0.2, 0.8], slots: [3, 9], rank: 0 },
    { case: 'unmapped slots (−1) are passed over', target: 7, scores: [0.9, 0.5], slots: [-1, 7], rank: 1 },
  ])('$case', ({ target, scores, slots, rank }) => {
    expect(rankOf(target, scores, slots)).toBe(rank);
  });
});

describe('strengthProbes', () => {
  const terms = (title: string): number => title.split(/\s+/).filter(Boolean).length;
  const page = (slot: number, title: string, summary = 'what it says'): { slot: number; title: string; summary: string } => ({ slot, title, summary });

  it('takes only pages with a title of two terms or more and more than a title', () => {
    const pages = [page(0, 'one'), page(1, 'two words'), page(2, 'no summary here', ''), page(3, 'three words here')];
    expect(strengthProbes(pages, terms, 10, 1).map((probe) => probe.slot)).toEqual([1, 3]);
  });

  it('takes none when fewer pages qualify than the minimum (20 unless given): the strength stays unknown', () => {
    const pages = Array.from({ length: 19 }, (_, i) => page(i, `title ${i}`));
    expect(strengthProbes(pages, terms, 50)).toEqual([]);
    expect(strengthProbes([...pages, page(19, 'title 19')], terms, 50)).toHaveLength(20);
    expect(strengthProbes(pages, terms, 50, 19)).toHaveLength(19);
  });

  it('spreads `count` probes evenly over the pages, the same every time', () => {
    const pages = Array.from({ length: 100 }, (_, i) => page(i, `title ${i}`));
    const probes = strengthProbes(pages, terms, 10);
    expect(probes.map((probe) => probe.slot)).toEqual([0, 10, 20, 30, 40, 50, 60, 70, 80, 90]);
    expect(strengthProbes(pages, terms, 10)).toEqual(probes);
  });

  it('takes every page when there are fewer than `count`, and none for count 0', () => {
    const pages = [page(4, 'a b'), page(9, 'c d')];
    expect(strengthProbes(pages, terms, 50, 2).map((probe) => probe.slot)).toEqual([4, 9]);
    expect(strengthProbes(pages, terms, 0, 2)).toEqual([]);
  });
});

describe('semanticStrength', () => {
  const probes: StrengthProbe[] = [0, 1, 2, 3].map((slot) => ({ slot, title: `t${slot}` }));

  it('is the semantic lane’s summed reciprocal rank over the lexical lane’s', async () => {
    const lexical = [1, 1, 2, 1];
    const semantic = [1, 4, 0, 2];
    const strength = await semanticStrength(
      probes,
      (probe) => lexical[probe.slot]!,
      async (probe) => semantic[probe.slot]!,
    );
    expect(strength).toBeCloseTo((1 + 0.25 + 0 + 0.5) / (1 + 1 + 0.5 + 1), 12);
  });

  it('is 1 for a semantic lane as good as the lexical one, undefined when the lexical lane finds nothing or there are no probes', async () => {
    expect(await semanticStrength(probes, () => 2, async () => 2)).toBe(1);
    expect(await semanticStrength(probes, () => 0, async () => 1)).toBeUndefined();
    expect(await semanticStrength([], () => 1, async () => 1)).toBeUndefined();
  });
});
