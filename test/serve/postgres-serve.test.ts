import { expect, it } from 'vitest';
import { configSchema } from '../../src/config/schema.js';
import type { SearchResult } from '../../src/search/index.js';
import { Database } from '../../src/store/postgres/connection.js';
import { offerVersions } from '../../src/store/postgres/page-rows.js';
import { describeWithPostgres } from '../helpers/postgres.js';
import { page, postgresClone } from '../mcp/postgres-clones.js';
import { addToken, connect, serve, tokensFile } from './serve-fixtures.js';

/**
 * `wiki serve` on the Postgres store: its page routes (read_page, list_pages, search_wiki
 * over HTTP) serve the database's pages beside the replica's checkout, under each token's cap.
 */
const PAGES: Record<string, string> = {
  'wiki/concepts/bread.md': page('title: Sourdough bread\nsummary: Bread from a wild yeast starter\ntype: concept', 'Sourdough bread rises with a starter of flour and water.'),
  'wiki/concepts/tea.md': page('title: Green tea\nsummary: Unoxidised tea leaves\ntype: concept', 'Green tea is steamed or pan-fired soon after picking.'),
};

type Read = { found: boolean; summary?: string };

describeWithPostgres('wiki serve on the Postgres store', () => {
  it('serves a page another clone wrote, hides a private one above the token’s cap, and a deletion the database holds hides the checkout’s copy', async () => {
    const here = await postgresClone(PAGES);
    await postgresClone(
      {
        'wiki/concepts/kombucha.md': page('title: Kombucha\nsummary: A fermented tea\ntype: concept', 'Kombucha ferments sweet tea with a scoby culture.'),
        'wiki/concepts/vault.md': page('title: Vault\nsummary: Zorblax vault codes\ntype: concept\nvisibility: private', 'The zorblax vault code is 0451.'),
      },
      here.env,
    );
    // Another machine deleted the bread page (a tool's deletion, stamped now: newer than this checkout's copy).
    const db = await Database.connect(configSchema.parse({ store: { kind: 'postgres' } }), here.env);
    await offerVersions(db, [{ path: 'wiki/concepts/bread.md', content: null, hash: null, visibility: null, stamp: Date.now() }], 'elsewhere');
    await db.close();
    const file = await tokensFile();
    const internal = await addToken(here.root, file, 'agent', 'internal');
    const cleared = await addToken(here.root, file, 'owner', 'private');
    const served = await serve(here.root, file, [], here.env);
    try {
      const agent = await connect(served.url, internal);
      expect(await agent.json<Read>('read_page', { key: 'kombucha' })).toMatchObject({ found: true, summary: 'A fermented tea' });
      expect((await agent.json<{ results: SearchResult[] }>('search_wiki', { query: 'kombucha scoby' })).results[0]?.key).toBe('kombucha');
      expect(await agent.json<Read>('read_page', { key: 'vault' })).toMatchObject({ found: false });
      expect(await agent.json<Read>('read_page', { key: 'bread' })).toMatchObject({ found: false });
      expect((await agent.json<{ pages: Array<{ key: string }> }>('list_pages')).pages.map((p) => p.key)).toEqual(['kombucha', 'tea']);
      expect((await agent.json<{ results: SearchResult[] }>('search_wiki', { query: 'sourdough starter flour' })).results.map((r) => r.key)).not.toContain('bread');
      expect(agent.transcript.join('\n')).not.toMatch(/0451|Zorblax vault codes/);
      await agent.close();
      const owner = await connect(served.url, cleared);
      expect(await owner.json<Read>('read_page', { key: 'vault' })).toMatchObject({ found: true, summary: 'Zorblax vault codes' });
      await owner.close();
    } finally {
      await served.stop();
    }
  });
});
