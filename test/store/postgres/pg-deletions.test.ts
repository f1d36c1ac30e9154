import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import type { SearchIndex } from '../../../src/search/index.js';
import { openSearchIndex } from '../../../src/store/open-index.js';
import { Database } from '../../../src/store/postgres/connection.js';
import type { PostgresSearchIndex } from '../../../src/store/postgres/pg-index.js';
import { syncCheckout } from '../../../src/store/postgres/sync.js';
import { loadSchema } from '../../../src/wiki/schema-loader.js';
import { configWith, pageText, TOPIC_PAGES, workspaceWith, type TestWorkspace } from '../../search/helpers.js';
import { describeWithPostgres, initialisedDatabase } from '../../helpers/postgres.js';

/**
 * A deletion reaches the database only when a checkout can prove it newer than the
 * database's version: its history holds the commit that deleted the page, made after the
 * row's stamp. A checkout that merely lacks a page — an older clone, a file removed and not
 * committed — deletes nothing.
 */
const pgConfig = (url: string) => configWith({}, { store: { kind: 'postgres', url } });
const PAGE = 'wiki/concepts/sourdough.md';
const T1 = 1_000_000_000;
const T2 = 1_100_000_000;

function gitAt(root: string, seconds: number, args: string[]): void {
  const env = { ...process.env, GIT_AUTHOR_DATE: `@${seconds} +0000`, GIT_COMMITTER_DATE: `@${seconds} +0000`, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' };
  execFileSync('git', args, { cwd: root, env, stdio: 'pipe' });
}

/** The workspace's pages committed at `seconds` (a repository made on first use). */
function commitAllAt(ws: TestWorkspace, seconds: number, message = 'pages'): void {
  gitAt(ws.root, seconds, ['init', '-q']);
  gitAt(ws.root, seconds, ['add', '-A']);
  gitAt(ws.root, seconds, ['commit', '-qm', message, '--allow-empty']);
}

/** A clone of `origin` as it is now: another machine's checkout. */
async function cloneOf(origin: TestWorkspace): Promise<TestWorkspace> {
  const root = path.join(await mkdtemp(path.join(os.tmpdir(), 'wiki-clone-')), 'wiki');
  execFileSync('git', ['clone', '-q', origin.root, root], { stdio: 'pipe' });
  return { root, schema: await loadSchema(root), write: origin.write, remove: (pagePath) => rm(path.join(root, pagePath)) };
}


const replica = async (ws: TestWorkspace, url: string): Promise<PostgresSearchIndex> =>
  (await openSearchIndex(ws.root, ws.schema, pgConfig(url), { env: {}, rescanAfterMs: 60_000 })) as PostgresSearchIndex;

const keysOf = async (index: SearchIndex, query: string): Promise<string[]> => (await index.search(query, { limit: 10 })).results.map((r) => r.key);

/** Resolves once `replica` has folded in a database write of `pagePath`. */
async function applied(replica: PostgresSearchIndex, pagePath: string): Promise<void> {
  for (;;) {
    const [paths] = (await once(replica.events, 'applied')) as [string[]];
    if (paths.includes(pagePath)) return;
  }
}

async function rowOf(url: string, pagePath: string): Promise<{ content: string | null; stamp: string } | undefined> {
  const db = await Database.connect(pgConfig(url), {});
  const [row] = await db.query<{ content: string | null; stamp: string }>('SELECT content, stamp FROM wiki_pages WHERE path = $1', [pagePath]);
  await db.close();
  return row;
}

describeWithPostgres('deletions reach the database when a checkout proves them newer', () => {
  it('a page deleted by a commit and pulled by one replica leaves every replica’s search; the older copies never bring it back', async () => {
    const url = await initialisedDatabase();
    const origin = await workspaceWith(TOPIC_PAGES);
    commitAllAt(origin, T1);
    const [a, b] = [await cloneOf(origin), await cloneOf(origin)];
    const onA = await replica(a, url);
    const onB = await replica(b, url);
    expect(await keysOf(onB, 'sourdough')).toContain('sourdough');
    gitAt(origin.root, T2, ['rm', '-q', PAGE]);
    gitAt(origin.root, T2, ['commit', '-qm', 'delete sourdough']);
    gitAt(a.root, T2, ['pull', '-q']);
    const heard = applied(onB, PAGE);
    await onA.refresh();
    await heard;
    expect(await rowOf(url, PAGE)).toEqual({ content: null, stamp: String(T2 * 1000) });
    expect(await keysOf(onB, 'sourdough')).not.toContain('sourdough');
    expect(onB.rowAt(PAGE)).toMatchObject({ content: null });
    // B has not pulled: its copy, committed before the deletion, never undoes it.
    await onB.refresh();
    expect(await keysOf(onB, 'sourdough bread')).not.toContain('sourdough');
    await onA.close();
    await onB.close();
  });

  it('attack: a clone older than the page, a clone whose deletion predates the page’s re-creation, and a removal not committed delete nothing', async () => {
    const url = await initialisedDatabase();
    const origin = await workspaceWith(TOPIC_PAGES);
    commitAllAt(origin, T1);
    const older = await cloneOf(origin);
    // The page is deleted at T2, and later written again on another machine (a tool write, stamped now).
    const deletedEarlier = await cloneOf(origin);
    gitAt(deletedEarlier.root, T2, ['rm', '-q', PAGE]);
    gitAt(deletedEarlier.root, T2, ['commit', '-qm', 'delete sourdough']);
    await origin.write('wiki/concepts/kombucha.md', pageText('Kombucha', 'A fermented tea', 'Kombucha ferments sweet tea with a scoby.'));
    commitAllAt(origin, T2, 'kombucha');
    const newer = await cloneOf(origin);
    const onNewer = await replica(newer, url);
    await onNewer.upsertPage(PAGE, pageText('Sourdough bread', 'Written again', 'Sourdough with a rye levain, written again.'));
    // The older clone lacks kombucha (it never had it); its sync and its replica delete nothing.
    const db = await Database.connect(pgConfig(url), {});
    expect(await syncCheckout(db, older.root, older.schema.contract, 'older')).toMatchObject({ deleted: 0 });
    expect(await syncCheckout(db, deletedEarlier.root, deletedEarlier.schema.contract, 'deleted-earlier')).toMatchObject({ deleted: 0 });
    const onOlder = await replica(older, url);
    await onOlder.refresh();
    const onDeletedEarlier = await replica(deletedEarlier, url);
    await onDeletedEarlier.refresh();
    // A file removed by hand and not committed proves no time: nothing is deleted.
    await newer.remove('wiki/concepts/attention.md');
    expect(await syncCheckout(db, newer.root, newer.schema.contract, 'newer')).toMatchObject({ deleted: 0 });
    await onNewer.refresh();
    await db.close();
    for (const pagePath of ['wiki/concepts/kombucha.md', PAGE, 'wiki/concepts/attention.md']) expect((await rowOf(url, pagePath))?.content).not.toBeNull();
    expect(await keysOf(onOlder, 'kombucha scoby')).toContain('kombucha');
    expect(await keysOf(onDeletedEarlier, 'rye levain')).toContain('sourdough');
    for (const index of [onNewer, onOlder, onDeletedEarlier]) await index.close();
  });

  it('wiki store sync on a checkout whose history deleted pages records the deletions', async () => {
    const url = await initialisedDatabase();
    const origin = await workspaceWith(TOPIC_PAGES);
    commitAllAt(origin, T1);
    const db = await Database.connect(pgConfig(url), {});
    await syncCheckout(db, origin.root, origin.schema.contract, 'first');
    gitAt(origin.root, T2, ['rm', '-q', PAGE]);
    gitAt(origin.root, T2, ['commit', '-qm', 'delete sourdough']);
    expect(await syncCheckout(db, origin.root, origin.schema.contract, 'again')).toMatchObject({ deleted: 1 });
    // Once deleted, a second sync has nothing more to delete.
    expect(await syncCheckout(db, origin.root, origin.schema.contract, 'again')).toMatchObject({ deleted: 0 });
    await db.close();
    expect((await rowOf(url, PAGE))?.content).toBeNull();
  });
});
