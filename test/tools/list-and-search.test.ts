import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OverlayFs } from '../../src/tools/workspace-fs.js';
import { call, makeContext, makeWorkspace, type TempWorkspace } from './fixtures.js';

let ws: TempWorkspace;
beforeEach(async () => {
  ws = await makeWorkspace();
});
afterEach(async () => {
  await ws.cleanup();
});

describe('list_directory', () => {
  it('lists directories first, then names in code-point order, with kind and size', async () => {
    await mkdir(path.join(ws.root, 'raw/b-folder'));
    await mkdir(path.join(ws.root, 'raw/A-folder'));
    await writeFile(path.join(ws.root, 'raw/zeta.txt'), '12345');
    await writeFile(path.join(ws.root, 'raw/Beta.md'), '');
    await symlink('paper.md', path.join(ws.root, 'raw/link.md'));
    const { tools } = makeContext(ws);
    const result = await call(tools, 'list_directory', { path: 'raw' });
    expect(result.isError).toBe(false);
    expect(JSON.parse(result.content)).toEqual({
      path: 'raw',
      entries: [
        { name: 'A-folder', kind: 'dir', size: 0 },
        { name: 'b-folder', kind: 'dir', size: 0 },
        { name: 'sub', kind: 'dir', size: 0 },
        { name: 'Beta.md', kind: 'file', size: 0 },
        { name: 'link.md', kind: 'symlink', size: 0 },
        { name: 'paper.md', kind: 'file', size: 50 },
        { name: 'zeta.txt', kind: 'file', size: 5 },
      ],
    });
  });

  it.each(['', '.', './'])('lists the root for %j, hiding dotfiles, state, secrets and node_modules', async (root) => {
    await writeFile(path.join(ws.root, '.hidden'), 'x');
    const { tools } = makeContext(ws);
    const names = JSON.parse((await call(tools, 'list_directory', { path: root })).content).entries.map((e: { name: string }) => e.name);
    expect(names).toEqual(['raw', 'wiki', 'schema.md', 'wiki.config.json']);
  });

  it('hides a nested .env and refuses to list hidden state', async () => {
    const { tools } = makeContext(ws);
    const sub = JSON.parse((await call(tools, 'list_directory', { path: 'raw/sub' })).content);
    expect(sub.entries).toEqual([]);
    expect((await call(tools, 'list_directory', { path: '.wiki' })).isError).toBe(true);
  });

  it('points a file to read_file and names a missing folder', async () => {
    const { tools } = makeContext(ws);
    expect((await call(tools, 'list_directory', { path: 'raw/paper.md' })).content).toBe(
      'raw/paper.md is a file, not a folder; use read_file("raw/paper.md") to read it',
    );
    expect((await call(tools, 'list_directory', { path: 'wiki/concept' })).content).toContain('Close names in wiki/: concepts');
  });

  it('shows what a dry run has written but not put on disk', async () => {
    const fs = new OverlayFs(ws.root);
    await fs.writeText(path.join(ws.root, 'wiki/topics/new/page.md'), 'x');
    const { tools } = makeContext(ws, { fs });
    const wiki = JSON.parse((await call(tools, 'list_directory', { path: 'wiki' })).content);
    expect(wiki.entries.map((e: { name: string; kind: string }) => `${e.kind}:${e.name}`)).toContain('dir:topics');
    const inner = JSON.parse((await call(tools, 'list_directory', { path: 'wiki/topics/new' })).content);
    expect(inner.entries).toEqual([{ name: 'page.md', kind: 'file', size: 1 }]);
  });
});

