import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initWorkspace } from '../helpers/cli.js';
import { pageText } from '../search/helpers.js';
import { connectWiki, type McpSession } from './client.js';

/** Pages with non-Latin titles over `wiki mcp`: found by search in their language, read by their key. */

let session: McpSession;

beforeAll(async () => {
  const root = await initWorkspace();
  const pages: Record<string, string> = {
    'wiki/concepts/yan-jiu-sheng-ming-qi-yuan.md': pageText('研究生命起源', '科学家如何研究地球上生命的起源', '研究生命起源的科学家认为，最早的生命出现在海洋中。', { lang: 'zh' }),
    'wiki/concepts/yan-jiu-sheng-jiao-yu.md': pageText('研究生教育', '大学如何培养研究生', '研究生在导师的指导下学习和写论文。见 [[yan-jiu-sheng-ming-qi-yuan]]。', { lang: 'zh' }),
    'wiki/concepts/hauser-der-stadt.md': pageText('Häuser der Stadt', 'Wie die Häuser der Altstadt gebaut wurden', 'Die meisten Häuser der Altstadt sind aus Fachwerk.', { lang: 'de' }),
  };
  for (const [pagePath, content] of Object.entries(pages)) {
    await mkdir(path.dirname(path.join(root, pagePath)), { recursive: true });
    await writeFile(path.join(root, pagePath), content);
  }
  session = await connectWiki(root);
});

afterAll(async () => {
  await session?.close();
});

describe('wiki mcp with pages in other languages', () => {
  it('search_wiki finds them by a word in their language', async () => {
    const graduate = await session.json<{ results: Array<{ key: string }> }>('search_wiki', { query: '研究生' });
    expect(graduate.results[0]?.key).toBe('yan-jiu-sheng-jiao-yu');
    const house = await session.json<{ results: Array<{ key: string }> }>('search_wiki', { query: 'Haus' });
    expect(house.results[0]?.key).toBe('hauser-der-stadt');
  });

  it('read_page reads one by its key, with its title as written and its backlinks', async () => {
    const page = await session.json<{ key: string; title: string; backlinks: string[] }>('read_page', { key: 'yan-jiu-sheng-ming-qi-yuan' });
    expect(page).toMatchObject({ key: 'yan-jiu-sheng-ming-qi-yuan', title: '研究生命起源', backlinks: ['yan-jiu-sheng-jiao-yu'] });
  });

  it('read_page by its title points to its key', async () => {
    const answer = await session.json<{ found: boolean; closeMatches: string[] }>('read_page', { key: '研究生命起源' });
    expect(answer.found).toBe(false);
    expect(answer.closeMatches[0]).toBe('yan-jiu-sheng-ming-qi-yuan');
  });
});
