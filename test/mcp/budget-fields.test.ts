import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fitToBudget } from '../../src/mcp/budget.js';
import { initWorkspace } from '../helpers/cli.js';
import { connectWiki } from './client.js';

/**
 * mcp.maxChars holds for every field of every answer, wherever the length is: a huge field
 * deep in a page's frontmatter, thousands of tags, fifty long search hits (whose snippets are
 * shortened before any hit is dropped, the dropped ones counted).
 */
const page = (frontmatter: string, body: string): string => `---\n${frontmatter}\ncreated: 2026-11-21\nupdated: 2026-11-21\n---\n\n${body}\n`;

describe('fitToBudget on nested answers', () => {
  it('cuts a long text deep inside, saying which field', () => {
    const answer = { found: true, page: { key: 'k', frontmatter: { title: 'T', notes: 'n'.repeat(600_000) }, body: 'Short.' } };
    const text = fitToBudget(answer, 20_000);
    expect(text.length).toBeLessThanOrEqual(20_000);
    const parsed = JSON.parse(text) as { page: { body: string; frontmatter: { title: string } }; truncated: { cut: string[] } };
    expect(parsed.page.body).toBe('Short.');
    expect(parsed.page.frontmatter.title).toBe('T');
    expect(parsed.truncated.cut).toEqual([expect.stringMatching(/^page\.frontmatter\.notes: \d+ of 600000 characters cut$/)]);
  });

  it('shortens snippets before dropping hits, and counts the hits dropped', () => {
    const results = Array.from({ length: 50 }, (_, i) => ({ key: `page-${i}`, path: `wiki/concepts/page-${i}.md`, title: `Page ${i}`, summary: 's'.repeat(79), snippet: `${'long snippet words '.repeat(40)}` }));
    const text = fitToBudget({ query: 'q', results }, 8000);
    expect(text.length).toBeLessThanOrEqual(8000);
    const parsed = JSON.parse(text) as { results: Array<{ snippet: string }>; truncated: { cut: string[] } };
    expect(parsed.results.length).toBeGreaterThan(20);
    expect(text.length).toBeGreaterThan(6000); // the budget is filled, not left mostly empty
    expect(parsed.truncated.cut).toContain(`results: ${50 - parsed.results.length} of 50 items dropped`);
    expect(parsed.truncated.cut.some((line) => /^results\[\]\.snippet: 50 texts shortened/.test(line))).toBe(true);
  });
});

describe('wiki mcp at a small mcp.maxChars (through the built CLI)', () => {
  it('read_page of a 600 KB frontmatter field or 5,000 tags, and search_wiki with limit 50, stay within the budget', async () => {
    const root = await initWorkspace();
    await writeFile(path.join(root, 'raw/paper.md'), '# Paper\n\nAbout okapis.\n');
    await writeFile(path.join(root, 'wiki/concepts/huge-field.md'), page(`title: Huge field\nsummary: An okapi page\ntype: concept\nsources: [raw/paper.md]\nnotes: ${'n'.repeat(600_000)}`, 'Okapis.'));
    const tags = Array.from({ length: 5000 }, (_, i) => `tag-${i}`).join(', ');
    await writeFile(path.join(root, 'wiki/concepts/many-tags.md'), page(`title: Many tags\nsummary: An okapi page with tags\ntype: concept\nsources: [raw/paper.md]\ntags: [${tags}]`, 'Okapis.'));
    for (let i = 0; i < 60; i++) {
      await writeFile(path.join(root, `wiki/concepts/okapi-${i}.md`), page(`title: Okapi ${i}\nsummary: Okapi fact ${i}\ntype: concept\nsources: [raw/paper.md]`, `Okapi ${'okapi forest giraffe stripes '.repeat(30)}`));
    }
    await writeFile(path.join(root, 'wiki.config.json'), JSON.stringify({ search: { embedder: { kind: 'builtin' } }, mcp: { maxChars: 8000 } }));
    const session = await connectWiki(root);
    try {
      for (const key of ['huge-field', 'many-tags']) {
        const read = await session.call('read_page', { key });
        expect(read.text.length).toBeLessThanOrEqual(8000);
        expect((JSON.parse(read.text) as { truncated?: { cut: string[] } }).truncated?.cut.length).toBeGreaterThan(0);
      }
      const search = await session.call('search_wiki', { query: 'okapi', limit: 50 });
      expect(search.text.length).toBeLessThanOrEqual(8000);
      const parsed = JSON.parse(search.text) as { results: unknown[]; truncated?: { cut: string[] } };
      expect(parsed.results.length).toBeGreaterThan(5);
      expect(parsed.truncated?.cut.some((line) => /^results: \d+ of \d+ items dropped$/.test(line))).toBe(true);
    } finally {
      await session.close();
    }
  });
});
