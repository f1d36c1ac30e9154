import { describe, expect, it } from 'vitest';
import { pageDocument } from '../../../src/search/text/document.js';
import { LEXICAL_FIELDS } from '../../../src/search/lanes/lexical/lexical.js';
import { analysePage, analysePageIds } from '../../../src/search/text/page-analysis.js';
import { Vocabulary } from '../../../src/search/text/vocabulary.js';
import { TOPIC_PAGES } from '../helpers.js';

describe('analysePageIds (the bulk build’s analysis)', () => {
  const pages: Array<[string, string]> = [
    ...Object.entries(TOPIC_PAGES),
    ['wiki/concepts/odd.md', '---\ntitle: GPT-4o, C++ and C#\ntags: [node.js, Café]\n---\nThe ÉCOLE naïve 注意力机制 x 42 it’s node.js.\n'],
  ];

  it('gives the terms analysePage gives, as ids of one vocabulary', () => {
    const vocabulary = new Vocabulary();
    for (const [path, text] of pages) {
      const doc = pageDocument(path, text);
      const strings = analysePage(doc);
      const ids = analysePageIds(doc, vocabulary);
      const spell = (list: ArrayLike<number>): string[] => Array.from(list, (id) => vocabulary.terms[id] ?? '?');
      const fields = ids.fieldEnds.map((end, f) => spell(ids.terms.subarray(f === 0 ? 0 : ids.fieldEnds[f - 1], end)));
      expect(fields).toEqual(LEXICAL_FIELDS.map((field) => strings.fields[field]));
      expect(new Set(spell(ids.whole))).toEqual(strings.whole);
      expect(ids.embedding.terms).toEqual(strings.embedding.terms);
      expect(ids.embedding.text).toBe(strings.embedding.text);
    }
  });
});
