import { describe, expect, it } from 'vitest';
import { languageOf, STEMMED_LANGUAGES, stemmerOf, stopwordsOf } from '../../../src/search/language/languages.js';
import { analyze, wholeTerms } from '../../../src/search/text/analyze.js';
import { seededRandom } from '../../../src/search/kernels/linalg.js';

describe('languageOf (a BCP 47 tag → the language search analyses in)', () => {
  it.each([
    ['de', 'de'],
    ['DE', 'de'],
    ['pt-BR', 'pt'],
    ['zh-Hant-TW', 'zh'],
    ['en_GB', 'en'],
    ['nb', 'no'],
    ['cmn', 'zh'],
    [' fr ', 'fr'],
  ])('%j → %s', (tag, code) => {
    expect(languageOf(tag)).toBe(code);
  });

  it.each([['german'], [''], ['d'], ['de:x'], ['../de'], ['de-'], [42], [null], [['de']], ['x'.repeat(10_000)]])('refuses %j (then the page’s language is detected)', (tag) => {
    expect(languageOf(tag)).toBeUndefined();
  });
});

describe('the stemming library', () => {
  it('loads a stemmer and a stopword list for every language it is said to stem', () => {
    expect(STEMMED_LANGUAGES.length).toBeGreaterThanOrEqual(25);
    for (const language of STEMMED_LANGUAGES) {
      if (language === 'en') continue;
      const stem = stemmerOf(language);
      expect(stem, language).toBeTypeOf('function');
      expect(stem?.('test'), language).toBeTypeOf('string');
      expect(stopwordsOf(language).size, language).toBeGreaterThan(0);
      expect(() => analyze('Ein kleiner Text, 42 Wörter.', language), language).not.toThrow();
    }
  });

  it('knows no stemmer for a language it does not stem, and analyses it anyway', () => {
    expect(stemmerOf('pl')).toBeUndefined();
    expect(stemmerOf('en')).toBeUndefined();
    expect(analyze('Dom i domy', 'pl')).toEqual(['pl:dom', 'pl:domy']);
  });
});

describe('hostile text', () => {
  // Letters of many scripts, marks, digits, joiners, emoji, lone surrogates and controls.
  const ALPHABET = ['a', 'Z', 'ä', 'ß', 'é', 'ı', 'İ', 'ё', 'Ж', 'ω', 'ά', 'ש', 'ع', 'َ', 'क', 'ि', 'த', 'ա', 'ก', 'ั', '研', '究', 'が', 'ー', '한', '々', '\u0301', '\u200d', '😀', '\ud800', '\u0000', '1', '.', '-', "'", ' ', '\n'];
  it('no language’s analysis throws or yields an empty or untagged term, whatever the text', () => {
    const random = seededRandom(7);
    for (const language of [...STEMMED_LANGUAGES, 'pl', 'ko', 'th', 'ja', 'zh']) {
      for (let round = 0; round < 40; round++) {
        const text = Array.from({ length: 1 + Math.floor(random() * 60) }, () => ALPHABET[Math.floor(random() * ALPHABET.length)]).join('');
        const terms = analyze(text, language);
        for (const term of terms) {
          if (language === 'en') expect(term.length, JSON.stringify(text)).toBeGreaterThan(0);
          else expect(term.startsWith(`${language}:`) && term.length > language.length + 1, `${language} ${JSON.stringify(text)} → ${term}`).toBe(true);
        }
        expect(() => wholeTerms(text)).not.toThrow();
      }
    }
  });

  it('a huge run of one Chinese character stays linear (one word or pairs, never more terms than characters allow)', () => {
    const text = '研'.repeat(50_000);
    const terms = analyze(text, 'zh');
    expect(terms.length).toBeLessThanOrEqual(2 * 50_000);
  });
});
