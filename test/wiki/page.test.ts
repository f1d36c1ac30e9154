import { describe, expect, it } from 'vitest';
import { parseSchema } from '../../src/wiki/schema-loader.js';
import { orderFrontmatter, parsePage, serialisePage, splitFrontmatter } from '../../src/wiki/page.js';
import { readFileSync } from 'node:fs';
import { slugify } from '../../src/wiki/slug.js';

const { contract } = parseSchema(readFileSync(new URL('../../templates/schema.md', import.meta.url), 'utf8'));

const PAGE = `---
title: Scaled dot-product attention
summary: Attention weights from scaled query-key dot products.
type: concept
tags: [attention, transformers]
refs: [multi-head-attention]
sources: [raw/attention.md]
created: 2026-11-21
updated: 2026-11-21
---

Body with [[transformer]] and [[softmax|the softmax]].
`;

describe('parsePage', () => {
  it('reads frontmatter, key, type, body and links', () => {
    const page = parsePage('wiki/concepts/scaled-dot-product-attention.md', PAGE, contract);
    expect(page.key).toBe('scaled-dot-product-attention');
    expect(page.type).toBe('concept');
    expect(page.frontmatter.title).toBe('Scaled dot-product attention');
    expect(page.frontmatter.created).toBe('2026-11-21'); // dates stay strings
    expect(page.links.map((l) => [l.kind, l.target])).toEqual([
      ['ref', 'multi-head-attention'],
      ['inline', 'transformer'],
      ['inline', 'softmax'],
    ]);
    expect(page.links[1]?.line).toBe(12);
    expect(page.parseError).toBeUndefined();
  });

  const typeCases: Array<[string, string, string | undefined]> = [
    ['wiki/sources/a.md', '---\ntitle: A\n---\n', 'source'],
    ['wiki/entities/b.md', '---\ntitle: B\n---\n', 'entity'],
    ['wiki/concepts/c.md', '---\ntype: entity\n---\n', 'entity'],
    ['wiki/other/d.md', '---\ntitle: D\n---\n', undefined],
  ];
  it.each(typeCases)('type of %s', (path, text, type) => {
    expect(parsePage(path, text, contract).type).toBe(type);
  });

  it('records broken YAML and still extracts body links', () => {
    const page = parsePage('wiki/concepts/x.md', '---\ntitle: [unclosed\n---\nsee [[y]]\n', contract);
    expect(page.parseError).toBeTruthy();
    expect(page.links.map((l) => l.target)).toEqual(['y']);
    expect(page.links[0]?.line).toBe(4);
  });

  it('says a YAML error once, at the line of the file the faulty field is on, naming the field', () => {
    const cases: Array<[string, string]> = [
      // An unquoted colon: the parser says "at line 3, column 10", which is the file's line 3.
      ['---\ntitle: A\nsummary: Notes: a summary\ntype: concept\n---\n\nBody.\n', 'line 3, field "summary": '],
      // An unclosed list is noticed on the next line: the field is the one before it.
      ['---\ntitle: A\ntags: [a, b\ntype: concept\n---\nBody.\n', 'line 3, field "tags": '],
      // An unclosed quote is noticed where the text ends: the field is the one that opened it.
      ['---\ntitle: "A\nsummary: s\n---\nBody.\n', 'line 2, field "title": '],
      ['---\ntitle: A\ntitle: B\n---\nBody.\n', 'line 3, field "title": '],
    ];
    for (const [text, start] of cases) {
      const error = parsePage('wiki/concepts/x.md', text, contract).parseError ?? '';
      expect(error.startsWith(start), error).toBe(true);
      expect(error).not.toMatch(/column|at line/);
    }
  });

  it('reports an unclosed frontmatter block', () => {
    expect(parsePage('wiki/concepts/x.md', '---\ntitle: x\nbody [[y]]', contract).parseError).toMatch(/not closed/);
  });

  it('reports a frontmatter that is not a mapping', () => {
    expect(parsePage('wiki/concepts/x.md', '---\n- a\n- b\n---\n', contract).parseError).toMatch(/mapping/);
  });

  it('accepts a page without frontmatter', () => {
    const page = parsePage('wiki/concepts/x.md', '# Just text [[a]]\n', contract);
    expect(page.frontmatter).toEqual({});
    expect(page.parseError).toBeUndefined();
    expect(page.links).toHaveLength(1);
  });

  it('accepts refs written as wikilinks', () => {
    const page = parsePage('wiki/concepts/x.md', '---\nrefs: ["[[a]]", "[[b|B]]", c]\n---\n', contract);
    expect(page.links.map((l) => l.target)).toEqual(['a', 'b', 'c']);
  });
});

