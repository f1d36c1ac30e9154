import { createHash } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import fg from 'fast-glob';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageDetail, PageList } from '../../src/mcp/page-views.js';
import type { SearchResult } from '../../src/search/index.js';
import type { Finding } from '../../src/wiki/validate/finding.js';
import { initWorkspace } from '../helpers/cli.js';
import { connectWiki, type McpSession } from './client.js';
import { SAMPLE_PAGES, SECRET, writeSampleWiki } from './sample.js';

interface SearchAnswer {
  query: string;
  results: SearchResult[];
  lanes: Record<string, string>;
}

interface LintAnswer {
  errors: number;
  warnings: number;
  byRule: Record<string, number>;
  total: number;
  findings: Finding[];
  nextOffset: number | null;
}

let root: string;
let session: McpSession;
let filesBefore: Map<string, string>;

/** Hash of every file outside .wiki/ (the search cache), to prove nothing else was written. */
async function snapshotFiles(dir: string): Promise<Map<string, string>> {
  const files = await fg('**/*', { cwd: dir, dot: true, onlyFiles: true, followSymbolicLinks: false, ignore: ['.wiki/**'] });
  const hashes = new Map<string, string>();
  for (const file of files.sort()) {
    const bytes = await readFile(path.join(dir, file)).catch(() => Buffer.from('(unreadable link)'));
    hashes.set(file, createHash('sha256').update(bytes).digest('hex'));
  }
  return hashes;
}

beforeAll(async () => {
  root = await initWorkspace();
  await writeSampleWiki(root);
  filesBefore = await snapshotFiles(root);
  session = await connectWiki(root);
});

afterAll(async () => {
  await session?.close();
});

