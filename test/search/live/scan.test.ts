import { mkdir, readdir, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DocTable } from '../../../src/search/live/doc-table.js';
import { contentHash, pageDocument } from '../../../src/search/text/document.js';
import { diffAgainstDisk, scanPages } from '../../../src/search/live/scan.js';
import { listPagePaths } from '../../../src/wiki/pages.js';
import { isSpecialPage } from '../../../src/wiki/contract.js';
import { pageText, workspaceWith, type TestWorkspace } from '../helpers.js';

describe('scanPages', () => {
  it('lists the content pages listPagePaths lists, with their stats', async () => {
    const page = pageText('A', 'a', 'a');
    const ws = await workspaceWith({
      'wiki/concepts/a.md': page,
      'wiki/entities/deep/b.md': page,
      'wiki/.obsidian/c.md': page,
      'wiki/node_modules/d.md': page,
      'wiki/.hidden.md': page,
      'wiki/concepts/notes.txt': 'not a page',
    });
    await mkdir(path.join(ws.root, 'outside'), { recursive: true });
    await writeFile(path.join(ws.root, 'outside', 'e.md'), page);
    await symlink(path.join(ws.root, 'outside'), path.join(ws.root, 'wiki', 'linked-folder'));
    await symlink(path.join(ws.root, 'outside', 'e.md'), path.join(ws.root, 'wiki', 'concepts', 'linked.md'));

    const scanned = scanPages(ws.root, ws.schema.contract).files;
    const paths = scanned.map((s) => s.path).sort();
    expect(paths).toEqual(['wiki/concepts/a.md', 'wiki/entities/deep/b.md']);
    const expected = (await listPagePaths(ws.root)).filter((p) => !isSpecialPage(ws.schema.contract, p) && !p.endsWith('linked.md'));
    expect(paths).toEqual(expected);
    expect(scanned.every((s) => s.size === Buffer.byteLength(page) && s.mtimeMs > 0)).toBe(true);
  });

  it('tells, folder by folder and before stat-ing, how many markdown names it has listed (what starts a build worker early)', async () => {
    const page = pageText('A', 'a', 'a');
    const ws = await workspaceWith({
      'wiki/concepts/a.md': page,
      'wiki/concepts/b.md': page,
      'wiki/concepts/notes.txt': 'not a page',
      'wiki/entities/c.md': page,
    });
    const heard: number[] = [];
    scanPages(ws.root, ws.schema.contract, (names) => heard.push(names));
    // Folders are listed in directory order, so only the running totals' shape is fixed:
    // one report per folder, never decreasing, ending with every markdown name (index.md
    // and log.md included: they are names, not yet pages).
    const entries = await readdir(path.join(ws.root, 'wiki'), { recursive: true, withFileTypes: true });
    const folders = entries.filter((entry) => entry.isDirectory()).length;
    const markdown = entries.filter((entry) => entry.name.endsWith('.md')).length;
    expect(heard.length).toBe(1 + folders);
    expect(heard).toEqual([...heard].sort((a, b) => a - b));
    expect(heard.at(-1)).toBe(markdown);
    expect(markdown).toBeGreaterThanOrEqual(3);
  });
});

describe('diffAgainstDisk', () => {
  const PAGES: Record<string, string> = {
    'wiki/concepts/a.md': pageText('A', 'first', 'alpha'),
    'wiki/concepts/b.md': pageText('B', 'second', 'beta'),
    'wiki/entities/c.md': pageText('C', 'third', 'gamma'),
  };
  /** A table that saw every page as it is on disk now, long enough ago that no mtime is racy. */
  function indexed(ws: TestWorkspace): DocTable {
    const table = new DocTable();
    for (const file of scanPages(ws.root, ws.schema.contract).files) {
      table.insert(pageDocument(file.path, PAGES[file.path] ?? ''), file, file.mtimeMs + 60_000);
    }
    return table;
  }
  async function diff(ws: TestWorkspace, table: DocTable): Promise<{ upserts: string[]; touched: string[]; removed: string[] }> {
    const result = await diffAgainstDisk(ws.root, scanPages(ws.root, ws.schema.contract).files, table, contentHash);
    return { upserts: result.upserts.map((u) => `${u.isNew ? 'new' : 'changed'} ${u.path}`), touched: result.touched.map((t) => t.path), removed: result.removed };
  }

  it('finds nothing to do when every page is as indexed', async () => {
    const ws = await workspaceWith(PAGES);
    expect(await diff(ws, indexed(ws))).toEqual({ upserts: [], touched: [], removed: [] });
  });

  it('finds a page removed from disk', async () => {
    const ws = await workspaceWith(PAGES);
    const table = indexed(ws);
    await ws.remove('wiki/concepts/b.md');
    expect(await diff(ws, table)).toEqual({ upserts: [], touched: [], removed: ['wiki/concepts/b.md'] });
  });

  it('finds a page removed while another of the same count was added', async () => {
    const ws = await workspaceWith(PAGES);
    const table = indexed(ws);
    await ws.remove('wiki/concepts/b.md');
    await ws.write('wiki/concepts/d.md', pageText('D', 'fourth', 'delta'));
    expect(await diff(ws, table)).toEqual({ upserts: ['new wiki/concepts/d.md'], touched: [], removed: ['wiki/concepts/b.md'] });
  });

  it('reads a page whose stat moved: a new text is a change, the same text only a touch', async () => {
    const ws = await workspaceWith(PAGES);
    const table = indexed(ws);
    const later = new Date(Date.now() + 5_000);
    await ws.write('wiki/concepts/a.md', pageText('A', 'first', 'alpha, edited in place'));
    await utimes(path.join(ws.root, 'wiki/entities/c.md'), later, later);
    expect(await diff(ws, table)).toEqual({ upserts: ['changed wiki/concepts/a.md'], touched: ['wiki/entities/c.md'], removed: [] });
  });

  it('reads a same-size rewrite whose mtime did not move when that mtime is racy', async () => {
    const ws = await workspaceWith(PAGES);
    const before = await stat(path.join(ws.root, 'wiki/concepts/b.md'));
    const table = new DocTable();
    for (const file of scanPages(ws.root, ws.schema.contract).files) table.insert(pageDocument(file.path, PAGES[file.path] ?? ''), file, file.mtimeMs);
    await ws.write('wiki/concepts/b.md', pageText('B', 'second', 'bet4'));
    await utimes(path.join(ws.root, 'wiki/concepts/b.md'), before.atime, before.mtime);
    const result = await diff(ws, table);
    expect(result.upserts).toEqual(['changed wiki/concepts/b.md']);
    expect(result.removed).toEqual([]);
  });
});
