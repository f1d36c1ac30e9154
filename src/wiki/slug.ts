import anyAscii from 'any-ascii';

// Apart from keys.ts, which the search build worker loads: any-ascii's table is loaded only where a key is made.

/**
 * Turn a title into a key that satisfies the default pattern: lowercase kebab-case ASCII.
 * Latin letters lose their accents (`Häuser der Stadt` → `hauser-der-stadt`); letters of
 * other scripts are transliterated (any-ascii): Chinese characters each as a pinyin syllable
 * without tones (`研究生命起源` → `yan-jiu-sheng-ming-qi-yuan`), kana and Hangul word by
 * word, Cyrillic, Greek, Arabic and others letter by letter (`Москва` → `moskva`), `ß` as `ss`.
 */
export function slugify(title: string): string {
  return title
    .normalize('NFC')
    .replace(WORD, transliterated)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(WORD, (word) => (ASCII.test(word) ? word : anyAscii(word)))
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/g, '');
}

const WORD = /[\p{L}\p{M}\p{N}ー]+/gu;
const ASCII = /^[\x00-\x7f]*$/;
const HAN = /\p{Script=Han}/u;
const LATIN_OR_ASCII = /[\p{Script=Latin}\x00-\x7f]/u;

/**
 * A word with its non-Latin runs transliterated, each set apart by spaces: a Chinese
 * character is a syllable of its own, other runs (kana, Hangul, Cyrillic…) one word each.
 * Latin letters are left for the accent folding that follows.
 */
function transliterated(word: string): string {
  if (ASCII.test(word)) return word;
  let out = '';
  let run = '';
  const flush = (): void => {
    if (run) out += ` ${anyAscii(run)} `;
    run = '';
  };
  for (const char of word) {
    if (HAN.test(char)) {
      flush();
      out += ` ${anyAscii(char)} `;
    } else if (LATIN_OR_ASCII.test(char) || /\p{M}/u.test(char)) {
      flush();
      out += char;
    } else run += char;
  }
  flush();
  return out;
}