describe('wiki mcp over stdio, with the SDK client', () => {
  it('offers exactly the five read-only tools, each with an input schema', async () => {
    const { tools } = await session.client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['ask_wiki', 'lint_report', 'list_pages', 'read_page', 'search_wiki']);
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    const shape = (name: string) => {
      const schema = byName.get(name)?.inputSchema;
      return { type: schema?.type, properties: Object.keys(schema?.properties ?? {}).sort(), required: schema?.required ?? [] };
    };
    expect(shape('search_wiki')).toEqual({ type: 'object', properties: ['limit', 'query'], required: ['query'] });
    expect(shape('read_page')).toEqual({ type: 'object', properties: ['key'], required: ['key'] });
    expect(shape('list_pages')).toEqual({ type: 'object', properties: ['limit', 'offset', 'tag', 'type'], required: [] });
    expect(shape('lint_report')).toEqual({ type: 'object', properties: ['limit', 'offset'], required: [] });
    expect(shape('ask_wiki')).toEqual({ type: 'object', properties: ['question'], required: ['question'] });
    for (const tool of tools) {
      expect(tool.description).toBeTruthy();
      expect(tool.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    }
  });

  it('introduces itself as the wiki server, with instructions for the agent', async () => {
    expect(session.client.getServerVersion()).toMatchObject({ name: 'wiki' });
    expect(session.client.getInstructions()).toMatch(/search_wiki.*read_page/s);
  });

  it('search_wiki ranks pages with key, path, title, summary, score, lanes, snippet, links and backlinks', async () => {
    const answer = await session.json<SearchAnswer>('search_wiki', { query: 'attention heads in parallel', limit: 3 });
    expect(answer.query).toBe('attention heads in parallel');
    expect(answer.results.length).toBeGreaterThan(0);
    expect(answer.results.length).toBeLessThanOrEqual(3);
    const top = answer.results[0]!;
    expect(top.key).toBe('multi-head-attention');
    expect(top).toMatchObject({
      path: 'wiki/concepts/multi-head-attention.md',
      title: 'Multi-head attention',
      summary: 'Several attention heads run in parallel over learned projections',
      links: ['scaled-dot-product-attention'],
    });
    expect(top.backlinks).toEqual(['attention-paper', 'scaled-dot-product-attention', 'transformer']);
    expect(top.score).toBeGreaterThan(0);
    expect(Object.keys(top.lanes).length).toBeGreaterThan(0);
    expect(top.snippet).toMatch(/attention/i);
    expect(top).not.toHaveProperty('contributions');
    expect(answer.lanes.lexical).toBe('ok');
  });

  it.each([
    { name: 'an empty query', args: { query: '' }, error: /query/ },
    { name: 'a limit above 50', args: { query: 'attention', limit: 51 }, error: /limit/ },
    { name: 'an unknown argument', args: { query: 'attention', path: '.env' }, error: /path|unrecognized/i },
  ])('search_wiki refuses $name as a tool error', async ({ args, error }) => {
    const { text, isError } = await session.call('search_wiki', args);
    expect(isError).toBe(true);
    expect(text).toMatch(error);
  });

  it('read_page returns frontmatter, body, outgoing links (with the missing ones) and backlinks', async () => {
    const page = await session.json<PageDetail>('read_page', { key: 'positional-encoding' });
    expect(page).toMatchObject({
      key: 'positional-encoding',
      path: 'wiki/concepts/positional-encoding.md',
      title: 'Positional encoding',
      summary: 'Sinusoids added to embeddings so order is visible to attention',
      type: 'concept',
      tags: ['Transformers'],
      links: ['relative-position-bias', 'transformer'],
      missingLinks: ['relative-position-bias'],
      backlinks: ['attention-paper'],
    });
    expect(page.frontmatter).toMatchObject({ created: '2026-01-11', sources: ['raw/attention-paper.md'] });
    expect(page.body).toContain('Order information for the [[transformer]]');
    expect(page.body).not.toContain('---');
  });

  it('read_page of an unknown key answers found: false with the key echoed and up to three close keys', async () => {
    const { text, isError } = await session.call('read_page', { key: 'multi-head-atention' });
    expect(isError).toBe(false);
    const answer = JSON.parse(text) as { found: boolean; key: string; closeMatches: string[]; hint: string };
    expect(answer).toMatchObject({ found: false, key: 'multi-head-atention' });
    expect(answer.closeMatches[0]).toBe('multi-head-attention');
    expect(answer.closeMatches.length).toBeLessThanOrEqual(3);
    expect(answer.hint).toMatch(/close matches: multi-head-attention/);
  });

  it('read_page of a key nothing resembles points to search and listing instead', async () => {
    const answer = await session.json<{ found: boolean; key: string; closeMatches: string[]; hint: string }>('read_page', {
      key: 'zzzzqqqq',
    });
    expect(answer).toEqual({
      found: false,
      key: 'zzzzqqqq',
      closeMatches: [],
      hint: 'no page has this key; use search_wiki or list_pages to find pages',
    });
  });

  it('list_pages lists the content pages in path order with key, path, title, summary, type and tags', async () => {
    const list = await session.json<PageList>('list_pages');
    expect(list.pages.map((page) => page.path)).toEqual(Object.keys(SAMPLE_PAGES).sort());
    expect(list).toMatchObject({ total: 5, offset: 0, nextOffset: null });
    expect(list.pages.find((page) => page.key === 'transformer')).toEqual({
      key: 'transformer',
      path: 'wiki/entities/transformer.md',
      title: 'Transformer',
      summary: 'Sequence model built from attention and feed-forward layers',
      type: 'entity',
      tags: ['architecture'],
    });
  });

  it.each([
    { filter: { type: 'concept' }, keys: ['multi-head-attention', 'positional-encoding', 'scaled-dot-product-attention'] },
    { filter: { type: 'source' }, keys: ['attention-paper'] },
    { filter: { tag: 'transformers' }, keys: ['positional-encoding', 'scaled-dot-product-attention'] },
    { filter: { type: 'concept', tag: 'attention' }, keys: ['multi-head-attention', 'scaled-dot-product-attention'] },
    { filter: { tag: 'no-such-tag' }, keys: [] },
  ])('list_pages filters by $filter', async ({ filter, keys }) => {
    const list = await session.json<PageList>('list_pages', filter);
    expect(list.pages.map((page) => page.key)).toEqual(keys);
    expect(list.total).toBe(keys.length);
  });

  it('list_pages pages through the results with limit, offset and nextOffset', async () => {
    const keys: string[] = [];
    let offset: number | null = 0;
    let calls = 0;
    while (offset !== null) {
      const list: PageList = await session.json<PageList>('list_pages', { limit: 2, offset });
      expect(list.total).toBe(5);
      keys.push(...list.pages.map((page) => page.key));
      offset = list.nextOffset;
      calls++;
    }
    expect(calls).toBe(3);
    expect(keys).toEqual(['multi-head-attention', 'positional-encoding', 'scaled-dot-product-attention', 'transformer', 'attention-paper']);
    const beyond = await session.json<PageList>('list_pages', { offset: 99 });
    expect(beyond).toMatchObject({ total: 5, pages: [], nextOffset: null });
  });

  it('list_pages of an unknown type names the types the schema defines', async () => {
    const { text, isError } = await session.call('list_pages', { type: 'person' });
    expect(isError).toBe(true);
    expect(text).toBe('unknown page type "person"; the schema defines: source, concept, entity');
  });

  it('lint_report returns the findings and their counts, without fixing anything', async () => {
    const report = await session.json<LintAnswer>('lint_report');
    const broken = report.findings.filter((f) => f.rule === 'broken-link');
    expect(broken).toEqual([
      expect.objectContaining({ severity: 'error', path: 'wiki/concepts/positional-encoding.md', message: expect.stringContaining('relative-position-bias') }),
    ]);
    expect(report.errors).toBe(report.findings.filter((f) => f.severity === 'error').length);
    expect(report.warnings).toBe(report.findings.filter((f) => f.severity === 'warning').length);
    expect(report.total).toBe(report.findings.length);
    expect(report.nextOffset).toBeNull();
    expect(report.byRule).toMatchObject({ 'broken-link': 1, unindexed: 5 });
    expect(report.findings.some((f) => f.rule === 'unindexed')).toBe(true);
    const after = await session.json<LintAnswer>('lint_report');
    expect(after).toEqual(report); // nothing was fixed in between
  });

  it('lint_report hands out the findings a window at a time, errors first', async () => {
    const whole = await session.json<LintAnswer>('lint_report');
    const first = await session.json<LintAnswer>('lint_report', { limit: 1 });
    expect(first.findings).toEqual([whole.findings[0]]);
    expect(first.findings[0]?.severity).toBe('error');
    expect(first).toMatchObject({ total: whole.total, errors: whole.errors, warnings: whole.warnings, nextOffset: 1 });
    const rest = await session.json<LintAnswer>('lint_report', { offset: 1, limit: 1000 });
    expect([...first.findings, ...rest.findings]).toEqual(whole.findings);
    expect(rest.nextOffset).toBeNull();
  });

  it('serves a page edited, a page added and a page removed on disk after the server started', async () => {
    const file = path.join(root, 'wiki/entities/transformer.md');
    const edited = (SAMPLE_PAGES['wiki/entities/transformer.md'] ?? '')
      .replace('Sequence model built from attention and feed-forward layers', 'Edited summary about gradient checkpointing')
      .replace('without recurrence.', 'without recurrence, see [[layer-normalisation]].');
    await writeFile(file, edited);
    await writeFile(
      path.join(root, 'wiki/concepts/layer-normalisation.md'),
      '---\ntitle: Layer normalisation\nsummary: Normalises activations per example\ntype: concept\n---\nUsed in the [[transformer]].\n',
    );
    await rename(path.join(root, 'wiki/sources/attention-paper.md'), path.join(root, 'wiki/sources/attention-paper.md.bak'));
    try {
      const page = await session.json<PageDetail>('read_page', { key: 'transformer' });
      expect(page.summary).toBe('Edited summary about gradient checkpointing');
      expect(page.links).toContain('layer-normalisation');
      expect(page.missingLinks).toEqual([]);
      expect(page.backlinks).toEqual(['layer-normalisation', 'positional-encoding', 'scaled-dot-product-attention']);
      const added = await session.json<PageDetail>('read_page', { key: 'layer-normalisation' });
      expect(added.backlinks).toEqual(['transformer']);
      const removed = await session.call('read_page', { key: 'attention-paper' });
      expect(removed.isError).toBe(false);
      expect(JSON.parse(removed.text)).toMatchObject({ found: false, key: 'attention-paper' });
      const list = await session.json<PageList>('list_pages', { type: 'source' });
      expect(list.total).toBe(0);
      // The search index rescans on its own schedule (every few seconds at most).
      const found = await eventually(async () => {
        const answer = await session.json<SearchAnswer>('search_wiki', { query: 'gradient checkpointing' });
        return answer.results[0]?.key === 'transformer' ? answer : undefined;
      });
      expect(found.results[0]?.summary).toBe('Edited summary about gradient checkpointing');
    } finally {
      // Put the sample back, so the last test can prove the server itself wrote nothing.
      await rename(path.join(root, 'wiki/sources/attention-paper.md.bak'), path.join(root, 'wiki/sources/attention-paper.md'));
      await writeFile(file, SAMPLE_PAGES['wiki/entities/transformer.md'] ?? '');
      await rm(path.join(root, 'wiki/concepts/layer-normalisation.md'));
    }
    const back = await session.json<PageDetail>('read_page', { key: 'attention-paper' });
    expect(back.title).toBe('Attention Is All You Need');
  });
});

