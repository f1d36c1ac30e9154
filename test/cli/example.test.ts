import { readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { connectWiki, type McpSession } from '../mcp/client.js';
import { readSourceRecord } from '../helpers/source-record.js';

/** `wiki init --example`: a living wiki before any key is set, checked through the CLI. */
let root: string;
let mcp: McpSession | undefined;

async function pagePaths(): Promise<string[]> {
  const folders = ['wiki/sources', 'wiki/concepts', 'wiki/entities'];
  const lists = await Promise.all(folders.map(async (folder) => (await readdir(path.join(root, folder))).map((file) => `${folder}/${file}`)));
  return lists.flat().sort();
}

beforeAll(async () => {
  const parent = await tempDir();
  const result = await runCli(['init', '--example', 'wiki-example'], { cwd: parent });
  expect(result.code, result.stderr).toBe(0);
  root = path.join(parent, 'wiki-example');
});

afterAll(async () => {
  await mcp?.close();
});

describe('wiki init --example', () => {
  it('writes sources in raw/ and ten pages of the three types', async () => {
    expect((await readdir(path.join(root, 'raw'))).sort()).toEqual(['memex-notes.md', 'wiki-origins.md', 'zettelkasten-notes.md']);
    expect(await pagePaths()).toHaveLength(10);
  });

  it('status: every page counted, every source cited, the ingests in the log', async () => {
    const result = await runCli(['status', '--json'], { cwd: root });
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as { pages: { total: number; byType: Record<string, number> }; raw: { total: number; uncited: string[] }; recentLog: Array<{ op: string }> };
    expect(report.pages).toEqual({ total: 10, byType: { source: 3, concept: 3, entity: 4 } });
    expect(report.raw).toMatchObject({ total: 3, uncited: [] });
    expect(report.recentLog.filter((entry) => entry.op === 'ingest')).toHaveLength(3);
  });

  it('lint: no errors and no warnings (valid under the contract, every link resolves, no orphans)', async () => {
    const result = await runCli(['lint', '--no-llm', '--json'], { cwd: root });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ errors: 0, warnings: 0, findings: [] });
  });

  it('search finds the page on the subject first', async () => {
    const result = await runCli(['search', 'associative trail', '--json'], { cwd: root });
    expect(result.code).toBe(0);
    const answer = JSON.parse(result.stdout) as { results: Array<{ key: string }> };
    expect(answer.results[0]?.key).toBe('associative-trail');
  });

  it('graph: every page a node, linked, none orphaned', async () => {
    const result = await runCli(['graph', '--format', 'json', '--out', 'graph.json', '--json'], { cwd: root });
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.stdout) as { nodes: number; edges: number; orphans: number; missing: number };
    expect(summary).toMatchObject({ nodes: 10, orphans: 0, missing: 0 });
    expect(summary.edges).toBeGreaterThanOrEqual(20);
  });

  it('mcp serves the pages to a client', async () => {
    mcp = await connectWiki(root);
    const page = await mcp.json<{ key: string; frontmatter: { sources: string[] } }>('read_page', { key: 'memex' });
    expect(page).toMatchObject({ key: 'memex', frontmatter: { sources: ['raw/memex-notes.md'] } });
    const list = await mcp.json<{ total: number }>('list_pages');
    expect(list.total).toBe(10);
  });

  it('provenance: every page cites its sources, and every from-comment names real, non-empty lines of a listed source', async () => {
    let comments = 0;
    for (const page of await pagePaths()) {
      const text = await readFile(path.join(root, page), 'utf8');
      const sources = /^sources: \[(.*)\]$/m.exec(text)?.[1]?.split(', ') ?? [];
      expect(sources.length, page).toBeGreaterThan(0);
      for (const match of text.matchAll(/<!-- from: (raw\/[^#]+)#L(\d+)-(\d+) -->/g)) {
        comments += 1;
        const [, file = '', first = '0', last = '0'] = match;
        expect(sources, `${page} cites ${file}`).toContain(file);
        const lines = (await readFile(path.join(root, file), 'utf8')).split('\n');
        const start = Number(first);
        const end = Number(last);
        expect(start, `${page} ${match[0]}`).toBeGreaterThanOrEqual(1);
        expect(end, `${page} ${match[0]}`).toBeGreaterThanOrEqual(start);
        expect(end, `${page} ${match[0]}`).toBeLessThanOrEqual(lines.length);
        expect(lines.slice(start - 1, end).every((line) => line.trim() !== '' && !line.startsWith('#')), `${page} ${match[0]}`).toBe(true);
      }
    }
    expect(comments).toBeGreaterThanOrEqual(20);
  });

  it('the index is as the tool writes it (lint --fix leaves it unchanged) and the manifest knows every source', async () => {
    const index = await readFile(path.join(root, 'wiki/index.md'), 'utf8');
    const fixed = await runCli(['lint', '--fix', '--no-llm', '--json'], { cwd: root });
    expect(fixed.code).toBe(0);
    expect(await readFile(path.join(root, 'wiki/index.md'), 'utf8')).toBe(index);
    const manifest = await readSourceRecord(root);
    expect(Object.keys(manifest.sources).sort()).toEqual(['raw/memex-notes.md', 'raw/wiki-origins.md', 'raw/zettelkasten-notes.md']);
  });

  it('refuses to write over an existing workspace, naming the file, and writes nothing', async () => {
    await writeFile(path.join(root, 'raw/memex-notes.md'), 'my own notes');
    const refused = await runCli(['init', '--example', root]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/already exists/);
    expect(await readFile(path.join(root, 'raw/memex-notes.md'), 'utf8')).toBe('my own notes');
  });
});
