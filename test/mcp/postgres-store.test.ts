import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, it } from 'vitest';
import type { SearchResult } from '../../src/search/index.js';
import { initWorkspace, runCli } from '../helpers/cli.js';
import { describeWithPostgres, freshDatabase } from '../helpers/postgres.js';
import { connectWiki } from './client.js';

const page = (fields: string, body: string): string => `---\n${fields}\n---\n${body}\n`;

const PAGES: Record<string, string> = {
  'wiki/concepts/bread.md': page('title: Sourdough bread\nsummary: Bread from a wild yeast starter\ntype: concept', 'Sourdough bread rises with a starter of flour and water.'),
  'wiki/concepts/tea.md': page('title: Green tea\nsummary: Unoxidised tea leaves\ntype: concept', 'Green tea is steamed or pan-fired soon after picking.'),
  'wiki/concepts/plan.md': page('title: Classified plan\nsummary: Secret\ntype: concept\nvisibility: private', 'The zanzibar plan is private.'),
};

async function postgresWiki(): Promise<{ root: string; env: Record<string, string> }> {
  const root = await initWorkspace();
  for (const [pagePath, content] of Object.entries(PAGES)) await writeFile(path.join(root, pagePath), content);
  const config = JSON.parse(await readFile(path.join(root, 'wiki.config.json'), 'utf8')) as Record<string, unknown>;
  await writeFile(path.join(root, 'wiki.config.json'), JSON.stringify({ ...config, store: { kind: 'postgres' } }, null, 2));
  const env = { WIKI_DATABASE_URL: await freshDatabase() };
  for (const args of [['store', 'init'], ['store', 'sync']]) {
    const result = await runCli(args, { cwd: root, env });
    if (result.code !== 0) throw new Error(`wiki ${args.join(' ')}: ${result.stderr}`);
  }
  return { root, env };
}

describeWithPostgres('wiki mcp on the Postgres store', () => {
  it('search_wiki answers from the database under the same access rules: a private page never above its cap', async () => {
    const { root, env } = await postgresWiki();
    const session = await connectWiki(root, { env });
    try {
      const found = await session.json<{ found: boolean; results: SearchResult[] }>('search_wiki', { query: 'sourdough starter' });
      expect(found.results[0]?.key).toBe('bread');
      const hidden = await session.json<{ found: boolean; results: SearchResult[] }>('search_wiki', { query: 'zanzibar plan' });
      expect(hidden.results.map((r) => r.key)).not.toContain('plan');
      // The answers echo their queries; what they hold besides must not name the page.
      expect(JSON.stringify([found.results, hidden.results])).not.toMatch(/zanzibar|Classified plan/);
    } finally {
      await session.close();
    }
  });

  it('attack: a page another replica made private in the database is not served from this replica’s public copy', async () => {
    const { root, env } = await postgresWiki();
    // Another machine's checkout, newer: the tea page is now private and names a secret.
    const other = await initWorkspace();
    await writeFile(path.join(other, 'wiki/concepts/tea.md'), page('title: Green tea\nsummary: Leaked sencha source\ntype: concept\nvisibility: private', 'Green tea steamed; the supplier is kagoshima-secret.'));
    const config = JSON.parse(await readFile(path.join(other, 'wiki.config.json'), 'utf8')) as Record<string, unknown>;
    await writeFile(path.join(other, 'wiki.config.json'), JSON.stringify({ ...config, store: { kind: 'postgres' } }, null, 2));
    const synced = await runCli(['store', 'sync', '--json'], { cwd: other, env });
    expect(JSON.parse(synced.stdout)).toMatchObject({ accepted: 1 });
    const session = await connectWiki(root, { env });
    try {
      const answer = await session.json<{ results: SearchResult[] }>('search_wiki', { query: 'green tea steamed' });
      expect(answer.results.map((r) => r.key)).not.toContain('tea');
      expect(JSON.stringify(answer.results)).not.toMatch(/kagoshima|Leaked sencha/);
      const asked = await session.call('ask_wiki', { question: 'How is green tea steamed?' });
      expect(asked.text).not.toMatch(/kagoshima|Leaked sencha/);
    } finally {
      await session.close();
    }
  });
});
