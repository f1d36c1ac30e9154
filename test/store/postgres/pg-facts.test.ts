import { expect, it } from 'vitest';
import { factId, normalizeFact } from '../../../src/facts/normalize.js';
import { retrieveFacts } from '../../../src/operations/query/query-facts.js';
import { Database } from '../../../src/store/postgres/connection.js';
import { offerSourceVersions, type SourceVersion, type StatedFact } from '../../../src/store/postgres/fact-rows.js';
import { bm25Scores } from '../../../src/store/postgres/fact-terms.js';
import { PostgresFactReader } from '../../../src/store/postgres/pg-facts.js';
import { checkSchema, initSchema, SCHEMA_VERSION } from '../../../src/store/postgres/schema.js';
import { DROP_FACTS_SQL } from '../../../src/store/postgres/schema-facts.js';
import { describeWithPostgres, freshDatabase } from '../../helpers/postgres.js';

/**
 * The database's facts: which offered version of a source wins (whatever the order or the
 * race), what a deletion tombstones, and what a reader never returns.
 */

async function database(): Promise<Database> {
  const db = await Database.connect({ store: { kind: 'postgres', url: await freshDatabase() } }, {});
  await initSchema(db);
  return db;
}

function stated(texts: readonly string[]): StatedFact[] {
  return texts.map((text, i) => ({ id: factId(normalizeFact(text)), text, lineStart: i + 3, lineEnd: i + 3, heading: '' }));
}

function version(path: string, sha256: string | null, stamp: number, texts: readonly string[] = []): SourceVersion {
  return { path, sha256, stamp, language: sha256 === null ? null : 'en', facts: stated(texts) };
}

const texts = async (reader: PostgresFactReader, query: string): Promise<string[]> => (await reader.search(query, 10)).map((hit) => hit.text);

