import { once } from 'node:events';
import { expect, it } from 'vitest';
import { LivePages } from '../../src/mcp/live-pages.js';
import { openSearchIndex } from '../../src/store/open-index.js';
import { Database } from '../../src/store/postgres/connection.js';
import type { PostgresSearchIndex } from '../../src/store/postgres/pg-index.js';
import { initSchema } from '../../src/store/postgres/schema.js';
import { configWith, pageText, TOPIC_PAGES, workspaceWith } from '../search/helpers.js';
import { describeWithPostgres, freshDatabase } from '../helpers/postgres.js';

/**
 * A running replica's pages follow the database: a page another replica writes, then
 * deletes, appears in and leaves this replica's page index once its search index has folded
 * the write in (its `applied` event), with no rescan of the files and no clock.
 */
const pgConfig = (url: string) => configWith({}, { store: { kind: 'postgres', url } });
const PAGE = 'wiki/concepts/kombucha.md';

async function applied(index: PostgresSearchIndex, pagePath: string): Promise<void> {
  for (;;) {
    const [paths] = (await once(index.events, 'applied')) as [string[]];
    if (paths.includes(pagePath)) return;
  }
}

describeWithPostgres('a running replica’s pages follow the database', () => {
  it('a page written elsewhere is served once folded in, and leaves when deleted elsewhere; the checkout is never read for it', async () => {
    const url = await freshDatabase();
    const db = await Database.connect(pgConfig(url), {});
    await initSchema(db);
    await db.close();
    const here = await workspaceWith(TOPIC_PAGES);
    const index = (await openSearchIndex(here.root, here.schema, pgConfig(url), { env: {}, rescanAfterMs: Number.MAX_SAFE_INTEGER })) as PostgresSearchIndex;
    const elsewhere = (await openSearchIndex((await workspaceWith({})).root, here.schema, pgConfig(url), { env: {}, rescanAfterMs: Number.MAX_SAFE_INTEGER })) as PostgresSearchIndex;
    // Watched, as under `wiki serve`: nothing on disk changes, so no call rescans the files.
    const pages = new LivePages(here.root, here.schema, { watched: true, shared: async () => index });
    expect((await pages.current()).has('kombucha')).toBe(false);
    const written = applied(index, PAGE);
    await elsewhere.upsertPage(PAGE, pageText('Kombucha', 'A fermented tea', 'Kombucha ferments sweet tea.'));
    await written;
    const served = await pages.current();
    expect(served.get('kombucha')?.frontmatter.summary).toBe('A fermented tea');
    expect(pages.textAt(PAGE)).toContain('ferments sweet tea');
    expect(pages.servedVersion(PAGE)).toBe(index.rowAt(PAGE)?.hash);
    const deleted = applied(index, PAGE);
    await elsewhere.removePage(PAGE);
    await deleted;
    expect((await pages.current()).has('kombucha')).toBe(false);
    expect(pages.servedVersion(PAGE)).toBeUndefined();
    // The checkout's own pages stay served from its files throughout.
    expect((await pages.current()).get('sourdough')?.frontmatter.title).toBe('Sourdough bread');
    await index.close();
    await elsewhere.close();
  });
});
