import type { LexicalParams } from './lexical.js';
import type { LsaOptions } from './lsa.js';

/**
 * Settings below the configuration file: fixed by measurement on the Cranfield collection
 * (see scripts/eval.ts), not meant for users, but overridable so the eval can compare.
 */
export interface SearchTuning {
  lexical: Pick<LexicalParams, 'boosts' | 'd' | 'matchedTermMultiplier'>;
  lsa: Partial<Omit<LsaOptions, 'dimensions'>>;
}

/**
 * Measured on Cranfield (lexical lane alone, nDCG@10): BM25+'s d = 0.5 cost 0.004–0.008
 * against d = 0; a summary boost of 0.5 beat 1 (a summary repeats the body's opening);
 * a title boost of 2 beat 1 and 3; dropping MiniSearch's matched-term multiplier cost
 * 0.003, so it stays. Key and tags are unjudged there (the test pages have neither): the
 * key is a slug of the title and gets the title's boost, tags sit between summary and title.
 */
export const DEFAULT_TUNING: SearchTuning = {
  lexical: {
    boosts: { key: 2, title: 2, summary: 0.5, tags: 1.5, body: 1 },
    d: 0,
    matchedTermMultiplier: true,
  },
  lsa: {},
};

export function withTuning(overrides: Partial<SearchTuning> | undefined): SearchTuning {
  return {
    lexical: { ...DEFAULT_TUNING.lexical, ...overrides?.lexical },
    lsa: { ...DEFAULT_TUNING.lsa, ...overrides?.lsa },
  };
}
