import { describe, expect, it } from 'vitest';
import { openSearchIndex, type SearchIndex } from '../../../src/search/index.js';
import { surfacedSearch } from '../../../src/operations/inspect/search.js';
import { seededRandom } from '../../../src/search/kernels/linalg.js';
import { configWith, pageText, workspaceWith } from '../helpers.js';

/**
 * A page's fused score and the order of the best pages must not depend on how many results
 * are asked for: a filter that drops pages after ranking asks the index for more, and the
 * pages it keeps must keep their scores and order. 400 pages over a small shared vocabulary,
 * so every lane scores far more pages than the smallest pool.
 */
const WORDS = 'wing flow boundary layer shock wave heat transfer pressure drag lift vortex turbulent laminar nozzle jet plate cylinder cone mach'.split(' ');

function corpus(pages: number, hidden: (i: number) => boolean): Record<string, string> {
  const random = seededRandom(11);
  const pick = (): string => WORDS[Math.floor(random() * WORDS.length)]!;
  const files: Record<string, string> = {};
  for (let i = 0; i < pages; i++) {
    const body = Array.from({ length: 20 + Math.floor(random() * 60) }, pick).join(' ');
    const extra = hidden(i) ? { usage_mode: 'never' } : {};
    files[`wiki/concepts/page-${i}.md`] = pageText(`${pick()} ${pick()} ${i}`, `${pick()} ${pick()} ${pick()}`, body, extra);
  }
  return files;
}

const top = async (index: SearchIndex, query: string, limit: number, count = 5): Promise<Array<[string, number]>> =>
  (await index.search(query, { limit })).results.slice(0, count).map((r) => [r.key, r.score]);

describe('score fusion does not depend on the limit', () => {
  it('gives the same top five, with the same scores, at limits 5, 10, 50 and 200', async () => {
    const ws = await workspaceWith(corpus(400, () => false));
    const index = await openSearchIndex(ws.root, ws.schema, configWith(), { env: {}, rescanAfterMs: 60_000 });
    for (const query of ['turbulent boundary layer', 'shock wave drag', 'heat', 'mach cone nozzle jet']) {
      const reference = await top(index, query, 5);
      expect(reference).toHaveLength(5);
      for (const limit of [10, 50, 200]) expect(await top(index, query, limit), `${query} at ${limit}`).toEqual(reference);
    }
    await index.close();
  });

  it('keeps the surfaced pages’ scores and order when hidden pages make the search ask for more', async () => {
    const hidden = (i: number): boolean => i % 3 === 0;
    const ws = await workspaceWith(corpus(400, hidden));
    const index = await openSearchIndex(ws.root, ws.schema, configWith(), { env: {}, rescanAfterMs: 60_000 });
    for (const query of ['turbulent boundary layer', 'pressure lift vortex']) {
      const everything = (await index.search(query, { limit: 400 })).results;
      const surfacedOnly = everything.filter((r) => !hidden(Number(r.key.replace('page-', ''))));
      const found = await surfacedSearch(ws.root, ws.schema, index, query, { limit: 10 }, undefined);
      expect(found.results.map((r) => [r.key, r.score])).toEqual(surfacedOnly.slice(0, 10).map((r) => [r.key, r.score]));
    }
    await index.close();
  });
});
