import { describe, expect, it } from 'vitest';
import { CorruptIndexError, encodeJson } from '../../../src/search/kernels/binary.js';
import { DocTable } from '../../../src/search/live/doc-table.js';
import { pageDocument } from '../../../src/search/text/document.js';

const GERMAN = '---\ntitle: Häuser\nlang: de\n---\nDie Häuser der Stadt.\n';
const FRENCH = '---\ntitle: Chevaux\nlang: fr-CA\n---\nLes chevaux.\n';
const ENGLISH = '---\ntitle: Houses\n---\nThe houses of the town.\n';

function table(): DocTable {
  const docs = new DocTable();
  docs.insert(pageDocument('wiki/concepts/haus.md', GERMAN), { mtimeMs: 1, size: 1 }, 1);
  docs.insert(pageDocument('wiki/concepts/cheval.md', FRENCH), { mtimeMs: 1, size: 1 }, 1);
  docs.insert(pageDocument('wiki/concepts/house.md', ENGLISH), { mtimeMs: 1, size: 1 }, 1);
  return docs;
}

describe('the languages a page table holds (what a query is analysed in)', () => {
  it('counts each page’s language, as written or detected', () => {
    expect(table().languages()).toEqual(['de', 'en', 'fr']);
  });

  it('drops a language with its last page, and follows a page whose lang changed', () => {
    const docs = table();
    docs.remove('wiki/concepts/cheval.md');
    expect(docs.languages()).toEqual(['de', 'en']);
    docs.insert(pageDocument('wiki/concepts/haus.md', GERMAN.replace('lang: de', 'lang: en')), { mtimeMs: 2, size: 1 }, 2);
    expect(docs.languages()).toEqual(['en']);
  });

  it('is saved with the table and read back without reading the pages; compaction keeps it', () => {
    const docs = table();
    docs.remove('wiki/concepts/house.md');
    const loaded = DocTable.decode(docs.encode());
    expect(loaded.languages()).toEqual(['de', 'fr']);
    expect(loaded.get('wiki/concepts/haus.md')?.lang).toBe('de');
    loaded.remove('wiki/concepts/haus.md');
    loaded.compact(loaded.compactionMap());
    expect(loaded.languages()).toEqual(['fr']);
  });

  it.each([
    ['missing', undefined],
    ['not an object', encodeJson(['de'])],
    ['a count that is no whole number', encodeJson({ de: 1.5, en: 1, fr: 0.5 })],
    ['counts that do not add up to the pages', encodeJson({ de: 1, en: 1 })],
    ['a negative count', encodeJson({ de: -1, en: 3, fr: 1 })],
  ])('a saved index whose languages are %s is corrupt (and rebuilt), never trusted', (_what, section) => {
    const sections = table().encode();
    if (section === undefined) delete sections['languages'];
    else sections['languages'] = section;
    expect(() => DocTable.decode(sections)).toThrow(CorruptIndexError);
  });

  it('a crafted lang is no language: the page is analysed in the language of its words', () => {
    for (const lang of ['de:evil', '../../fr', '"de"', 'x'.repeat(5000), '[de]', '42']) {
      const doc = pageDocument('wiki/concepts/x.md', `---\ntitle: Haus\nlang: ${JSON.stringify(lang)}\n---\nDie Häuser der Stadt sind alt, und sie stehen an der Straße.\n`);
      expect(doc.lang, lang).toBe('de');
    }
    const list = pageDocument('wiki/concepts/x.md', '---\ntitle: Houses\nlang: [de, fr]\n---\nThe houses of the town are old and they stand by the road.\n');
    expect(list.lang).toBe('en');
  });
});
