import { readPage } from '../../../src/wiki/page-read.js';
import { contentHash } from '../../../src/search/text/document.js';
import { expect, it } from 'vitest';
import { ConfigError } from '../../../src/errors.js';
import { engineSetup, openSearchIndex as openFileIndex, type SearchIndex } from '../../../src/search/index.js';
import type { SearchTuning } from '../../../src/search/fusion/tuning.js';
import { servedSearch } from '../../../src/mcp/served-search.js';
import { openSearchIndex } from '../../../src/store/open-index.js';
import { Database } from '../../../src/store/postgres/connection.js';
import { PostgresSearchIndex } from '../../../src/store/postgres/pg-index.js';
import { initSchema } from '../../../src/store/postgres/schema.js';
import { checkVectors, describeVectors, ensureVectorIndex, prepareVectors } from '../../../src/store/postgres/schema-vectors.js';
import { capRank } from '../../../src/wiki/access.js';
import { PageIndex } from '../../../src/wiki/page-index.js';
import { loadPages } from '../../../src/wiki/pages.js';
import { ServedPages } from '../../../src/wiki/served-pages.js';
import { configWith, FACETED_PAGES, pageText, TOPIC_PAGES, workspaceWith, type TestWorkspace } from '../../search/helpers.js';
import { describeWithPglite, pgliteDatabase } from '../../helpers/pglite.js';
import { describeWithPostgres, freshDatabase } from '../../helpers/postgres.js';

const pgConfig = (url: string, vectors?: string) => configWith({}, { store: { kind: 'postgres', url, ...(vectors ? { vectors } : {}) } });
const PAGES = { ...TOPIC_PAGES, ...FACETED_PAGES };
const QUERIES = ['sourdough starter', 'attention heads', 'bread yeast', 'telescope orbit', 'glider thermals', 'infrared universe'];

/** An index over `db` (already initialised) for `ws`, as `openSearchIndex` makes one. */
async function indexOver(db: Database, ws: TestWorkspace, tuning: Partial<SearchTuning> = {}, config = configWith()): Promise<PostgresSearchIndex> {
  const { semanticSetup, params } = engineSetup(ws.root, config, { env: {}, tuning });
  return PostgresSearchIndex.open({ root: ws.root, contract: ws.schema.contract, params, db, vectors: await checkVectors(db), semantic: semanticSetup, rescanAfterMs: 60_000 });
}

/** Results as compared across the two paths: page, fused score, and the semantic lane's rank and share. */
async function answers(index: SearchIndex, query: string): Promise<Array<[string, number, number | undefined, number | undefined]>> {
  const { results, lanes } = await index.search(query, { limit: 10 });
  expect(lanes.semantic).toBe('ok');
  return results.map((r) => [r.path, r.score, r.lanes.semantic, r.contributions?.semantic]);
}

function expectSameAnswers(got: Awaited<ReturnType<typeof answers>>, want: Awaited<ReturnType<typeof answers>>): void {
  expect(got.map(([p, , rank]) => [p, rank])).toEqual(want.map(([p, , rank]) => [p, rank]));
  // pgvector sums a cosine in single precision: the same to about seven digits.
  got.forEach(([, score, , share], i) => {
    expect(score).toBeCloseTo(want[i]![1], 5);
    expect(share ?? 0).toBeCloseTo(want[i]![3] ?? 0, 5);
  });
}

