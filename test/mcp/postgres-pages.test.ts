import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, it } from 'vitest';
import type { SearchResult } from '../../src/search/index.js';
import { contentHash } from '../../src/search/text/document.js';
import { Database } from '../../src/store/postgres/connection.js';
import { offerVersions } from '../../src/store/postgres/page-rows.js';
import { configSchema } from '../../src/config/schema.js';
import { describeWithPostgres } from '../helpers/postgres.js';
import { connectWiki } from './client.js';
import { page, postgresClone } from './postgres-clones.js';

/**
 * `wiki mcp` on the Postgres store serves the pages the database holds beside its checkout:
 * a page written on another machine and not pulled yet, a newer version of a page it
 * holds; each judged for access as a file with its text would be.
 */
const PAGES: Record<string, string> = {
  'wiki/concepts/bread.md': page('title: Sourdough bread\nsummary: Bread from a wild yeast starter\ntype: concept', 'Sourdough bread rises with a starter of flour and water.'),
  'wiki/concepts/tea.md': page('title: Green tea\nsummary: Unoxidised tea leaves\ntype: concept', 'Green tea is steamed or pan-fired soon after picking.'),
};

type Read = { found: boolean; title?: string; summary?: string; body?: string; frontmatter?: Record<string, unknown> };
type Listed = { pages: Array<{ key: string }> };
type Searched = { results: SearchResult[] };

describeWithPostgres('wiki mcp serves the database’s pages beside the checkout', () => {
  it('a page written on another clone and not pulled is read, listed and found here', async () => {
    const here = await postgresClone(PAGES);
    await postgresClone({ 'wiki/concepts/kombucha.md': page('title: Kombucha\nsummary: A fermented tea\ntype: concept', 'Kombucha ferments sweet tea with a scoby culture.') }, here.env);
    const session = await connectWiki(here.root, { env: here.env });
    try {
      const read = await session.json<Read>('read_page', { key: 'kombucha' });
      expect(read).toMatchObject({ found: true, title: 'Kombucha', summary: 'A fermented tea' });
      expect(read.body).toContain('scoby culture');
      expect((await session.json<Listed>('list_pages')).pages.map((p) => p.key)).toEqual(['bread', 'kombucha', 'tea']);
      const found = await session.json<Searched>('search_wiki', { query: 'kombucha scoby' });
      expect(found.results[0]?.key).toBe('kombucha');
      expect(found.results[0]?.snippet).toContain('scoby');
    } finally {
      await session.close();
    }
  });

  it('a version newer than the checkout’s copy is served from the database: read, listed and found as the newer one', async () => {
    const here = await postgresClone(PAGES);
    // Written after this clone's files: the newer version.
    await postgresClone({ 'wiki/concepts/tea.md': page('title: Green tea\nsummary: Steamed sencha from Shizuoka\ntype: concept', 'Green tea is steamed; sencha comes from Shizuoka.') }, here.env);
    const session = await connectWiki(here.root, { env: here.env });
    try {
      expect(await session.json<Read>('read_page', { key: 'tea' })).toMatchObject({ found: true, summary: 'Steamed sencha from Shizuoka' });
      const found = await session.json<Searched>('search_wiki', { query: 'sencha shizuoka' });
      expect(found.results[0]).toMatchObject({ key: 'tea', summary: 'Steamed sencha from Shizuoka' });
      // This clone's own file is untouched: serving reads the row, it never writes the checkout.
      expect(await readFile(path.join(here.root, 'wiki/concepts/tea.md'), 'utf8')).toBe(PAGES['wiki/concepts/tea.md']);
    } finally {
      await session.close();
    }
  });

  it('attack: a private page from another clone, a row whose visibility column is stricter than its text, and crafted paths are never served above their cap', async () => {
    const here = await postgresClone(PAGES);
    await postgresClone({ 'wiki/concepts/vault.md': page('title: Vault\nsummary: Zorblax vault codes\ntype: concept\nvisibility: private', 'The zorblax vault code is 0451.') }, here.env);
    // Rows written straight into the database, as anyone holding its password could.
    const db = await Database.connect(configSchema.parse({ store: { kind: 'postgres' } }), here.env);
    const crafted = (pagePath: string, text: string, visibility: string) => ({ path: pagePath, content: text, hash: contentHash(text), visibility, stamp: Date.now() });
    await offerVersions(
      db,
      [
        crafted('wiki/concepts/leak.md', page('title: Leak\nsummary: Zorblax leak\ntype: concept', 'The zorblax leak names the mole.'), 'private'),
        crafted('wiki/../outside.md', page('title: Outside\nsummary: Zorblax outside\ntype: concept', 'Zorblax outside the wiki.'), 'public'),
        crafted('wiki/.hidden/shadow.md', page('title: Shadow\nsummary: Zorblax shadow\ntype: concept', 'Zorblax in a hidden folder.'), 'public'),
      ],
      'attacker',
    );
    await db.close();
    const capped = await connectWiki(here.root, { env: here.env });
    try {
      for (const key of ['vault', 'leak', 'outside', 'shadow']) expect(await capped.json<Read>('read_page', { key })).toMatchObject({ found: false });
      expect((await capped.json<Listed>('list_pages')).pages.map((p) => p.key)).toEqual(['bread', 'tea']);
      expect((await capped.json<Searched>('search_wiki', { query: 'zorblax vault leak' })).results).toEqual([]);
      await capped.call('ask_wiki', { question: 'What is the zorblax vault code?' });
      // The answers echo their questions; nothing else in them may come from the rows.
      expect(capped.transcript.join('\n')).not.toMatch(/0451|the mole|Zorblax (vault codes|leak|outside|shadow)|hidden folder/);
    } finally {
      await capped.close();
    }
    // Good work passes: a caller cleared for private pages reads both private rows, never a crafted path.
    const cleared = await connectWiki(here.root, { env: here.env, args: ['--max-visibility', 'private'] });
    try {
      expect(await cleared.json<Read>('read_page', { key: 'vault' })).toMatchObject({ found: true, summary: 'Zorblax vault codes' });
      expect(await cleared.json<Read>('read_page', { key: 'leak' })).toMatchObject({ found: true, frontmatter: { visibility: 'private' } });
      for (const key of ['outside', 'shadow']) expect(await cleared.json<Read>('read_page', { key })).toMatchObject({ found: false });
      const found = await cleared.json<Searched>('search_wiki', { query: 'zorblax' });
      expect(found.results.map((r) => r.key).sort()).toEqual(['leak', 'vault']);
    } finally {
      await cleared.close();
    }
  });
});
