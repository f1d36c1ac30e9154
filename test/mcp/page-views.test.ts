import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { keyRefusal, listPages, pageDetail, summarisePage } from '../../src/mcp/page-views.js';
import { ServedPages } from '../../src/wiki/served-pages.js';
import { PageIndex } from '../../src/wiki/page-index.js';
import { parsePage, type Page } from '../../src/wiki/page.js';
import { parseSchema } from '../../src/wiki/schema-loader.js';

const contract = parseSchema(readFileSync(new URL('../../templates/schema.md', import.meta.url), 'utf8')).contract;

const page = (pagePath: string, fields: string, body = ''): Page => parsePage(pagePath, `---\n${fields}\n---\n${body}\n`, contract);

const PAGES: Page[] = [
  page('wiki/concepts/attention.md', 'title: Attention\nsummary: Weighing tokens\ntags: [ML, core]\nrefs: [transformer]', 'See [[softmax]] and [[transformer#Layers|the model]].'),
  page('wiki/concepts/softmax.md', 'title: Softmax\nsummary: Normalised exponentials\ntags: ml', 'Used by [[attention]].'),
  page('wiki/entities/transformer.md', 'title: Transformer\nsummary: A model\ntype: entity', 'Built on [[attention]].'),
  page('wiki/entities/attention.md', 'title: Attention (the band)\nsummary: A duplicate key'),
  page('wiki/sources/paper.md', 'title: 1234\nsummary: 5\ntags: [paper]'),
  page('wiki/concepts/broken.md', 'title: [unclosed', 'Links [[attention]].'),
  page('wiki/index.md', 'title: Index', '- [[attention]]'),
  page('wiki/log.md', 'title: Log'),
];
const all = PageIndex.fromPages(PAGES, contract);
/** Every page seen with no cap: what the wiki's own tools see. */
const index = new ServedPages(all, contract, {});

describe('summarisePage', () => {
  it('takes title, summary and tags from the frontmatter and the type from it or the folder', () => {
    expect(summarisePage(PAGES[1]!)).toEqual({
      key: 'softmax',
      path: 'wiki/concepts/softmax.md',
      title: 'Softmax',
      summary: 'Normalised exponentials',
      type: 'concept',
      tags: ['ml'],
    });
  });

  it('gives null for missing or unreadable fields and turns numbers into text', () => {
    expect(summarisePage(PAGES[4]!)).toMatchObject({ title: '1234', summary: '5', type: 'source' });
    expect(summarisePage(PAGES[5]!)).toMatchObject({ title: null, summary: null, type: 'concept', tags: [] });
  });
});

describe('pageDetail', () => {
  it('lists each outgoing key once, marks the missing ones, and collects backlinks', () => {
    const detail = pageDetail(index.get('attention')!, index);
    expect(detail.links).toEqual(['softmax', 'transformer']);
    expect(detail.missingLinks).toEqual([]);
    expect(detail.backlinks).toEqual(['broken', 'index', 'softmax', 'transformer']);
    expect(detail.body).toBe('See [[softmax]] and [[transformer#Layers|the model]].\n');
    expect(detail.frontmatter).toEqual({ title: 'Attention', summary: 'Weighing tokens', tags: ['ML', 'core'], refs: ['transformer'] });
  });

  it('names the other paths of a duplicated key and a frontmatter that does not parse', () => {
    expect(pageDetail(index.get('attention')!, index).duplicatePaths).toEqual(['wiki/entities/attention.md']);
    expect(pageDetail(index.get('softmax')!, index)).not.toHaveProperty('duplicatePaths');
    expect(pageDetail(index.get('broken')!, index).frontmatterError).toBeTruthy();
    expect(pageDetail(index.get('softmax')!, index)).not.toHaveProperty('frontmatterError');
  });

  it('reports links to pages that do not exist', () => {
    const lonely = page('wiki/concepts/lonely.md', 'title: Lonely', '[[nowhere]] and [[softmax]]');
    const detail = pageDetail(lonely, new ServedPages(PageIndex.fromPages([...PAGES, lonely], contract), contract, {}));
    expect(detail.links).toEqual(['nowhere', 'softmax']);
    expect(detail.missingLinks).toEqual(['nowhere']);
    expect(detail.backlinks).toEqual([]);
  });
});

describe('listPages', () => {
  const keysOf = (query: Partial<Parameters<typeof listPages>[2]>): string[] =>
    listPages(index.pages(), contract, { limit: 100, offset: 0, ...query }).pages.map((p) => p.path);

  it('leaves out the index and log and keeps path order', () => {
    expect(keysOf({})).toEqual([
      'wiki/concepts/attention.md',
      'wiki/concepts/broken.md',
      'wiki/concepts/softmax.md',
      'wiki/entities/attention.md',
      'wiki/entities/transformer.md',
      'wiki/sources/paper.md',
    ]);
  });

  it.each([
    { query: { type: 'entity' }, paths: ['wiki/entities/attention.md', 'wiki/entities/transformer.md'] },
    { query: { tag: 'ml' }, paths: ['wiki/concepts/attention.md', 'wiki/concepts/softmax.md'] },
    { query: { tag: ' ML ' }, paths: ['wiki/concepts/attention.md', 'wiki/concepts/softmax.md'] },
    { query: { type: 'source', tag: 'ml' }, paths: [] },
  ])('filters by $query', ({ query, paths }) => {
    expect(keysOf(query)).toEqual(paths);
  });

  it.each([
    { limit: 4, offset: 0, paths: 4, nextOffset: 4 },
    { limit: 4, offset: 4, paths: 2, nextOffset: null },
    { limit: 6, offset: 0, paths: 6, nextOffset: null },
    { limit: 3, offset: 10, paths: 0, nextOffset: null },
  ])('windows with limit $limit from offset $offset', ({ limit, offset, paths, nextOffset }) => {
    const list = listPages(index.pages(), contract, { limit, offset });
    expect(list).toMatchObject({ total: 6, limit, offset, nextOffset });
    expect(list.pages).toHaveLength(paths);
  });
});

describe('keyRefusal', () => {
  it.each(['attention', 'scaled-dot-product-attention', 'Attention', 'a_b', 'x.y'])('accepts %j', (key) => {
    expect(keyRefusal(key)).toBeUndefined();
  });

  it.each([
    { key: '', reason: /key is empty/ },
    { key: '   ', reason: /key is empty/ },
    { key: 'a\u0000b', reason: /control characters/ },
    { key: 'line\nbreak', reason: /control characters/ },
    { key: '.env', reason: /not a path$/ },
    { key: '.env.local', reason: /not a path$/ },
    { key: '../secret', reason: /not a path$/ },
    { key: '..', reason: /not a path$/ },
    { key: 'wiki/concepts/attention.md', reason: /did you mean the key `attention`/ },
    { key: 'wiki\\concepts\\attention', reason: /did you mean the key `attention`/ },
    { key: 'attention.md', reason: /did you mean the key `attention`/ },
    { key: '/etc/passwd', reason: /not a path$/ },
    { key: '/etc/attention', reason: /not a path$/ },
    { key: '../../raw/attention.md', reason: /not a path$/ },
    { key: 'wiki/concepts/hidden-plan.md', reason: /not a path$/ },
  ])('refuses $key', ({ key, reason }) => {
    // The caller sees `attention` (and `passwd`, to show a path outside wiki/ never suggests it); `hidden-plan` is withheld.
    expect(keyRefusal(key, (candidate) => candidate === 'attention' || candidate === 'passwd')).toMatch(reason);
  });
});