it('status names where the vectors are ranked, and why arrays', () => {
  expect(describeVectors('pgvector')).toBe('pgvector');
  expect(describeVectors('arrays', 'auto', false)).toBe('arrays (no pgvector on this server)');
  expect(describeVectors('arrays', 'arrays', true)).toBe('arrays (store.vectors is arrays)');
  expect(describeVectors('arrays', 'auto', true)).toMatch(/^arrays \(the server has pgvector now: `wiki store init --rebuild`/);
});

describeWithPostgres('the semantic lane’s vectors in Postgres without pgvector (arrays)', () => {
  it('init keeps vectors as arrays on a server without pgvector, and says so', async () => {
    const db = await Database.connect(pgConfig(await freshDatabase()), {});
    expect((await initSchema(db)).vectors).toBe('arrays');
    expect(await checkVectors(db, 'auto')).toBe('arrays');
    await db.close();
  });

  it('a configuration asking for pgvector on a server without it is an error naming what to install (exit 2)', async () => {
    const db = await Database.connect(pgConfig(await freshDatabase()), {});
    const refused = await prepareVectors(db, 'pgvector').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ConfigError);
    expect(String((refused as ConfigError).message)).toMatch(/has no pgvector/);
    expect((refused as ConfigError).hint).toMatch(/apt install postgresql-\d+-pgvector/);
    // Nothing was made: the set-up stops before the tables.
    expect(await db.query("SELECT 1 FROM pg_tables WHERE tablename = 'wiki_pages'")).toEqual([]);
    await initSchema(db);
    await expect(checkVectors(db, 'pgvector')).rejects.toThrow(/has no pgvector/);
    await db.close();
  });

  it('every page’s vector is a row of real[] equal to the engine’s, and the ranking is the file index’s', async () => {
    const url = await freshDatabase();
    const db = await Database.connect(pgConfig(url), {});
    await initSchema(db);
    const ws = await workspaceWith(PAGES);
    const files = await openFileIndex(ws.root, ws.schema, configWith(), { env: {}, persist: false });
    const pg = (await openSearchIndex(ws.root, ws.schema, pgConfig(url), { env: {}, rescanAfterMs: 60_000 })) as PostgresSearchIndex;
    const rows = await db.query<{ path: string; embedding: number[]; dims: number }>('SELECT path, embedding, dims FROM wiki_vectors');
    expect(rows.map((r) => r.path).sort()).toEqual(Object.keys(PAGES).sort());
    const lane = (pg as unknown as { engine: { semantic: { lane: { pageVector(slot: number): Float32Array } }; docs: { slotOf(p: string): number } } }).engine;
    for (const row of rows) expect(Float32Array.from(row.embedding)).toEqual(lane.semantic.lane.pageVector(lane.docs.slotOf(row.path)));
    for (const query of QUERIES) expectSameAnswers(await answers(pg, query), await answers(files, query));
    // A page deleted by a tool takes its vector with it.
    await pg.removePage('wiki/concepts/sourdough.md');
    expect(await db.query("SELECT 1 FROM wiki_vectors WHERE path = 'wiki/concepts/sourdough.md'")).toEqual([]);
    await files.close();
    await pg.close();
    await db.close();
  });
});