describeWithPostgres('Postgres facts: versions, tombstones, access', () => {
  it('a database made before the facts’ tables is that older version, with the migration named, not a database without a schema', async () => {
    const db = await database();
    await db.query(`${DROP_FACTS_SQL}; UPDATE wiki_schema SET version = 1`);
    const refused = await checkSchema(db).catch((error: unknown) => error as Error & { hint?: string });
    expect(refused?.message).toMatch(new RegExp(`has wiki schema version 1, this wiki needs ${SCHEMA_VERSION}`));
    expect(refused?.hint).toMatch(/wiki store init --rebuild/);
    await initSchema(db, { rebuild: true });
    await checkSchema(db);
    expect(await offerSourceVersions(db, [version('raw/x.md', 'aaaa', 1, ['Kiln fires at dawn.'])], 'w')).toEqual(['raw/x.md']);
    await db.close();
  });

  it('settles on the same version whatever order two replicas offer equal stamps in, and when they race', async () => {
    for (const order of [0, 1, 2]) {
      const db = await database();
      const a = version('raw/x.md', 'aaaa', 1000, ['Kiln fires at dawn.']);
      const b = version('raw/x.md', 'bbbb', 1000, ['Kiln cools at dusk.']);
      if (order === 0) for (const v of [a, b]) await offerSourceVersions(db, [v], 'w');
      else if (order === 1) for (const v of [b, a]) await offerSourceVersions(db, [v], 'w');
      else await Promise.all([offerSourceVersions(db, [a], 'one'), offerSourceVersions(db, [b], 'two')]);
      const reader = new PostgresFactReader(db, [], false);
      expect(await texts(reader, 'kiln'), `order ${order}`).toEqual(['Kiln cools at dusk.']);
      const [row] = await db.query<{ sha256: string }>('SELECT sha256 FROM wiki_fact_sources');
      expect(row?.sha256).toBe('bbbb');
      await db.close();
    }
  });

  it('replaces a version only with a newer one; a rebuild redoes the same version, never a lesser one', async () => {
    const db = await database();
    const reader = new PostgresFactReader(db, [], false);
    expect(await offerSourceVersions(db, [version('raw/x.md', 'bbbb', 2000, ['Kiln fires at dawn.'])], 'w')).toEqual(['raw/x.md']);
    expect(await offerSourceVersions(db, [version('raw/x.md', 'cccc', 1999, ['Kiln cools at dusk.'])], 'w')).toEqual([]);
    expect(await offerSourceVersions(db, [version('raw/x.md', 'aaaa', 2000, ['Kiln cools at dusk.'])], 'w', { sameStampReplaces: true })).toEqual([]);
    expect(await offerSourceVersions(db, [version('raw/x.md', 'bbbb', 2000, ['Kiln fires at noon.'])], 'w')).toEqual([]);
    expect(await texts(reader, 'kiln')).toEqual(['Kiln fires at dawn.']);
    // The same version extracted anew (another facts.grain): `wiki facts rebuild` replaces it.
    expect(await offerSourceVersions(db, [version('raw/x.md', 'bbbb', 2000, ['Kiln fires at noon.'])], 'w', { sameStampReplaces: true })).toEqual(['raw/x.md']);
    expect(await texts(reader, 'kiln')).toEqual(['Kiln fires at noon.']);
    expect(await reader.stats()).toMatchObject({ facts: 2, live: 1, tombstoned: 1, sources: 1 });
    await db.close();
  });

  it('a deletion older than the stored version is refused; a newer one tombstones the facts no other source states', async () => {
    const db = await database();
    const reader = new PostgresFactReader(db, [], false);
    await offerSourceVersions(db, [version('raw/x.md', 'aaaa', 2000, ['Kiln fires at dawn.', 'Clay dries slowly.']), version('raw/y.md', 'bbbb', 2000, ['Clay dries slowly.'])], 'w');
    expect(await offerSourceVersions(db, [version('raw/x.md', null, 1500)], 'old clone')).toEqual([]);
    expect(await texts(reader, 'kiln')).toEqual(['Kiln fires at dawn.']);
    expect(await offerSourceVersions(db, [version('raw/x.md', null, 2500)], 'rm')).toEqual(['raw/x.md']);
    expect(await texts(reader, 'kiln')).toEqual([]);
    const [clay] = await reader.search('clay', 10);
    expect(clay).toMatchObject({ text: 'Clay dries slowly.', sources: ['raw/y.md#L3'] });
    const kiln = await reader.get(factId(normalizeFact('Kiln fires at dawn.')));
    expect(kiln?.tombstonedAt).not.toBeNull();
    expect(await reader.stats()).toMatchObject({ live: 1, tombstoned: 1, sources: 1 });
    await db.close();
  });

  it('never returns a fact from a source this wiki denies, whoever wrote it, by search, by source or by id', async () => {
    const db = await database();
    // Written by a clone of an older version, or by hand: a key file and a source sandbox.deny names.
    await offerSourceVersions(db, [version('raw/server.pem', 'aaaa', 1, ['Kiln password is hunter2.']), version('raw/payroll.md', 'bbbb', 1, ['Kiln staff earn ninety.'])], 'w');
    await offerSourceVersions(db, [version('raw/kiln.md', 'cccc', 1, ['Kiln fires at dawn.'])], 'w');
    const reader = new PostgresFactReader(db, ['payroll*'], false);
    expect(await texts(reader, 'kiln password hunter2 staff earn ninety dawn')).toEqual(['Kiln fires at dawn.']);
    expect(await reader.factsOfSources(['raw/server.pem', 'raw/payroll.md'])).toEqual([]);
    expect(await reader.get(factId(normalizeFact('Kiln password is hunter2.')))).toBeUndefined();
    // The same rows through a reader that does not deny payroll*: only the built-in list applies.
    expect(await texts(new PostgresFactReader(db, [], false), 'staff earn ninety')).toEqual(['Kiln staff earn ninety.']);
    await db.close();
  });

  it('keeps a denied source’s tombstones hidden too: `facts show` of one is as absent as the live fact was', async () => {
    const db = await database();
    await offerSourceVersions(db, [version('raw/payroll.md', 'aaaa', 1, ['Kiln staff earn ninety.'])], 'w');
    await offerSourceVersions(db, [version('raw/payroll.md', null, 2)], 'rm');
    const id = factId(normalizeFact('Kiln staff earn ninety.'));
    expect(await new PostgresFactReader(db, ['payroll*'], false).get(id)).toBeUndefined();
    expect(await new PostgresFactReader(db, [], false).get(id)).toMatchObject({ text: 'Kiln staff earn ninety.', tombstonedAt: expect.any(String), provenance: [] });
    await db.close();
  });

  it('a fact stated by a denied and an allowed source is found with the allowed place only', async () => {
    const db = await database();
    await offerSourceVersions(db, [version('raw/payroll.md', 'aaaa', 1, ['Kiln fires at dawn.']), version('raw/kiln.md', 'bbbb', 1, ['Kiln fires at dawn.'])], 'w');
    const [hit] = await new PostgresFactReader(db, ['payroll*'], false).search('kiln', 10);
    expect(hit?.sources).toEqual(['raw/kiln.md#L3']);
    await db.close();
  });

  it('reads any query as words, never as tsquery syntax', async () => {
    const db = await database();
    await offerSourceVersions(db, [version('raw/kiln.md', 'aaaa', 1, ["O'Neil fires the kiln at dawn."])], 'w');
    const reader = new PostgresFactReader(db, [], false);
    for (const query of ["o'neil", 'kiln & !dawn', 'kiln:* | (dawn', '\\ <-> kiln', "'')) OR 1=1 --"]) {
      expect(await reader.search(query, 5), query).toEqual(expect.any(Array));
    }
    expect(await texts(reader, 'kiln & !dawn')).toEqual(["O'Neil fires the kiln at dawn."]);
    await db.close();
  });

  it('takes a source of thousands of facts in one version', async () => {
    const db = await database();
    const many = Array.from({ length: 5000 }, (_, i) => `Kiln number ${i} fires at ${i % 24} o'clock.`);
    expect(await offerSourceVersions(db, [version('raw/big.md', 'aaaa', 1, many)], 'w')).toEqual(['raw/big.md']);
    const reader = new PostgresFactReader(db, [], false);
    expect(await reader.stats()).toMatchObject({ live: 5000, sources: 1 });
    expect((await reader.search('kiln 4321', 3)).map((hit) => hit.sources)).toEqual([['raw/big.md#L4324'], expect.any(Array), expect.any(Array)]);
    expect((await texts(reader, '4321'))[0]).toBe("Kiln number 4321 fires at 1 o'clock.");
    await db.close();
  });

  it('takes one enormous fact (a source with no full stop in 400,000 distinct words, 5 MB) without failing the write', async () => {
    const db = await database();
    const words = Array.from({ length: 400_000 }, (_, i) => `word${i.toString(36)}kilnx`);
    const huge = `Kiln ${words.join(' ')} ends here.`;
    expect(await offerSourceVersions(db, [version('raw/huge.md', 'aaaa', 1, [huge, 'Clay dries slowly.'])], 'w')).toEqual(['raw/huge.md']);
    const reader = new PostgresFactReader(db, [], false);
    expect((await reader.search('kiln', 5)).map((hit) => hit.sources)).toEqual([['raw/huge.md#L3']]);
    expect(await texts(reader, 'clay')).toEqual(['Clay dries slowly.']);
    await db.close();
  });

  it('feeds query --facts: the database’s BM25 fused with the facts of the pages’ sources', async () => {
    const db = await database();
    await offerSourceVersions(db, [version('raw/kiln.md', 'aaaa', 1, ['Kiln fires at dawn.', 'Glaze melts in the kiln.']), version('raw/clay.md', 'bbbb', 1, ['Clay dries slowly before firing.'])], 'w');
    const reader = new PostgresFactReader(db, [], false);
    const facts = await retrieveFacts(reader, 'when does the kiln fire clay?', ['raw/clay.md'], 10);
    expect(facts.map((fact) => fact.text)).toEqual(expect.arrayContaining(['Kiln fires at dawn.', 'Clay dries slowly before firing.']));
    expect(await retrieveFacts(reader, 'submarine periscope', ['raw/clay.md'], 10)).toEqual([]);
    await db.close();
  });
});

it('scores as FTS5 does: a term in most facts weighs 1e-6, never less than nothing', () => {
  const facts: { counts: Record<string, number>; length: number }[] = [
    { counts: { kiln: 1 }, length: 4 },
    { counts: { kiln: 1 }, length: 4 },
    { counts: { kiln: 1, dawn: 1 }, length: 4 },
  ];
  const scores = bm25Scores(facts, ['kiln', 'dawn'], 3, 4);
  expect(scores[0]).toBeCloseTo(1e-6, 9);
  expect(scores[2]).toBeGreaterThan(scores[0]!);
  // Fewer facts hold "dawn" among more: idf ln((N − n + ½)/(n + ½)).
  expect(bm25Scores([{ counts: { dawn: 1 }, length: 4 }], ['dawn'], 10, 4)[0]).toBeCloseTo(Math.log(9.5 / 1.5), 9);
});