describe('wiki mcp stays inside the wiki', () => {
  it.each([
    { key: '.env', error: /not a path/ },
    { key: '../.env', error: /not a path/ },
    { key: '../../.env', error: /not a path/ },
    // A page path whose key no served page has (a link to outside): nothing is suggested.
    { key: 'wiki/concepts/leaked-env.md', error: /not a path$/ },
    { key: '.wiki/secret-notes', error: /not a path/ },
    { key: 'transformer.md', error: /did you mean the key `transformer`/ },
    { key: 'a\u0000b', error: /control characters/ },
  ])('read_page refuses $key', async ({ key, error }) => {
    const { text, isError } = await session.call('read_page', { key });
    expect(isError).toBe(true);
    expect(text).toMatch(error);
  });

  it.each(['secret-notes', 'hidden-page', 'leaked-env'])('read_page answers %s as a key no page has', async (key) => {
    const answer = await session.json<{ found: boolean; key: string; closeMatches: string[] }>('read_page', { key });
    expect(answer).toMatchObject({ found: false, key });
    expect(answer.closeMatches).not.toContain(key);
  });

  it('lists and searches no page outside wiki/, in hidden folders, or behind a symbolic link', async () => {
    const list = await session.json<PageList>('list_pages', { limit: 500 });
    expect(list.pages.map((page) => page.key).sort()).toEqual(
      ['attention-paper', 'multi-head-attention', 'positional-encoding', 'scaled-dot-product-attention', 'transformer'],
    );
    // Words of the bait files (the secret itself is left out: the answer echoes the query).
    const answer = await session.json<SearchAnswer>('search_wiki', { query: 'OPENAI_API_KEY hidden secret notes leaked env' });
    for (const key of ['leaked-env', 'hidden-page', 'secret-notes']) {
      expect(answer.results.map((result) => result.key)).not.toContain(key);
    }
    await session.json<LintAnswer>('lint_report');
  });

  it('no answer in the whole session carried the secret, and nothing outside .wiki/ was written', async () => {
    expect(session.transcript.length).toBeGreaterThan(20);
    for (const text of session.transcript) expect(text).not.toContain(SECRET);
    expect(await snapshotFiles(root)).toEqual(filesBefore);
  });

  it('logs to stderr, not to the protocol stream', () => {
    expect(session.stderr()).toMatch(/wiki mcp: serving .* on stdio/);
  });
});

async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs = 8000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
