import { expect, it } from 'vitest';
import { LexicalLane } from '../../../src/search/lanes/lexical/lexical.js';
import { DEFAULT_TUNING } from '../../../src/search/fusion/tuning.js';
import { analyzeQuery } from '../../../src/search/text/analyze.js';
import { pageDocument } from '../../../src/search/text/document.js';
import { analysePage } from '../../../src/search/text/page-analysis.js';
import { Database } from '../../../src/store/postgres/connection.js';
import { offerVersions } from '../../../src/store/postgres/page-rows.js';
import { PostgresLexical, anyTermQuery, lexicalColumns } from '../../../src/store/postgres/pg-lexical.js';
import { initSchema } from '../../../src/store/postgres/schema.js';
import { contentHash } from '../../../src/search/text/document.js';
import { configWith, pageText } from '../../search/helpers.js';
import { describeWithPostgres, freshDatabase } from '../../helpers/postgres.js';

const PAGES: Record<string, string> = {
  'wiki/tokyo.md': pageText('東京の地下鉄', '東京メトロと都営地下鉄', '東京の地下鉄は毎日多くの人を運ぶ。'),
  'wiki/berlin.md': pageText('Berliner U-Bahn', 'Die Untergrundbahn in Berlin', 'Die U-Bahn fährt unter der Stadt; Straßenbahnen fahren oben.'),
  'wiki/metro.md': pageText('Metro systems', 'Underground railways of big cities', 'A metro is an underground railway; Tokyo and Berlin run large ones.'),
  'wiki/bread.md': pageText('Sourdough bread', 'Bread from a starter', 'Flour, water and a wild yeast starter.'),
};

const params = { k1: 1.2, b: 0.75, ...DEFAULT_TUNING.lexical };

describeWithPostgres('the lexical lane on Postgres full-text search', () => {
  it('finds pages by the terms this project’s analysers make, CJK and German alike, and scores them as the in-process lane does', async () => {
    const db = await Database.connect(configWith({}, { store: { kind: 'postgres', url: await freshDatabase() } }), {});
    await initSchema(db);
    const versions = Object.entries(PAGES).map(([path, content]) => ({ path, content, hash: contentHash(content), visibility: 'public', stamp: 1 }));
    const { lastSeq } = await offerVersions(db, versions, 'test');
    const lane = LexicalLane.empty();
    const paths = Object.keys(PAGES);
    for (const path of paths) lane.add(path, analysePage(pageDocument(path, PAGES[path]!)).fields);
    const directory = { slotOf: (path: string) => paths.indexOf(path), pathAt: (slot: number) => paths[slot] };
    const onPostgres = new PostgresLexical(db, () => lastSeq);
    for (const query of ['東京 地下鉄', 'Straßenbahnen fahren', 'underground railway', 'wild yeast', 'nothing-like-this']) {
      // As the engine does: the query analysed in every language the wiki's pages are in.
      const terms = analyzeQuery(query, ['de', 'en', 'ja']);
      // The database's full-text index finds the pages holding the analysed terms, as written.
      const held = await db.query<{ path: string }>('SELECT path FROM wiki_pages WHERE terms @@ $1::tsquery ORDER BY path', [anyTermQuery(terms)]);
      const want = lane.scoreSlots(terms, params, directory);
      const got = await onPostgres.scoreSlots(terms, params, directory);
      const byPath = (r: { slots: Int32Array; scores: Float64Array }): Record<string, number> =>
        Object.fromEntries(Array.from(r.slots, (slot, i): [string, number] => [paths[slot]!, r.scores[i]!]).sort(([a], [b]) => a.localeCompare(b)));
      expect(Object.keys(byPath(got))).toEqual(held.map((r) => r.path));
      expect(Object.keys(byPath(got))).toEqual(Object.keys(byPath(want)));
      for (const [path, score] of Object.entries(byPath(want))) expect(byPath(got)[path]).toBeCloseTo(score, 10);
    }
    const tokyo = await onPostgres.scoreSlots(analyzeQuery('東京', ['ja']), params, directory);
    expect(Array.from(tokyo.slots, (slot) => paths[slot])).toContain('wiki/tokyo.md');
    await db.close();
  });

  it('a term with quotes or backslashes is a lexeme, never tsquery syntax', async () => {
    const db = await Database.connect(configWith({}, { store: { kind: 'postgres', url: await freshDatabase() } }), {});
    const rows = await db.query<{ q: string }>('SELECT $1::tsquery::text AS q', [anyTermQuery(["it's", 'a\\b', '!', '&', 'x|y'])]);
    expect(rows[0]?.q).toBe(`'it''s' | 'a\\\\b' | '!' | '&' | 'x|y'`);
    await db.close();
  });
});

it("stores a page without `lang` in the wiki's language, as the file index reads it (it was read as English whatever the wiki's language)", () => {
  // Too short for its language to show: the wiki's decides, as in the file index.
  const page = pageText('Haus', 'Häuser', 'Stadt Häuser Straßen');
  const german = JSON.parse(lexicalColumns('wiki/haus.md', page, 'de').terms) as string[];
  const asFileIndex = new Set(Object.values(analysePage(pageDocument('wiki/haus.md', page, 'de')).fields).flat());
  expect(new Set(german)).toEqual(asFileIndex);
  expect(german).not.toEqual(JSON.parse(lexicalColumns('wiki/haus.md', page).terms));
});
