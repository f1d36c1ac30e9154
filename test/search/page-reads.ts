import type * as ReadPageModule from '../../src/wiki/page-read.js';

/**
 * `page-read.js` with every page read counted by path, for a `vi.mock` factory: the reads
 * themselves are the real ones, so a test can say how often a search read each page.
 */
export function withCountedReads(actual: typeof ReadPageModule, reads: Map<string, number>): typeof ReadPageModule {
  return {
    ...actual,
    readPage: (root: string, pagePath: string): string | undefined => {
      reads.set(pagePath, (reads.get(pagePath) ?? 0) + 1);
      return actual.readPage(root, pagePath);
    },
  };
}
