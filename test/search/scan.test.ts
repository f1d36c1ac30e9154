import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { scanPages } from '../../src/search/scan.js';
import { listPagePaths } from '../../src/wiki/pages.js';
import { isSpecialPage } from '../../src/wiki/contract.js';
import { pageText, workspaceWith } from './helpers.js';

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

    const scanned = scanPages(ws.root, ws.schema.contract);
    const paths = scanned.map((s) => s.path).sort();
    expect(paths).toEqual(['wiki/concepts/a.md', 'wiki/entities/deep/b.md']);
    const expected = (await listPagePaths(ws.root)).filter((p) => !isSpecialPage(ws.schema.contract, p) && !p.endsWith('linked.md'));
    expect(paths).toEqual(expected);
    expect(scanned.every((s) => s.size === Buffer.byteLength(page) && s.mtimeMs > 0)).toBe(true);
  });
});