describe('search_wiki', () => {
  it('passes the query and limit through (five by default) and returns compact hits', async () => {
    const { tools, ports } = makeContext(ws);
    const result = await call(tools, 'search_wiki', { query: '  attention  ' });
    expect(result.content).toBe('concepts/attention - Attention: Weighting inputs by relevance.\n  "attention weights"');
    await call(tools, 'search_wiki', { query: 'x', limit: 3 });
    await call(tools, 'search_wiki', { query: 'x', limit: 500 });
    expect(ports.searches).toEqual([
      { query: 'attention', limit: 5 },
      { query: 'x', limit: 3 },
      { query: 'x', limit: 50 },
    ]);
  });

  const long = (n: number, word: string) => Array.from({ length: n }, (_, i) => `${word}${i}`).join(' ');
  const realistic = (strength: 'strong' | 'weak') =>
    Array.from({ length: 5 }, (_, i) => ({
      key: `attention-variant-${i}`,
      path: `wiki/concepts/attention-variant-${i}.md`,
      title: `Attention, variant ${i} of the family`,
      summary: long(40, 'summary'),
      score: 0.0327,
      lanes: { lexical: 1, semantic: 2, terms: 3 },
      contributions: { lexical: 0.016, semantic: 0.0161, terms: 0.0158 },
      snippet: `${long(25, 'passage')}.`,
      links: ['attention', 'transformer', 'softmax', 'multi-head-attention', 'query-key-value', 'positional-encoding'],
      backlinks: ['attention-is-all-you-need', 'bert', 'gpt'],
      strength: i === 0 ? 'strong' : strength,
      relative: 1 - i / 10,
    }));

  it('returns five realistic hits in under 2.5 KB: strength and share of the best, a whole passage, no lanes', async () => {
    const hits = realistic('weak');
    const { tools } = makeContext(ws, { search: { search: async () => ({ results: hits }), upsert: async () => {} } });
    const result = await call(tools, 'search_wiki', { query: 'attention' });
    expect(Buffer.byteLength(result.content)).toBeLessThanOrEqual(2_560);
    expect(result.content).not.toMatch(/lexical|semantic|0\.03/);
    expect(result.content).toContain('concepts/attention-variant-0 (strong, 1.00) - Attention, variant 0 of the family: summary0');
    expect(result.content).toContain('concepts/attention-variant-3 (weak, 0.70) - Attention, variant 3 of the family');
    expect(result.content).toContain(`"${long(25, 'passage')}."`);
    expect(result.content).toContain('-> attention, transformer, softmax, multi-head-attention +2');
    expect(result.content).not.toContain('No page is strongly about');
  });

  it('says when no page is strongly about the query', async () => {
    const hits = realistic('weak').map((hit) => ({ ...hit, strength: 'weak' as const }));
    const { tools } = makeContext(ws, { search: { search: async () => ({ results: hits }), upsert: async () => {} } });
    const result = await call(tools, 'search_wiki', { query: 'attention' });
    expect(result.content.split('\n')[0]).toBe('No page is strongly about "attention"; the closest pages, all weak:');
  });

  it('says first when a quoted phrase matched nothing and its words were searched instead (issue 36)', async () => {
    const hits = realistic('weak');
    const { tools } = makeContext(ws, { search: { search: async () => ({ results: hits, phrasesNotFound: ['heads attention'] }), upsert: async () => {} } });
    const result = await call(tools, 'search_wiki', { query: '"heads attention"' });
    expect(result.content.split('\n')[0]).toBe('No page holds the exact phrase "heads attention"; searched for its words instead:');
    expect(result.content).toContain('concepts/attention-variant-0 (strong, 1.00)');
  });

  it('says so when nothing matches', async () => {
    const { tools } = makeContext(ws, { search: { search: async () => ({ results: [] }), upsert: async () => {} } });
    expect((await call(tools, 'search_wiki', { query: 'quantum' })).content).toBe('No page matches "quantum".');
  });

  it('refuses an empty query and reports a failing search as an error result', async () => {
    const { tools } = makeContext(ws, { search: { search: () => Promise.reject(new Error('index missing')), upsert: async () => {} } });
    expect(await call(tools, 'search_wiki', { query: ' ' })).toEqual({ content: 'query is empty; give some words to search for', isError: true });
    expect(await call(tools, 'search_wiki', { query: 'x' })).toEqual({ content: 'search_wiki failed: index missing', isError: true });
  });
});
