import { describe, expect, it } from 'vitest';
import { PageIndex } from '../../src/wiki/page-index.js';
import { parsePage } from '../../src/wiki/page.js';
import { contract } from './lint-fixture.js';

const make = (pagePath: string, body = '', fields = 'title: X'): ReturnType<typeof parsePage> =>
  parsePage(pagePath, `---\n${fields}\n---\n${body}\n`, contract);

function sample(): PageIndex {
  return PageIndex.fromPages(
    [
      make('wiki/concepts/transformer.md', 'See [[attention]] and [[transformer]].', 'title: Transformer\nrefs: [bert]'),
      make('wiki/concepts/attention.md', 'Used by [[transformer]].'),
      make('wiki/entities/bert.md', 'Based on [[transformer]] and [[missing-page]].'),
      make('wiki/index.md', '- [[transformer]]'),
    ],
    contract,
  );
}

describe('PageIndex', () => {
  it('maps keys to pages and lists keys sorted', () => {
    const index = sample();
    expect(index.keys()).toEqual(['attention', 'bert', 'index', 'transformer']);
    expect(index.get('bert')?.path).toBe('wiki/entities/bert.md');
    expect(index.has('missing-page')).toBe(false);
    expect(index.pages().map((p) => p.key)).toEqual(['attention', 'transformer', 'bert', 'index']); // by path
  });

  it('knows outgoing links and backlinks (self links excluded from backlinks)', () => {
    const index = sample();
    expect(index.outgoing('transformer')).toEqual(['attention', 'bert', 'transformer']);
    expect(index.backlinks('transformer')).toEqual(['attention', 'bert', 'index']);
    expect(index.backlinks('missing-page')).toEqual(['bert']);
    expect(index.backlinks('attention')).toEqual(['transformer']);
  });

  it('upsert replaces a page in place: old links and names go, new ones arrive', () => {
    const index = sample();
    index.upsert(make('wiki/concepts/attention.md', 'Now links [[bert]] only.'));
    expect(index.backlinks('transformer')).toEqual(['bert', 'index']);
    expect(index.backlinks('bert')).toEqual(['attention', 'transformer']);
    index.upsert(make('wiki/concepts/attention-heads.md', 'x'));
    expect(index.closeMatches('attention-head')).toEqual(['attention-heads']);
  });

  it('remove drops the page, its links and its name', () => {
    const index = sample();
    index.remove('wiki/entities/bert.md');
    expect(index.has('bert')).toBe(false);
    expect(index.backlinks('missing-page')).toEqual([]);
    expect(index.closeMatches('berts')).toEqual([]);
    index.remove('wiki/entities/nothing-here.md'); // unknown paths are ignored
    expect(index.keys()).toEqual(['attention', 'index', 'transformer']);
  });

  it('keeps every path of a duplicated key and returns the first by path', () => {
    const index = sample();
    index.upsert(make('wiki/entities/attention.md', 'dup'));
    expect(index.pathsOf('attention')).toEqual(['wiki/concepts/attention.md', 'wiki/entities/attention.md']);
    expect(index.get('attention')?.path).toBe('wiki/concepts/attention.md');
    index.remove('wiki/concepts/attention.md');
    expect(index.get('attention')?.path).toBe('wiki/entities/attention.md');
    expect(index.closeMatches('attentions')).toEqual(['attention']);
  });

  it('suggests plural/singular and punctuation variants before edit-distance ones, never special pages', () => {
    const index = sample();
    index.upsert(make('wiki/concepts/transformers-xl.md'));
    expect(index.closeMatches('Transformers')).toEqual(['transformer', 'transformers-xl']);
    expect(index.closeMatches('atention')).toEqual(['attention']);
    expect(index.closeMatches('indexes')).toEqual([]);
    expect(index.closeMatches('zzzz-qqqq')).toEqual([]);
    expect(index.closeMatches('transformer', 1)).toEqual(['transformers-xl']);
  });

  it('finds near-identical names and same titles', () => {
    const index = sample();
    index.upsert(make('wiki/concepts/attentions.md', '', 'title: Transformer'));
    expect(index.nearMatches('attention')).toEqual(['attentions']);
    expect(index.nearMatches('attenton')).toEqual(['attention', 'attentions']);
    expect(index.pathsWithTitle('TRANSFORMERS', 'wiki/concepts/transformer.md')).toEqual(['wiki/concepts/attentions.md']);
  });
});
