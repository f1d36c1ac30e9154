import { expect, it } from 'vitest';
import { openSearchIndex } from '../../../src/store/open-index.js';
import type { PostgresSearchIndex } from '../../../src/store/postgres/pg-index.js';
import { configWith, pageText, TOPIC_PAGES, workspaceWith, type TestWorkspace } from '../../search/helpers.js';
import { describeWithPostgres, initialisedDatabase } from '../../helpers/postgres.js';

const pgConfig = (url: string, search: Record<string, unknown> = {}) => configWith(search, { store: { kind: 'postgres', url } });

async function replica(ws: TestWorkspace, url: string, search: Record<string, unknown> = {}): Promise<PostgresSearchIndex> {
  return (await openSearchIndex(ws.root, ws.schema, pgConfig(url, search), { env: {}, rescanAfterMs: 60_000 })) as PostgresSearchIndex;
}


const ranked = async (index: PostgresSearchIndex, query: string) => (await index.search(query, { limit: 10 })).results.map((r) => [r.key, r.score, r.lanes]);

describeWithPostgres('the engine kept in the database', () => {
  it('a replica starts from the engine another kept (embedder state and vectors included) and ranks as it does', async () => {
    const url = await initialisedDatabase();
    const first = await replica(await workspaceWith(TOPIC_PAGES), url);
    await first.keepEngine();
    const second = await replica(await workspaceWith({}), url);
    // Started from the kept engine, not built anew: it carries the first one's build time.
    expect(second.info().builtAt).toBe(first.info().builtAt);
    expect(second.info().lanes.semantic).toBe('ok');
    for (const query of ['sourdough starter', 'attention heads']) expect(await ranked(second, query)).toEqual(await ranked(first, query));
    // Rows written after it was kept are folded in on top.
    await first.upsertPage('wiki/concepts/kombucha.md', pageText('Kombucha', 'A fermented tea', 'Kombucha ferments sweet tea.'));
    await second.refresh();
    expect((await second.search('kombucha', { limit: 3 })).results[0]?.key).toBe('kombucha');
    await first.close();
    await second.close();
  });

  it('pages changed and deleted after it was kept are redone on top of it', async () => {
    const url = await initialisedDatabase();
    const first = await replica(await workspaceWith(TOPIC_PAGES), url);
    await first.keepEngine();
    await first.upsertPage('wiki/concepts/sourdough.md', pageText('Sourdough bread', 'Changed after', 'A rye levain, fed twice a day.'));
    await first.removePage('wiki/concepts/attention.md');
    const second = await replica(await workspaceWith({}), url);
    expect(second.info().builtAt).toBe(first.info().builtAt);
    expect((await second.search('rye levain', { limit: 3 })).results[0]?.summary).toBe('Changed after');
    expect((await second.search('attention', { limit: 10 })).results.map((r) => r.key)).not.toContain('attention');
    expect(second.info().pages).toBe(first.info().pages);
    await first.close();
    await second.close();
  });

  it('one kept under another embedder configuration is not used: the rows are indexed anew', async () => {
    const url = await initialisedDatabase();
    const first = await replica(await workspaceWith(TOPIC_PAGES), url);
    await first.keepEngine();
    const other = await replica(await workspaceWith({}), url, { embedder: { dimensions: 16 } });
    expect(other.info().builtAt).not.toBe(first.info().builtAt);
    expect((await other.search('sourdough starter', { limit: 3 })).results[0]?.key).toBe('sourdough');
    await first.close();
    await other.close();
  });
});
