import { describe, expect, it } from 'vitest';
import { canonicalName, isNearName, singularise } from '../../src/wiki/similarity.js';

describe('singularise', () => {
  it.each([
    ['funds', 'fund'],
    ['policies', 'policy'],
    ['classes', 'class'],
    ['boxes', 'box'],
    ['batches', 'batch'],
    ['analysis', 'analysis'],
    ['corpus', 'corpus'],
    ['class', 'class'],
    ['gas', 'gas'],
  ])('%s → %s', (word, singular) => {
    expect(singularise(word)).toBe(singular);
  });
});

describe('canonicalName', () => {
  it('ignores case, punctuation, accents and plurals', () => {
    expect(canonicalName('Mid-Cap Funds')).toBe(canonicalName('mid-cap-fund'));
    expect(canonicalName('midcap')).toBe(canonicalName('mid_cap'));
    expect(canonicalName('Café Théories')).toBe('cafetheory');
  });
});

describe('canonicalName of look-alike spellings', () => {
  it.each([
    ['Cyrillic look-alikes', 'Ѕеlf-аttеntіоn'],
    ['Cyrillic and Greek mixed in', 'Sеlf-αttentiοn'],
    ['fullwidth', 'Ｓｅｌｆ-ａｔｔｅｎｔｉｏｎ'],
    ['a zero-width space', 'Self-atten\u200btion'],
    ['NFD accents', 'Se\u0301lf-attention'],
  ])('%s read as the Latin title', (_what, spoof) => {
    expect(canonicalName(spoof)).toBe(canonicalName('Self-attention'));
  });

  it('leaves genuine words of other scripts alone: a Russian title never collapses into a few Latin letters', () => {
    // (An empty form is never compared, as before: such titles are told apart by their keys.)
    expect(canonicalName('Сеть внимания')).toBe('');
    expect(canonicalName('Сеть памяти')).toBe('');
    expect(canonicalName('Внимание')).toBe('');
  });
});

describe('isNearName', () => {
  it.each<[string, string, boolean]>([
    ['mid-cap-fund', 'mid-cap-funds', true],
    ['Mid-Cap Fund', 'mid-cap-fund', true],
    ['tokenizer', 'tokeniser', true],
    ['midcap', 'mid-cap', true],
    ['attention-mechanism', 'attention-mechanisms', true],
    ['gpt-3', 'gpt-4', false],
    ['llama-2', 'llama-3', false],
    ['cat', 'car', false],
    ['bert', 'bart', false],
    ['transformer', 'transformer-xl', false],
    ['attention', 'retention', false],
    ['atention', 'attention', true],
    ['transfomer-model', 'transformer-model', true],
    ['model-a', 'model-b', false],
    ['type-i', 'type-ii', false],
    ['phase-one', 'phase-two', false],
    ['tokenizer-model', 'tokeniser-models', true],
    ['tokenizer-model', 'tokeniser-modal', false],
  ])('%s ~ %s is %s', (a, b, near) => {
    expect(isNearName(a, b)).toBe(near);
    expect(isNearName(b, a)).toBe(near);
  });
});
