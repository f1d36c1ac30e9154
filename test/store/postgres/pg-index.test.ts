import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { expect, it } from 'vitest';
import { ConfigError } from '../../../src/errors.js';
import { openSearchIndex as openFileIndex, type SearchIndex } from '../../../src/search/index.js';
import { openSearchIndex } from '../../../src/store/open-index.js';
import { Database } from '../../../src/store/postgres/connection.js';
import type { PostgresSearchIndex } from '../../../src/store/postgres/pg-index.js';
import { SCHEMA_VERSION } from '../../../src/store/postgres/schema.js';
import { syncCheckout } from '../../../src/store/postgres/sync.js';
import { readPage } from '../../../src/wiki/page-read.js';
import { contentHash } from '../../../src/search/text/document.js';
import { configWith, pageText, TOPIC_PAGES, workspaceWith, type TestWorkspace } from '../../search/helpers.js';
import { describeWithPostgres, freshDatabase, initialisedDatabase } from '../../helpers/postgres.js';

const pgConfig = (url: string) => configWith({}, { store: { kind: 'postgres', url } });


async function replica(ws: TestWorkspace, url: string): Promise<PostgresSearchIndex> {
  return (await openSearchIndex(ws.root, ws.schema, pgConfig(url), { env: {}, rescanAfterMs: 60_000 })) as PostgresSearchIndex;
}

