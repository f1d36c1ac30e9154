import { describe, expect, it } from 'vitest';
import { pageDocument } from '../../../src/search/text/document.js';
import { analysePageIds } from '../../../src/search/text/page-analysis.js';
import { analyseBatch, mergeBatch, type MergedPage } from '../../../src/search/build/page-batch.js';
import { readPage } from '../../../src/wiki/page-read.js';
import { Vocabulary } from '../../../src/search/text/vocabulary.js';
import { TOPIC_PAGES, pageText, workspaceWith } from '../helpers.js';

const PAGES: Record<string, string> = {
  ...TOPIC_PAGES,
  'wiki/concepts/gpt-4o.md': pageText('GPT-4o and C++ bindings', 'Compounds: gpt-4o, c++, c#', 'Calls gpt-4o from C++ via node.js; see [[attention]].'),
  'wiki/concepts/cjk.md': pageText('注意力机制', '自注意力', 'Transformer 的注意力机制 (Aufmerksamkeit, café).'),
};

interface Analysed {
  terms: number[];
  fieldEnds: number[];
  whole: number[];
  title: string;
  links: string[];
}

const plain = (page: { terms: ArrayLike<number>; fieldEnds: readonly number[]; whole: ArrayLike<number> }, doc: { title: string; links: string[] }): Analysed => ({
  terms: Array.from(page.terms),
  fieldEnds: [...page.fieldEnds],
  whole: Array.from(page.whole),
  title: doc.title,
  links: doc.links,
});

describe('page batches: analysis on another thread merges to the one-thread result', () => {
  it.each([0, 1, 4, 'all'] as const)('pages split after %s analyse to the same ids, in the same vocabulary order', async (at) => {
    const ws = await workspaceWith(PAGES);
    const paths = Object.keys(PAGES);
    const split = at === 'all' ? paths.length : at;

    const alone = new Vocabulary();
    const expected = paths.map((p) => {
      const doc = pageDocument(p, readPage(ws.root, p) ?? '');
      return plain(analysePageIds(doc, alone), doc);
    });

    const shared = new Vocabulary();
    const got: Analysed[] = paths.slice(0, split).map((p) => {
      const doc = pageDocument(p, readPage(ws.root, p) ?? '');
      return plain(analysePageIds(doc, shared), doc);
    });
    const merged = mergeBatch(analyseBatch(ws.root, paths.slice(split), false, 'en'), shared);
    for (const { page } of merged) got.push(plain(page, page.doc));

    expect(got).toEqual(expected);
    expect(shared.terms).toEqual(alone.terms);
  });

  it('keeps what the index shows of a page and drops its body; the text only when asked', async () => {
    const ws = await workspaceWith(PAGES);
    const p = 'wiki/concepts/attention.md';
    const [withText] = mergeBatch(analyseBatch(ws.root, [p], true, 'en'), new Vocabulary());
    const [without] = mergeBatch(analyseBatch(ws.root, [p], false, 'en'), new Vocabulary());
    const doc = pageDocument(p, readPage(ws.root, p) ?? '');
    expect(withText?.page.doc).toEqual({ ...doc, body: '' });
    expect(withText?.page.text).toMatch(/^Scaled dot-product attention\n/);
    expect(withText?.page.text).toContain('softmax over query');
    expect(without?.page.text).toBe('');
  });

  it('skips a page that vanished since the scan, and says which input each page was', async () => {
    const ws = await workspaceWith(PAGES);
    const batch = analyseBatch(ws.root, ['wiki/concepts/gone.md', 'wiki/concepts/sourdough.md'], false, 'en');
    expect(batch.docs[0]).toBeNull();
    const merged: Array<{ at: number; page: MergedPage }> = mergeBatch(batch, new Vocabulary());
    expect(merged.map(({ at, page }) => [at, page.doc.key])).toEqual([[1, 'sourdough']]);
  });
});
