import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { searchAsModel } from '../../../src/operations/run/model-search.js';
import type { SearchIndex, SearchOptions, SearchResponse } from '../../../src/search/index.js';
import { seededRandom } from '../../../src/search/kernels/linalg.js';
import { PageIndex } from '../../../src/wiki/page-index.js';
import { parsePage } from '../../../src/wiki/page.js';
import { scopeOf } from '../../../src/wiki/access.js';
import { parseSchema } from '../../../src/wiki/schema-loader.js';

const contract = parseSchema(readFileSync(new URL('../../../templates/schema.md', import.meta.url), 'utf8')).contract;

/** A search index that answers nothing and remembers how many hits it was asked for. */
function askedLimits(): { index: SearchIndex; limits: number[] } {
  const limits: number[] = [];
  const index = {
    search: async (query: string, options: SearchOptions = {}): Promise<SearchResponse> => {
      limits.push(options.limit ?? 10);
      return { query, results: [], lanes: { lexical: 'ok', semantic: 'ok', token: 'ok' }, weights: { lexical: 1, semantic: 1.5, token: 0.2 }, semanticWeightFactor: 1 };
    },
    info: () => ({ embedder: undefined }),
  } as unknown as SearchIndex;
  return { index, limits };
}

/** What the model is not shown, counted from scratch: never pages, other users' pages, team pages the user's own shadow. */
function hiddenCount(pages: PageIndex, user: string | undefined): number {
  const all = [...pages.unordered()];
  const own = new Set(all.filter((page) => user !== undefined && scopeOf(page.path) === user).map((page) => page.key));
  return all.filter((page) => {
    if (page.frontmatter.usage_mode === 'never') return true;
    const scope = scopeOf(page.path);
    return scope === undefined ? own.has(page.key) : scope !== user;
  }).length;
}

describe('searchAsModel', () => {
  it('asks for as many more hits as pages are hidden, kept up to date page by page through any sequence of writes', async () => {
    const random = seededRandom(7);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
    const paths = [
      ...Array.from({ length: 12 }, (_, i) => `wiki/concepts/page-${i}.md`),
      ...Array.from({ length: 4 }, (_, i) => `wiki/user/ann/page-${i}.md`),
      ...Array.from({ length: 4 }, (_, i) => `wiki/user/bob/page-${i}.md`),
    ];
    const pages = new PageIndex(contract);
    const { index, limits } = askedLimits();
    for (let step = 0; step < 300; step++) {
      const pagePath = pick(paths);
      if (random() < 0.2) pages.remove(pagePath);
      else pages.upsert(parsePage(pagePath, `---\ntitle: T\nsummary: S\n${random() < 0.3 ? 'usage_mode: never\n' : ''}---\nbody\n`, contract));
      // Several writes between searches, sometimes none.
      if (random() < 0.5) continue;
      const user = pick(['ann', 'bob', undefined]);
      await searchAsModel(index, pages, user, new Map(), 'body', 5);
      expect(limits.at(-1)).toBe(5 + hiddenCount(pages, user));
    }
  });
});
