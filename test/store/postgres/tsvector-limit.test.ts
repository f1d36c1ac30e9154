import { expect, it } from 'vitest';
import { Database } from '../../../src/store/postgres/connection.js';
import { lexicalColumns } from '../../../src/store/postgres/pg-lexical.js';
import { tsvectorTerms } from '../../../src/store/postgres/tsvector-limit.js';
import { describeWithPostgres, freshDatabase } from '../../helpers/postgres.js';

/**
 * Postgres builds a tsvector past its 1 MB from an array without complaint, and then
 * matches nothing in it: a page or fact of too many distinct words keeps its first terms.
 */

const manyTerms = (count: number): string[] => Array.from({ length: count }, (_, i) => `word${i.toString(36)}kilnx`);

it('keeps every term of an ordinary text, and of a huge one the first that fit, in order', () => {
  expect(tsvectorTerms(['kiln', 'clay', ''])).toEqual(['kiln', 'clay']);
  expect(tsvectorTerms(['x'.repeat(2000), 'kiln'])).toEqual(['kiln']);
  const kept = tsvectorTerms(manyTerms(400_000));
  expect(kept.length).toBeGreaterThan(40_000);
  expect(kept.length).toBeLessThan(400_000);
  expect(kept[0]).toBe('word0kilnx');
});

it('a page of too many distinct words keeps the terms that fit, in the order the analysers give them', () => {
  const columns = lexicalColumns('wiki/huge.md', `---\ntitle: Kiln\nsummary: huge\n---\n${manyTerms(400_000).join(' ')}\n`);
  const terms = JSON.parse(columns.terms) as string[];
  expect(terms).toContain('kiln');
  expect(terms.length).toBeLessThan(400_000);
});

describeWithPostgres('tsvector size against a real server', () => {
  it('the kept terms make a tsvector that still matches its first and its last term; all of them would match nothing', async () => {
    const db = await Database.connect({ store: { kind: 'postgres', url: await freshDatabase() } }, {});
    const check = async (terms: string[], probe: string): Promise<boolean> => {
      const [row] = await db.query<{ hit: boolean }>(`SELECT array_to_tsvector($1::text[]) @@ quote_literal($2)::tsquery AS hit`, [terms, probe]);
      return row?.hit === true;
    };
    const all = manyTerms(400_000);
    const kept = tsvectorTerms(all);
    expect(await check(kept, kept[0]!)).toBe(true);
    expect(await check(kept, kept.at(-1)!)).toBe(true);
    // What the limit guards against: the whole array is accepted, and then matches nothing.
    expect(await check(all, all[0]!)).toBe(false);
    await db.close();
  });
});