describe('serialisePage', () => {
  const roundTrips: Array<{ name: string; text: string }> = [
    { name: 'full page', text: PAGE },
    { name: 'unknown fields kept after known ones', text: '---\ntitle: T\nsummary: S\nauthor: Ada\nyear: 1843\n---\n\nBody.\n' },
    { name: 'empty body', text: '---\ntitle: T\n---\n' },
    { name: 'unicode and quotes', text: '---\ntitle: "Ünïcödé: a \\"quoted\\" title"\nsummary: "日本語"\n---\n\n本文\n' },
  ];
  it.each(roundTrips)('round-trips: $name', ({ text }) => {
    const page = parsePage('wiki/concepts/x.md', text, contract);
    const again = serialisePage(page.frontmatter, page.body);
    const reparsed = parsePage('wiki/concepts/x.md', again, contract);
    expect(reparsed.frontmatter).toEqual(page.frontmatter);
    expect(reparsed.body).toBe(page.body);
    expect(serialisePage(reparsed.frontmatter, reparsed.body)).toBe(again);
  });

  it('writes fields in the stable order with flow lists', () => {
    const text = serialisePage(
      { updated: '2026-01-02', refs: ['b'], extra: 1, title: 'T', summary: 'S', tags: ['x', 'y'] },
      '\nBody\n',
    );
    expect(text).toBe('---\ntitle: T\nsummary: S\ntags: [x, y]\nrefs: [b]\nupdated: 2026-01-02\nextra: 1\n---\n\nBody\n');
  });

  it('orderFrontmatter drops undefined values', () => {
    expect(Object.keys(orderFrontmatter({ b: 1, title: 't', summary: undefined }))).toEqual(['title', 'b']);
  });
});

describe('splitFrontmatter', () => {
  it('handles CRLF and BOM', () => {
    const split = splitFrontmatter('\uFEFF---\r\ntitle: x\r\n---\r\nbody');
    expect(split.yaml).toBe('title: x');
    expect(split.body).toBe('body');
    expect(split.bodyLine).toBe(4);
  });
});

describe('slugify', () => {
  it.each([
    ['Scaled Dot-Product Attention', 'scaled-dot-product-attention'],
    ["Bayes' theorem", 'bayes-theorem'],
    ['Café  au lait!', 'cafe-au-lait'],
    ['  --x--  ', 'x'],
  ])('%s → %s', (title, key) => expect(slugify(title)).toBe(key));
});

describe('fields named like Object.prototype members', () => {
  it.each([['constructor'], ['toString'], ['valueOf'], ['hasOwnProperty'], ['__proto__'], ['isPrototypeOf']])(
    '`%s` survives parse, order and serialise',
    (field) => {
      const text = `---\ntitle: T\nsummary: S\n${field}: kept-value\n---\n\nBody.\n`;
      const page = parsePage('wiki/concepts/t.md', text, contract);
      expect(Object.hasOwn(page.frontmatter, field)).toBe(true);
      const ordered = orderFrontmatter(page.frontmatter);
      expect(Object.hasOwn(ordered, field)).toBe(true);
      const again = parsePage('wiki/concepts/t.md', serialisePage(ordered, page.body), contract);
      expect(again.frontmatter[field]).toBe('kept-value');
    },
  );
});