/** Commit every page of the checkout at `seconds` since the epoch (its stamp). */
function commitAt(ws: TestWorkspace, seconds: number): void {
  const env = { ...process.env, GIT_AUTHOR_DATE: `@${seconds} +0000`, GIT_COMMITTER_DATE: `@${seconds} +0000`, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' };
  execFileSync('git', ['init', '-q'], { cwd: ws.root, env });
  execFileSync('git', ['add', '-A'], { cwd: ws.root, env });
  execFileSync('git', ['commit', '-qm', 'pages', '--allow-empty'], { cwd: ws.root, env });
}

const keysOf = async (index: SearchIndex, query: string, options = {}): Promise<string[]> => (await index.search(query, { limit: 10, ...options })).results.map((r) => r.key);

const PAGE = 'wiki/concepts/sourdough.md';
const hashOf = (text: string | undefined): string | undefined => (text === undefined ? undefined : contentHash(text));

describeWithPostgres('Postgres store: one database, many replicas', () => {
  it('ranks exactly as the file index does: same pages, same scores, same lanes', async () => {
    const url = await initialisedDatabase();
    const ws = await workspaceWith(TOPIC_PAGES);
    const files = await openFileIndex(ws.root, ws.schema, configWith(), { env: {}, persist: false });
    const pg = await replica(ws, url);
    for (const query of ['sourdough starter', 'attention heads', 'bread yeast', 'transformers tokens']) {
      const want = await files.search(query, { limit: 10 });
      const got = await pg.search(query, { limit: 10 });
      expect(got.lanes).toEqual(want.lanes);
      expect(got.results.map((r) => [r.path, r.snippet])).toEqual(want.results.map((r) => [r.path, r.snippet]));
      // Averages summed by the database may differ from the running ones in the last bits.
      got.results.forEach((r, i) => expect(r.score).toBeCloseTo(want.results[i]!.score, 10));
    }
    await files.close();
    await pg.close();
  });

  it('a page written on one replica is found by another, told by the database (no polling)', async () => {
    const url = await initialisedDatabase();
    const first = await replica(await workspaceWith(TOPIC_PAGES), url);
    const secondCheckout = await workspaceWith({});
    const second = await replica(secondCheckout, url);
    expect(await keysOf(second, 'sourdough')).toContain('sourdough');
    const heard = once(second.events, 'applied');
    await first.upsertPage('wiki/concepts/kombucha.md', pageText('Kombucha', 'A fermented tea', 'Kombucha ferments sweet tea with a scoby culture.'));
    const [paths] = (await heard) as [string[]];
    expect(paths).toContain('wiki/concepts/kombucha.md');
    // The second replica's checkout never had the page: it is served from the database's row.
    expect(await keysOf(second, 'kombucha scoby')).toEqual(['kombucha']);
    expect(readPage(secondCheckout.root, 'wiki/concepts/kombucha.md')).toBeUndefined();
    await first.close();
    await second.close();
  });

  it('a replica on an older checkout neither downgrades nor deletes the database’s newer rows', async () => {
    const url = await initialisedDatabase();
    const newer = await workspaceWith({ [PAGE]: pageText('Sourdough bread', 'new', 'Rye sourdough with a hydration of eighty percent.') });
    commitAt(newer, 2_000_000_000);
    const older = await workspaceWith({ [PAGE]: pageText('Sourdough bread', 'old', 'Wheat sourdough, stiff starter.'), 'wiki/concepts/old-only.md': pageText('Old only', 'x', 'Only the old clone has it.') });
    commitAt(older, 1_000_000_000);
    const dbFor = async () => Database.connect(pgConfig(url), {});
    const db = await dbFor();
    expect((await syncCheckout(db, newer.root, newer.schema.contract, 'newer')).accepted).toBe(1);
    // The old clone's version of the page loses; its extra page is added, nothing is deleted.
    expect((await syncCheckout(db, older.root, older.schema.contract, 'older')).accepted).toBe(1);
    await db.close();
    const onOld = await replica(older, url);
    const hit = (await onOld.search('sourdough', { limit: 5 })).results.find((r) => r.key === 'sourdough');
    expect(hit?.summary).toBe('new');
    // The newer clone lacks old-only.md: its sync deletes nothing.
    const db2 = await dbFor();
    await syncCheckout(db2, newer.root, newer.schema.contract, 'newer');
    await db2.close();
    expect(await keysOf(onOld, 'only old clone', { limit: 3 })).toContain('old-only');
    await onOld.close();
  });

  it('a row older than its page is refreshed before it is served', async () => {
    const url = await initialisedDatabase();
    const ws = await workspaceWith(TOPIC_PAGES);
    commitAt(ws, 1_000_000_000);
    const index = await replica(ws, url);
    await ws.write(PAGE, pageText('Sourdough bread', 'Edited here', 'A levain of spelt flour, edited after the commit.'));
    await index.refresh();
    const hit = (await index.search('spelt levain', { limit: 3 })).results[0];
    expect(hit?.summary).toBe('Edited here');
    await index.close();
  });

  it('attack: a caller that checks access never gets a hit whose database version its checkout does not hold', async () => {
    const url = await initialisedDatabase();
    const publicPage = pageText('Sourdough bread', 'Public recipe', 'Sourdough starter and flour.');
    const here = await workspaceWith({ ...TOPIC_PAGES, [PAGE]: publicPage });
    commitAt(here, 1_000_000_000);
    const index = await replica(here, url);
    // Another replica makes the page private, with a secret, later than this checkout's commit.
    const elsewhere = await replica(await workspaceWith({}), url);
    const heard = once(index.events, 'applied');
    await elsewhere.upsertPage(PAGE, pageText('Sourdough bread', 'Secret recipe', 'Sourdough starter: the secret is rye.', { visibility: 'private' }));
    await heard;
    // The MCP tools pass the reader they judge access with: the checkout's public version.
    const checked = await index.search('sourdough starter', { limit: 10, readPage: (p) => readPage(here.root, p) });
    expect(checked.results.map((r) => r.key)).not.toContain('sourdough');
    expect(JSON.stringify(checked)).not.toMatch(/secret/i);
    // ask_wiki's searches pass no reader, only the version of each page they judge access on.
    const asked = await index.search('sourdough starter', { limit: 10, servedVersion: (p) => hashOf(readPage(here.root, p)) });
    expect(asked.results.map((r) => r.key)).not.toContain('sourdough');
    // The owner's own search (no access check) sees the database's newest version.
    const owner = await index.search('sourdough starter', { limit: 10 });
    expect(owner.results.find((r) => r.key === 'sourdough')?.summary).toBe('Secret recipe');
    await index.close();
    await elsewhere.close();
  });

  it('a page deleted through a tool stays deleted against an older checkout still holding it', async () => {
    const url = await initialisedDatabase();
    const ws = await workspaceWith(TOPIC_PAGES);
    commitAt(ws, 1_000_000_000);
    const index = await replica(ws, url);
    await index.removePage(PAGE);
    expect(await keysOf(index, 'sourdough')).not.toContain('sourdough');
    const other = await replica(await workspaceWith(TOPIC_PAGES).then((w) => (commitAt(w, 1_000_000_000), w)), url);
    expect(await keysOf(other, 'sourdough')).not.toContain('sourdough');
    await index.close();
    await other.close();
  });

  it('refuses a database without the schema, naming what to run (exit 2)', async () => {
    const url = await freshDatabase();
    const ws = await workspaceWith({});
    const error = await replica(ws, url).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toMatch(/has no wiki schema/);
    expect((error as ConfigError).hint).toMatch(/wiki store init/);
  });

  it('refuses a schema of another version, naming the migration', async () => {
    const url = await initialisedDatabase();
    const db = await Database.connect(pgConfig(url), {});
    await db.query('UPDATE wiki_schema SET version = 0');
    await db.close();
    const error = await replica(await workspaceWith({}), url).catch((e: unknown) => e);
    expect((error as ConfigError).message).toMatch(new RegExp(`schema version 0, this wiki needs ${SCHEMA_VERSION}`));
    expect((error as ConfigError).hint).toMatch(/wiki store init --rebuild/);
  });

  it('an unreachable database is an error naming it, never the file index instead', async () => {
    const ws = await workspaceWith(TOPIC_PAGES);
    const error = await openSearchIndex(ws.root, ws.schema, pgConfig('postgres://wiki@127.0.0.1:1/wiki'), { env: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).exitCode).toBe(2);
    expect((error as ConfigError).message).toMatch(/^database postgres:\/\/wiki@127\.0\.0\.1:1\/wiki unreachable/);
  });
});
