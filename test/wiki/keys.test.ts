import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { keyFromPath } from '../../src/wiki/keys.js';
import { slugify } from '../../src/wiki/slug.js';

describe('keyFromPath', () => {
  const cases = ['wiki/concepts/attention.md', 'attention.md', 'wiki/a.md.md', 'wiki/.md', '.md', 'wiki/notes.txt', 'wiki/dir/', 'wiki/x.MD', '', 'wiki/user/ann/scratch.md', 'a\\b.md'];
  it.each(cases)('is the file name without .md, as path.posix.basename gives it: %j', (pagePath) => {
    expect(keyFromPath(pagePath)).toBe(path.posix.basename(pagePath, '.md'));
  });
});

describe('slugify (the key a title gets, as the key pattern allows: lowercase kebab-case ASCII)', () => {
  const KEY_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;
  it.each([
    ['Scaled dot-product attention', 'scaled-dot-product-attention'],
    ['GPT-4o and C++', 'gpt-4o-and-c'],
    ['Häuser der Stadt', 'hauser-der-stadt'],
    ['Straße', 'strasse'],
    ['Œuvre d’art', 'oeuvre-dart'],
    ['研究生命起源', 'yan-jiu-sheng-ming-qi-yuan'],
    ['研究生', 'yan-jiu-sheng'],
    ['東京の研究生', 'dong-jing-no-yan-jiu-sheng'],
    ['がくせい', 'gakusei'],
    ['한국어 위키', 'hangugeo-wiki'],
    ['Москва', 'moskva'],
    ['Ελληνικά', 'ellinika'],
    ['Transformer 模型', 'transformer-mo-xing'],
  ])('%s → %s', (title, key) => {
    expect(slugify(title)).toBe(key);
    expect(key).toMatch(KEY_PATTERN);
  });

  it('never yields a key outside the pattern, whatever the title (symbols and emoji drop out; nothing left is "")', () => {
    for (const title of ['😀', '—', '', '🙂 émoji', '\u0000x', 'ǂ', '研'.repeat(100), 'a\u0301b']) {
      const key = slugify(title);
      expect(key === '' || KEY_PATTERN.test(key), `${title} → ${key}`).toBe(true);
      expect(key.length).toBeLessThanOrEqual(80);
    }
  });
});