describeWithPglite('the semantic lane’s vectors in pgvector (PGlite’s vector extension)', () => {
  it('init creates the extension and a vector column; writing vectors makes their HNSW index', async () => {
    const db = await pgliteDatabase();
    expect((await initSchema(db)).vectors).toBe('pgvector');
    expect(await checkVectors(db, 'pgvector')).toBe('pgvector');
    const ws = await workspaceWith(PAGES);
    const index = await indexOver(db, ws);
    const [{ n } = { n: -1 }] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM wiki_vectors');
    expect(n).toBe(Object.keys(PAGES).length);
    const indexes = await db.query<{ indexdef: string }>("SELECT indexdef FROM pg_indexes WHERE tablename = 'wiki_vectors' AND indexdef LIKE '%hnsw%'");
    expect(indexes.map((i) => i.indexdef).join()).toMatch(/hnsw.*vector_cosine_ops.*WHERE \(dims = \d+\)/);
    await index.close();
  }, 60_000);

  it('a role that may not create the extension is told to ask the database owner (exit 2), not given arrays unasked', async () => {
    const db = await pgliteDatabase();
    await db.query('CREATE ROLE plain; GRANT ALL ON SCHEMA public TO plain; SET ROLE plain');
    const refused = await prepareVectors(db, 'auto').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ConfigError);
    expect((refused as ConfigError).message).toMatch(/could not create the vector extension in pglite:\/\/memory: permission denied/);
    expect((refused as ConfigError).hint).toMatch(/CREATE EXTENSION vector;.*store\.vectors arrays/);
    expect(await prepareVectors(db, 'arrays')).toBe('arrays');
    await db.close();
  }, 60_000);

  for (const fusion of ['scores', 'rrf'] as const) {
    it(`ranks by SQL and answers as the arrays in the process do (${fusion} fusion)`, async () => {
      const db = await pgliteDatabase();
      await initSchema(db);
      const ws = await workspaceWith(PAGES);
      const files = await openFileIndex(ws.root, ws.schema, configWith(), { env: {}, persist: false, tuning: { fusion } });
      const pg = await indexOver(db, ws, { fusion });
      for (const query of QUERIES) expectSameAnswers(await answers(pg, query), await answers(files, query));
      // The database does the ranking: a vector changed there changes the answer.
      const query = 'glider thermals';
      const before = await answers(pg, query);
      const top = before[0]![0];
      await db.query("UPDATE wiki_vectors SET embedding = (SELECT embedding FROM wiki_vectors WHERE path = 'wiki/concepts/sourdough-history.md') WHERE path = $1", [top]);
      const after = await answers(pg, query);
      expect(after.find(([p]) => p === top)?.[3] ?? 0).not.toBeCloseTo(before[0]![3] ?? 0, 3);
      await files.close();
      await pg.close();
    }, 60_000);
  }

  it('attack: vectors the database holds for pages this process does not (another text, a private page) never become hits', async () => {
    const db = await pgliteDatabase();
    await initSchema(db);
    const ws = await workspaceWith(PAGES);
    const pg = await indexOver(db, ws);
    const [model] = await db.query<{ model: string; embedding: string }>("SELECT model, embedding::text FROM wiki_vectors WHERE path = 'wiki/concepts/glider-history.md'");
    // A crafted row: a page no row of wiki_pages holds, under the model in use, with the best vector there is for the query.
    await db.query("INSERT INTO wiki_vectors (path, model, content_hash, dims, embedding) SELECT 'wiki/concepts/forged.md', model, 'x', dims, embedding FROM wiki_vectors WHERE path = 'wiki/concepts/glider-history.md'");
    // A stale row: the vector of another text of a page this process holds.
    await db.query("UPDATE wiki_vectors SET content_hash = 'older' WHERE path = 'wiki/concepts/glider-practice.md'");
    expect(model).toBeDefined();
    // A row whose vector is shorter than it claims: the HNSW index refuses it; without the index, the ranking passes over it.
    const crafted = "INSERT INTO wiki_vectors (path, model, content_hash, dims, embedding) SELECT 'wiki/concepts/short.md', model, 'x', dims, '[1,0,0]' FROM wiki_vectors LIMIT 1";
    await expect(db.query(crafted)).rejects.toThrow(/dimensions/);
    await db.query("DO $$ DECLARE i text; BEGIN FOR i IN SELECT indexname FROM pg_indexes WHERE tablename = 'wiki_vectors' AND indexname LIKE 'wiki_vectors_hnsw_%' LOOP EXECUTE 'DROP INDEX ' || i; END LOOP; END $$");
    await db.query(crafted);
    const keys = (await pg.search('glider thermals', { limit: 30 })).results.map((r) => r.key);
    expect(keys).not.toContain('forged');
    // The stale row was found short and written again: the page ranks by its own vector.
    expect(await db.query("SELECT 1 FROM wiki_vectors WHERE path = 'wiki/concepts/glider-practice.md' AND content_hash = 'older'")).toEqual([]);
    await pg.close();
  }, 60_000);

  it('attack: a private page is never served above its cap, however the database ranks it', async () => {
    const db = await pgliteDatabase();
    await initSchema(db);
    const secret = pageText('Glider thermals secret', 'Private notes on glider thermals', 'glider thermals soaring wings lift pilot ridge: the secret field.', { visibility: 'private' });
    const ws = await workspaceWith({ ...PAGES, 'wiki/concepts/glider-secret.md': secret });
    const pg = await indexOver(db, ws);
    const owner = (await pg.search('glider thermals', { limit: 10 })).results.map((r) => r.key);
    expect(owner).toContain('glider-secret');
    const pages = PageIndex.fromPages(await loadPages(ws.root, ws.schema.contract), ws.schema.contract);
    const served = new ServedPages(pages, ws.schema.contract, { maxRank: capRank(ws.schema.contract, 'public') });
    // The replica serves its checkout's pages: each judged, and served, at its file's version.
    const fileVersion = (pagePath: string): string | undefined => {
      const text = readPage(ws.root, pagePath);
      return text === undefined ? undefined : contentHash(text);
    };
    const answer = await servedSearch(pg, served, 'glider thermals', 10, { servedVersion: fileVersion });
    expect(answer.results.length).toBeGreaterThan(0);
    expect(answer.results.map((r) => r.key)).not.toContain('glider-secret');
    expect(JSON.stringify(answer)).not.toMatch(/secret/i);
    await pg.close();
  }, 60_000);

  it('replicas embedding with different models share the database, each ranked only by its own model’s vectors', async () => {
    const db = await pgliteDatabase();
    await initSchema(db);
    const ws = await workspaceWith(PAGES);
    // Another training seed: another model of as many dimensions, whose vectors only the dims filter would not tell apart.
    const reseeded = { lsa: { seed: 7 } };
    const [one, other] = [await indexOver(db, ws), await indexOver(db, ws, reseeded)];
    const models = await db.query<{ dims: number; n: number }>('SELECT dims, count(*)::int AS n FROM wiki_vectors GROUP BY model, dims');
    expect(models.map((m) => m.n)).toEqual([Object.keys(PAGES).length, Object.keys(PAGES).length]);
    expect(models[0]!.dims).toBe(models[1]!.dims);
    const filesOne = await openFileIndex(ws.root, ws.schema, configWith(), { env: {}, persist: false });
    const filesOther = await openFileIndex(ws.root, ws.schema, configWith(), { env: {}, persist: false, tuning: reseeded });
    for (const query of QUERIES) {
      expectSameAnswers(await answers(one, query), await answers(filesOne, query));
      expectSameAnswers(await answers(other, query), await answers(filesOther, query));
    }
    await Promise.all([filesOne.close(), filesOther.close()]);
    await other.close().catch(() => undefined);
    await one.close().catch(() => undefined);
  }, 90_000);

  it('vectors wider than HNSW indexes (2,000 dimensions) are kept and ranked without an index', async () => {
    const db = await pgliteDatabase();
    await initSchema(db);
    await expect(ensureVectorIndex(db, 3072)).resolves.toBeUndefined();
    const unit = (at: number): string => `[${Array.from({ length: 3072 }, (_, i) => (i === at ? 1 : 0)).join(',')}]`;
    await db.query("INSERT INTO wiki_vectors (path, model, content_hash, dims, embedding) VALUES ('a', 'm', 'h', 3072, $1::vector), ('b', 'm', 'h', 3072, $2::vector)", [unit(0), unit(1)]);
    const rows = await db.query<{ path: string; similarity: number }>('SELECT path, 1 - (embedding <=> $1::vector) AS similarity FROM wiki_vectors ORDER BY path', [unit(0)]);
    expect(rows).toEqual([
      { path: 'a', similarity: 1 },
      { path: 'b', similarity: 0 },
    ]);
    await db.close();
  }, 60_000);
});
