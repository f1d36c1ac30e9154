import { link, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSearchIndex } from '../../../src/search/index.js';
import { readPage } from '../../../src/wiki/page-read.js';
import { TOPIC_PAGES, configWith, pageText, workspaceWith } from '../helpers.js';

/**
 * Issue 13, item 2: a hard link under wiki/ may carry a denied file's content (.env,
 * .git/config) or one from outside the workspace. Search never indexes it, never makes a
 * snippet or an embedding from it, and says which pages it left out so the user can copy them.
 */

const SECRET = 'zebra-hardlink-secret';
// Markdown with frontmatter, so that if it were indexed it would be found by its words.
const LEAKY = pageText('Leaky zebra', 'Zebra credentials', `zebra ${SECRET}`);

const TARGETS = [
  { what: '.env in the workspace', place: async (root: string) => ws(root, '.env') },
  { what: '.git/config in the workspace', place: async (root: string) => ws(root, '.git/config') },
  {
    what: 'a file outside the workspace',
    place: async () => {
      const outside = await mkdtemp(path.join(os.tmpdir(), 'wiki-outside-'));
      return path.join(outside, 'notes.md');
    },
  },
];

async function ws(root: string, relative: string): Promise<string> {
  await mkdir(path.dirname(path.join(root, relative)), { recursive: true });
  return path.join(root, relative);
}

describe.each(TARGETS)('a hard link under wiki/ to $what', ({ place }) => {
  it('is not indexed: no hit, no snippet, and info() names it', async () => {
    const w = await workspaceWith({ ...TOPIC_PAGES, 'wiki/concepts/zebra.md': pageText('Zebra', 'A striped animal', 'The zebra has stripes.') });
    const target = await place(w.root);
    await writeFile(target, LEAKY);
    await link(target, path.join(w.root, 'wiki/concepts/linked.md'));
    const index = await openSearchIndex(w.root, w.schema, configWith(), { env: {}, rescanAfterMs: 0 });
    const response = await index.search(`zebra ${SECRET}`, { limit: 50 });
    expect(response.results.map((r) => r.path)).not.toContain('wiki/concepts/linked.md');
    expect(JSON.stringify(response.results)).not.toContain(SECRET);
    expect(index.info().hardLinked).toEqual(['wiki/concepts/linked.md']);
    await index.close();
  });

  it('a page indexed before it became a hard link drops out at the next scan, snippet included', async () => {
    const w = await workspaceWith({ ...TOPIC_PAGES, 'wiki/concepts/linked.md': pageText('Zebra', 'A striped animal', 'zebra stripes') });
    const index = await openSearchIndex(w.root, w.schema, configWith(), { env: {}, rescanAfterMs: 0 });
    expect((await index.search('zebra')).results.map((r) => r.path)).toContain('wiki/concepts/linked.md');
    const target = await place(w.root);
    await writeFile(target, LEAKY);
    await rm(path.join(w.root, 'wiki/concepts/linked.md'));
    await link(target, path.join(w.root, 'wiki/concepts/linked.md'));
    const after = await index.search(`zebra ${SECRET}`, { limit: 50 });
    expect(after.results.map((r) => r.path)).not.toContain('wiki/concepts/linked.md');
    expect(JSON.stringify(after.results)).not.toContain(SECRET);
    await index.close();
  });
});

describe('readPage, the one way search reads a page', () => {
  it.each([
    { what: 'a regular page', links: false, expected: LEAKY },
    { what: 'a hard-linked page', links: true, expected: undefined },
  ])('$what → $expected', async ({ links, expected }) => {
    const w = await workspaceWith({ 'wiki/concepts/a.md': LEAKY });
    if (links) await link(path.join(w.root, 'wiki/concepts/a.md'), path.join(w.root, 'wiki/concepts/b.md'));
    expect(readPage(w.root, 'wiki/concepts/a.md')).toBe(expected);
  });

  it('never reads through a symbolic link', async () => {
    const w = await workspaceWith({ 'wiki/concepts/a.md': LEAKY });
    const { symlink } = await import('node:fs/promises');
    await symlink(path.join(w.root, 'wiki/concepts/a.md'), path.join(w.root, 'wiki/concepts/b.md'));
    expect(readPage(w.root, 'wiki/concepts/b.md')).toBeUndefined();
  });
});
