import { describe, expect, it } from 'vitest';
import { detectLanguage } from '../../../src/search/language/detect.js';
import { pageLanguage } from '../../../src/search/language/page-language.js';

describe('detectLanguage (a page that states no lang)', () => {
  it.each([
    ['de', 'Die Häuser der Stadt wurden im Jahr 1900 gebaut und sind heute noch in gutem Zustand, aber nicht alle.'],
    ['fr', 'Le cheval est un grand mammifère herbivore, et il est une des espèces de la famille des équidés.'],
    ['es', 'La ciudad tiene muchas casas que fueron construidas en el siglo pasado y que todavía están en uso.'],
    ['en', 'The horse is a large animal that has been domesticated for thousands of years and is used in sport.'],
    ['zh', '研究生命起源的科学家认为，生命最早出现在海洋中。'],
    ['ja', '東京は日本の首都です。多くの大学があります。'],
    ['ru', 'Это книга о истории города, которая была написана в прошлом веке и не переведена.'],
    ['el', 'Η Αθήνα είναι η πρωτεύουσα της Ελλάδας.'],
    ['ko', '한국어 위키 문서입니다.'],
  ])('tells %s', (language, text) => {
    expect(detectLanguage(text)).toBe(language);
  });

  it('stays undecided on names, numbers and titles without function words', () => {
    expect(detectLanguage('Preliminary Report-International Algebraic Language')).toBeUndefined();
    expect(detectLanguage('J.E.I.D.A. and Its Computer Center')).toBeUndefined();
    expect(detectLanguage('GPT-4o, BM25, 2016')).toBeUndefined();
    expect(detectLanguage('')).toBeUndefined();
  });

  it('a page’s language: its lang when that is a tag, else detected, else English', () => {
    const german = 'Die Kinder spielen im Garten, und die Eltern sitzen auf der Bank.';
    expect(pageLanguage('fr', 'Titel', '', german)).toBe('fr');
    expect(pageLanguage(undefined, 'Titel', '', german)).toBe('de');
    expect(pageLanguage('not a tag', 'Titel', '', german)).toBe('de');
    expect(pageLanguage(undefined, 'BM25', '', 'GPT-4o')).toBe('en');
  });
});
