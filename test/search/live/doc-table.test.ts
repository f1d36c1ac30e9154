import { describe, expect, it } from 'vitest';
import { DocTable } from '../../../src/search/live/doc-table.js';
import { pageDocument } from '../../../src/search/text/document.js';

const PAGES: Array<[string, string]> = [
  ['wiki/concepts/a.md', '---\ntitle: Alpha\nsummary: First page.\ntags: [x, y]\nrefs: [b]\n---\nSee [[c]].\n'],
  ['wiki/concepts/b.md', '---\ntitle: Bravo\n---\nLinks to [[a]] and [[c]].\n'],
  ['wiki/concepts/c.md', '# Charlie\nNo links, “quotes” and \\ backslashes.\n'],
  ['wiki/concepts/d.md', '---\ntitle: Delta\n---\nSee [[a]], [[a]] again and [[d]] itself.\n'],
];

function table(): DocTable {
  const docs = new DocTable();
  PAGES.forEach(([path, text], i) => docs.insert(pageDocument(path, text), { mtimeMs: 1000 + i, size: text.length }, 5000 + i));
  return docs;
}

const plain = (docs: DocTable): unknown[] => [...docs.records()].map((record) => ({ ...record }));

describe('DocTable persistence', () => {
  it('reads back every record, stat and backlink', () => {
    const original = table();
    const loaded = DocTable.decode(original.encode());
    expect(plain(loaded)).toEqual(plain(original));
    for (const key of ['a', 'b', 'c', 'd', 'missing']) expect(loaded.backlinks(key)).toEqual(original.backlinks(key));
    expect(loaded.backlinks('a')).toEqual(['b', 'd']);
  });

  it('finds backlinks in a loaded table by searching the links column, not fooled by a quote inside a link', () => {
    const docs = table();
    docs.insert(pageDocument('wiki/concepts/q.md', '---\ntitle: Quotes\nrefs: [\'x"a\', \'b\\c\']\n---\nbody\n'), { mtimeMs: 1, size: 1 }, 1);
    const loaded = DocTable.decode(docs.encode());
    expect(loaded.get('wiki/concepts/q.md')?.links).toEqual(['x"a', 'b\\c']);
    expect(loaded.backlinks('a')).toEqual(['b', 'd']);
    expect(loaded.backlinks('x"a')).toEqual(['q']);
    expect(loaded.backlinks('b\\c')).toEqual(['q']);
  });

  it('keeps text beyond ASCII byte-exact, whether a row is written anew or copied from a loaded table', () => {
    const unicode: Array<[string, string]> = [
      ['wiki/concepts/cafe.md', '---\ntitle: Café crème\nsummary: “Smart” quotes — and dashes\ntags: [naïve, 注意力]\n---\nSee [[über-page]].\n'],
      ['wiki/concepts/zh.md', '---\ntitle: 注意力机制\nsummary: 自注意力 😀 emoji\n---\nLinks to [[cafe]] and [[über-page]].\n'],
    ];
    const docs = table();
    unicode.forEach(([path, text], i) => docs.insert(pageDocument(path, text), { mtimeMs: 10 + i, size: text.length }, 20 + i));
    const loaded = DocTable.decode(docs.encode());
    expect(plain(loaded)).toEqual(plain(docs));
    // Loaded rows are copied as bytes, new ones written from text: the offsets must agree.
    loaded.insert(pageDocument('wiki/concepts/ü.md', '---\ntitle: Ü\n---\n[[注意力]] and [[cafe]]\n'), { mtimeMs: 1, size: 1 }, 1);
    const again = DocTable.decode(loaded.encode());
    expect(plain(again)).toEqual(plain(loaded));
    expect(again.get('wiki/concepts/zh.md')).toMatchObject({ title: '注意力机制', summary: '自注意力 😀 emoji' });
    expect(again.backlinks('über-page')).toEqual(['cafe', 'zh']);
    expect(again.backlinks('cafe')).toEqual(['zh', 'ü']);
  });

  it('answers paths and stats of a loaded table without making records, and records on demand', () => {
    const loaded = DocTable.decode(table().encode());
    expect(loaded.pathAt(2)).toBe('wiki/concepts/c.md');
    expect(loaded.stampOf('wiki/concepts/b.md')).toEqual({ mtimeMs: 1001, size: PAGES[1]?.[1].length, seenAt: 5001 });
    expect([...loaded.paths()]).toEqual(PAGES.map(([path]) => path));
    expect(loaded.get('wiki/concepts/a.md')).toMatchObject({ slot: 0, key: 'a', title: 'Alpha', tags: ['x', 'y'], links: ['b', 'c'] });
    expect(loaded.at(9)).toBeUndefined();
    expect(loaded.isLive(3)).toBe(true);
  });

  it('keeps changes made after loading, whether or not a record was read, through compaction and another save', () => {
    const loaded = DocTable.decode(table().encode());
    loaded.backlinks('a');
    loaded.backlinks('a'); // the second call builds the link index, which changes must keep up to date
    loaded.touch('wiki/concepts/c.md', { mtimeMs: 7, size: 8 }, 9);
    expect(loaded.remove('wiki/concepts/b.md')).toBe(1);
    expect(loaded.isLive(1)).toBe(false);
    expect(loaded.pathAt(1)).toBeUndefined();
    const slot = loaded.insert(pageDocument('wiki/concepts/e.md', '# Echo\n[[a]]\n'), { mtimeMs: 1, size: 2 }, 3);
    expect(slot).toBe(4);
    // A page's stamp from its record (touched, inserted) or from the columns (never read), and none for a page gone.
    expect(loaded.stampOf('wiki/concepts/c.md')).toEqual({ mtimeMs: 7, size: 8, seenAt: 9 });
    expect(loaded.stampOf('wiki/concepts/e.md')).toEqual({ mtimeMs: 1, size: 2, seenAt: 3 });
    expect(loaded.stampOf('wiki/concepts/d.md')).toEqual({ mtimeMs: 1003, size: PAGES[3]?.[1].length, seenAt: 5003 });
    expect(loaded.stampOf('wiki/concepts/b.md')).toBeUndefined();
    expect(loaded.backlinks('a')).toEqual(['d', 'e']);
    loaded.compact(loaded.compactionMap());
    const again = DocTable.decode(loaded.encode());
    expect([...again.paths()]).toEqual(['wiki/concepts/a.md', 'wiki/concepts/c.md', 'wiki/concepts/d.md', 'wiki/concepts/e.md']);
    expect(again.stampOf('wiki/concepts/c.md')).toEqual({ mtimeMs: 7, size: 8, seenAt: 9 });
    expect(again.get('wiki/concepts/e.md')?.slot).toBe(3);
    expect(again.backlinks('a')).toEqual(['d', 'e']);
  });
});
