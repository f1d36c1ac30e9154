import { renameSync, symlinkSync } from 'node:fs';
import { link, mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { configSchema } from '../../../src/config/schema.js';
import { initWorkspace } from '../../../src/operations/workspace/init.js';
import { lintWorkspace } from '../../../src/operations/lint/lint.js';
import { loadSchema } from '../../../src/wiki/schema-loader.js';

/**
 * What lint reads: pages only through the one page reader (never through a link, never a
 * hard link), so nothing outside the workspace reaches its report, its repairs or the
 * model's review; the pages it will not read are reported, not silently skipped.
 */
const afterListing = vi.hoisted(() => ({ hook: undefined as (() => void) | undefined }));
vi.mock('../../../src/wiki/page-files.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../src/wiki/page-files.js')>();
  return {
    ...real,
    listPageFiles: (...args: Parameters<typeof real.listPageFiles>) => {
      const listed = real.listPageFiles(...args);
      const hook = afterListing.hook;
      afterListing.hook = undefined;
      hook?.();
      return listed;
    },
  };
});

const config = configSchema.parse({});
const SECRET = 'outside-the-workspace-secret';
const PAGE = (summary: string): string => `---\ntitle: Attention\nsummary: ${summary}\ntype: concept\n---\n\nBody.\n`;

async function workspaceBesideOutside(): Promise<{ root: string; outside: string }> {
  const parent = await mkdtemp(path.join(os.tmpdir(), 'wiki-lint-reads-'));
  const root = path.join(parent, 'ws');
  const outside = path.join(parent, 'outside');
  await initWorkspace(root);
  await mkdir(outside);
  await writeFile(path.join(root, 'wiki/concepts/attention.md'), PAGE('Inside.'));
  await writeFile(path.join(outside, 'attention.md'), PAGE(SECRET));
  return { root, outside };
}

describe('lint reads pages through the page reader', () => {
  it('reads nothing through a folder swapped for a link between listing and reading, and says so', async () => {
    const { root, outside } = await workspaceBesideOutside();
    // The swap happens inside the listing's return, before any page is read.
    afterListing.hook = () => {
      renameSync(path.join(root, 'wiki/concepts'), path.join(root, 'wiki/concepts-moved'));
      symlinkSync(outside, path.join(root, 'wiki/concepts'));
    };
    const report = await lintWorkspace(root, await loadSchema(root), config, { fix: false });
    expect(JSON.stringify(report)).not.toContain(SECRET);
    expect(report.findings).toContainEqual(expect.objectContaining({ rule: 'unreadable-page', path: 'wiki/concepts/attention.md', severity: 'error', message: expect.stringMatching(/led outside the workspace/) }));
  });

  it.each([
    ['a hard link to a file outside', 'wiki/concepts/linked.md', 'unreadable-page', (root: string, outside: string) => link(path.join(outside, 'attention.md'), path.join(root, 'wiki/concepts/linked.md'))],
    ['a symbolic link named as a page', 'wiki/concepts/linked.md', 'unreadable-page', (root: string, outside: string) => symlink(path.join(outside, 'attention.md'), path.join(root, 'wiki/concepts/linked.md'))],
    ['a symbolic link to a folder of pages', 'wiki/linked', 'linked-folder', (root: string, outside: string) => symlink(outside, path.join(root, 'wiki/linked'))],
  ])('%s: reported (not skipped in silence), its content never read, and --fix leaves it', async (_name, where, rule, make) => {
    const { root, outside } = await workspaceBesideOutside();
    await make(root, outside);
    for (const fix of [false, true]) {
      const report = await lintWorkspace(root, await loadSchema(root), config, { fix });
      expect(JSON.stringify(report)).not.toContain(SECRET);
      expect(report.findings.filter((f) => f.path === where).map((f) => f.rule)).toEqual([rule]);
    }
  });
});
