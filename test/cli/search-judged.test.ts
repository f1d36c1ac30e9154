import path from 'node:path';
import { readdir, readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { parsePage } from '../../src/wiki/page.js';
import { runCli, tempDir } from '../helpers/cli.js';
import type { ScriptStep } from '../helpers/fake-llm-server.js';
import { fakeServers } from '../helpers/use-fake-llm.js';

/**
 * Search results a reader can judge, on the sample wiki `wiki init --example` writes (ten
 * pages): a page titled as the query ranks first and is strong, weak hits far below the
 * best are left out, and a query no page is about says so; the model sees the same in
 * search_wiki's result, through both wire formats.
 */

interface Hit {
  key: string;
  strength?: string;
  relative?: number;
  snippet: string;
}

let example: string;
let pages: Array<{ key: string; title: string }>;

beforeAll(async () => {
  const root = await tempDir();
  example = path.join(root, 'example');
  expect((await runCli(['init', example, '--example'], { cwd: root })).code).toBe(0);
  pages = [];
  for (const folder of ['concepts', 'entities', 'sources']) {
    for (const name of await readdir(path.join(example, 'wiki', folder))) {
      const pagePath = `wiki/${folder}/${name}`;
      const page = parsePage(pagePath, await readFile(path.join(example, pagePath), 'utf8'));
      pages.push({ key: page.key, title: String(page.frontmatter.title) });
    }
  }
});

const search = async (query: string): Promise<{ results: Hit[]; strong: boolean }> =>
  JSON.parse((await runCli(['--json', 'search', query], { cwd: example })).stdout) as { results: Hit[]; strong: boolean };

describe('wiki search on the sample wiki', () => {
  it('ranks the page titled as the query first, as a strong hit, and never returns the whole wiki', async () => {
    expect(pages.length).toBeGreaterThanOrEqual(9);
    for (const { key, title } of pages) {
      const answer = await search(title.replace(/\(notes\)/, '').trim());
      expect(answer.results[0]?.key, title).toBe(key);
      expect(answer.results[0]?.strength, title).toBe('strong');
      expect(answer.strong).toBe(true);
      expect(answer.results.length, title).toBeLessThan(pages.length);
    }
  });

  it('shows snippets as prose: labels for links, no comments, about 200 characters', async () => {
    const answer = await search('memex trails');
    for (const hit of answer.results) {
      expect(hit.snippet).not.toMatch(/\[\[|<!--/);
      expect(hit.snippet.length).toBeLessThanOrEqual(200);
    }
  });

  it('says when no page is strongly about the query', async () => {
    const json = await search('hypertext history');
    expect(json.results.length).toBeGreaterThan(0);
    expect(json.strong).toBe(false);
    expect((await runCli(['search', 'hypertext history'], { cwd: example })).stdout).toContain('No page is strongly about “hypertext history”; the closest pages, all weak:');
  });
});

const startServer = fakeServers();

describe.each(['anthropic', 'openai'] as const)('search_wiki through the %s wire format', (api) => {
  it('tells the model each hit\'s strength and a passage, and when no page is strongly about the query', async () => {
    const script: ScriptStep[] = [
      { toolCalls: [{ name: 'search_wiki', arguments: { query: 'Associative trail' } }] },
      { toolCalls: [{ name: 'search_wiki', arguments: { query: 'hypertext history' } }] },
      { text: 'Nothing to write.' },
    ];
    const server = await startServer(script);
    const run = await runCli(['ingest', 'raw/memex-notes.md', '--force', '--json'], { cwd: example, env: server.env(api) });
    expect(server.problems).toEqual([]);
    expect(run.stderr).not.toMatch(/error:/);
    const first = server.requests[1]?.toolResults[0]?.content ?? '';
    expect(first.split('\n')[0]).toMatch(/^concepts\/associative-trail \(strong, 1\.00\) - Associative trail: /);
    expect(first).toMatch(/\n {2}"[^"]{60,}"/);
    expect(first.split('\n').filter((line) => /^\S+ \((strong|weak)/.test(line)).length).toBeLessThanOrEqual(5);
    const second = server.requests[2]?.toolResults[0]?.content ?? '';
    expect(second.split('\n')[0]).toBe('No page is strongly about "hypertext history"; the closest pages, all weak:');
  });
});
