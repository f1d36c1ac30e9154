import { readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { applyPatch, parsePatch } from 'diff';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DiskFs, OverlayFs } from '../../src/tools/workspace-fs.js';
import { call, makeContext, makeWorkspace, page, snapshotTree, type TempWorkspace } from './fixtures.js';

let ws: TempWorkspace;
beforeEach(async () => {
  ws = await makeWorkspace();
});
afterEach(async () => {
  await ws.cleanup();
});

const at = (relative: string) => path.join(ws.root, relative);

describe('DiskFs', () => {
  it('writes and appends by atomic replacement, leaving no temp files', async () => {
    const fs = new DiskFs(ws.root);
    await fs.writeText(at('wiki/new/page.md'), 'one\n');
    await fs.appendText(at('wiki/new/page.md'), 'two\n');
    await fs.appendText(at('wiki/new/fresh.md'), 'first\n');
    expect(await readFile(at('wiki/new/page.md'), 'utf8')).toBe('one\ntwo\n');
    expect(await readFile(at('wiki/new/fresh.md'), 'utf8')).toBe('first\n');
    expect((await readdir(at('wiki/new'))).sort()).toEqual(['fresh.md', 'page.md']);
  });

  it('reads byte ranges and reports kinds, including a dangling link', async () => {
    const fs = new DiskFs(ws.root);
    expect(Buffer.from(await fs.readBytes(at('raw/paper.md'), { start: 2, length: 9 })).toString()).toBe('Attention');
    await symlink('missing.md', at('raw/dangling.md'));
    expect(await fs.stat(at('raw/paper.md'))).toMatchObject({ kind: 'file', size: 50 });
    expect(await fs.stat(at('raw'))).toMatchObject({ kind: 'dir', size: 0 });
    expect(await fs.stat(at('raw/dangling.md'))).toMatchObject({ kind: 'symlink' });
    expect(await fs.stat(at('raw/none.md'))).toBeUndefined();
    expect(await fs.exists(at('raw/none.md'))).toBe(false);
  });
});

describe('OverlayFs (dry run)', () => {
  it('keeps writes in memory, reads them back, and leaves the disk byte-identical', async () => {
    const before = await snapshotTree(ws.base);
    const fs = new OverlayFs(ws.root);
    await fs.writeText(at('wiki/concepts/new.md'), 'new page\n');
    await fs.writeText(at('wiki/concepts/attention.md'), 'replaced\n');
    await fs.appendText(at('wiki/log.md'), '## [2026-01-02] ingest | Paper\n');
    expect(await fs.readText(at('wiki/concepts/new.md'))).toBe('new page\n');
    expect(Buffer.from(await fs.readBytes(at('wiki/concepts/new.md'), { start: 4, length: 4 })).toString()).toBe('page');
    expect(await fs.stat(at('wiki/concepts/new.md'))).toMatchObject({ kind: 'file', size: 9 });
    expect(await fs.readText(at('raw/paper.md'))).toContain('Attention');
    expect(await snapshotTree(ws.base)).toEqual(before);
  });

  it('records each file once with its original before-image', async () => {
    const original = await readFile(at('wiki/concepts/attention.md'), 'utf8');
    const log = await readFile(at('wiki/log.md'), 'utf8');
    const fs = new OverlayFs(ws.root);
    await fs.writeText(at('wiki/concepts/attention.md'), 'first\n');
    await fs.writeText(at('wiki/concepts/attention.md'), 'second\n');
    await fs.writeText(at('wiki/concepts/new.md'), 'new\n');
    await fs.appendText(at('wiki/log.md'), 'a\n');
    await fs.appendText(at('wiki/log.md'), 'b\n');
    await fs.writeText(at('wiki/index.md'), await readFile(at('wiki/index.md'), 'utf8'));
    expect(fs.changes()).toEqual([
      { path: 'wiki/concepts/attention.md', before: original, after: 'second\n' },
      { path: 'wiki/concepts/new.md', before: undefined, after: 'new\n' },
      { path: 'wiki/log.md', before: log, after: `${log}a\nb\n` },
    ]);
  });

  it('produces a unified diff that turns each before into its after', async () => {
    const fs = new OverlayFs(ws.root);
    await fs.writeText(at('wiki/concepts/attention.md'), page('Attention', 'Rewritten summary'));
    await fs.writeText(at('wiki/concepts/new.md'), 'brand new\n');
    const diff = fs.unifiedDiff();
    expect(diff).toContain('--- a/wiki/concepts/attention.md\n+++ b/wiki/concepts/attention.md\n');
    expect(diff).toContain('--- /dev/null\n+++ b/wiki/concepts/new.md\n@@ -0,0 +1,1 @@\n+brand new\n');
    expect(diff).not.toContain('====');
    const patches = parsePatch(diff);
    expect(patches).toHaveLength(2);
    for (const change of fs.changes()) {
      const patch = patches.find((p) => p.newFileName === `b/${change.path}`);
      expect(patch).toBeDefined();
      expect(applyPatch(change.before ?? '', patch!)).toBe(change.after);
    }
  });

  it('keys files the same whether given through a symlinked root or the real one', async () => {
    const linked = path.join(ws.base, 'linked');
    await symlink(ws.root, linked);
    const fs = new OverlayFs(linked);
    await fs.writeText(path.join(ws.root, 'wiki/a.md'), 'via real\n');
    expect(await fs.readText(path.join(linked, 'wiki/a.md'))).toBe('via real\n');
    expect(fs.changes().map((c) => c.path)).toEqual(['wiki/a.md']);
  });

  it('refuses to write over a directory, as the disk would', async () => {
    const fs = new OverlayFs(ws.root);
    await expect(fs.writeText(at('wiki/concepts'), 'x')).rejects.toMatchObject({ code: 'EISDIR' });
  });

  it('runs the tools end to end without changing the workspace', async () => {
    await writeFile(at('wiki/log.md'), '# Log\n');
    const before = await snapshotTree(ws.base);
    const fs = new OverlayFs(ws.root);
    const { tools } = makeContext(ws, { fs });
    const content = page('Transformer', 'Built on attention');
    expect((await call(tools, 'write_file', { path: 'wiki/concepts/transformer.md', content })).isError).toBe(false);
    expect((await call(tools, 'append_to_file', { path: 'wiki/concepts/transformer.md', content: 'More.' })).isError).toBe(false);
    const reread = await call(tools, 'read_file', { path: 'wiki/concepts/transformer.md' });
    expect(reread.content).toContain('title: Transformer');
    expect(await snapshotTree(ws.base)).toEqual(before);
    expect(fs.unifiedDiff()).toBe(
      `--- /dev/null\n+++ b/wiki/concepts/transformer.md\n@@ -0,0 +1,8 @@\n${`${content}More.\n`.trimEnd().split('\n').map((l) => `+${l}`).join('\n')}\n`,
    );
  });
});
