import { mkdir, mkdtemp, rename, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { LivePages, readServedPage } from '../../src/mcp/live-pages.js';
import { initWorkspace } from '../../src/operations/workspace/init.js';
import { stringField } from '../../src/wiki/page.js';
import { loadSchema } from '../../src/wiki/schema-loader.js';

let base: string;
let root: string;
let live: LivePages;

const page = (title: string, body = ''): string => `---\ntitle: ${title}\nsummary: About ${title}\n---\n${body}\n`;

async function put(file: string, text: string, mtime?: Date): Promise<void> {
  await mkdir(path.dirname(path.join(root, file)), { recursive: true });
  await writeFile(path.join(root, file), text);
  if (mtime) await utimes(path.join(root, file), mtime, mtime);
}

async function titleOf(key: string): Promise<string | undefined> {
  const found = (await live.current()).get(key);
  return found ? stringField(found.frontmatter, 'title') : undefined;
}

beforeEach(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'wiki-mcp-live-'));
  root = path.join(base, 'ws');
  await initWorkspace(root, { today: '2026-01-01' });
  await put('wiki/concepts/attention.md', page('Attention', 'See [[softmax]].'));
  await put('wiki/concepts/softmax.md', page('Softmax'));
  live = new LivePages(root, await loadSchema(root));
});

describe('LivePages', () => {
  it('reads every page under wiki/, index and log included', async () => {
    expect((await live.current()).keys()).toEqual(['attention', 'index', 'log', 'softmax']);
    expect((await live.current()).backlinks('softmax')).toEqual(['attention']);
  });

  it('follows edits, additions, removals and renames between calls', async () => {
    await live.current();
    await put('wiki/concepts/attention.md', page('Attention, edited', 'No links now.'));
    await put('wiki/entities/bert.md', page('BERT', 'Uses [[softmax]].'));
    await rm(path.join(root, 'wiki/concepts/softmax.md'));
    const index = await live.current();
    expect(stringField(index.get('attention')!.frontmatter, 'title')).toBe('Attention, edited');
    expect(index.has('softmax')).toBe(false);
    expect(index.backlinks('softmax')).toEqual(['bert']);
    await rename(path.join(root, 'wiki/entities/bert.md'), path.join(root, 'wiki/concepts/bert-model.md'));
    const renamed = await live.current();
    expect(renamed.has('bert')).toBe(false);
    expect(renamed.get('bert-model')?.path).toBe('wiki/concepts/bert-model.md');
  });

  it('re-reads a same-size rewrite whose mtime is too recent to prove anything', async () => {
    const recent = new Date(Date.now() - 500);
    await put('wiki/concepts/softmax.md', page('Softmax AAAA'), recent);
    expect(await titleOf('softmax')).toBe('Softmax AAAA');
    await put('wiki/concepts/softmax.md', page('Softmax BBBB'), recent);
    expect(await titleOf('softmax')).toBe('Softmax BBBB');
  });

  it('trusts an old, unchanged size and mtime without reading the file again', async () => {
    const old = new Date(Date.now() - 3_600_000);
    await put('wiki/concepts/softmax.md', page('Softmax AAAA'), old);
    expect(await titleOf('softmax')).toBe('Softmax AAAA');
    // Same size, mtime put back: indistinguishable by stat, so the cached page stands
    await put('wiki/concepts/softmax.md', page('Softmax BBBB'), old);
    expect(await titleOf('softmax')).toBe('Softmax AAAA');
    // while any stat change is noticed.
    await put('wiki/concepts/softmax.md', page('Softmax BBBB'), new Date(old.getTime() + 1000));
    expect(await titleOf('softmax')).toBe('Softmax BBBB');
  });

  it('serves no symbolic link, no hidden folder and nothing outside wiki/', async () => {
    await writeFile(path.join(root, '.env'), 'KEY=secret\n');
    await writeFile(path.join(base, 'outside.md'), page('Outside'));
    await symlink('../../.env', path.join(root, 'wiki/concepts/env-link.md'));
    await symlink(path.join(base, 'outside.md'), path.join(root, 'wiki/concepts/outside-link.md'));
    await symlink('../../raw', path.join(root, 'wiki/concepts/raw-dir'));
    await put('raw/paper.md', page('Paper'));
    await put('wiki/.obsidian/workspace.md', page('Obsidian state'));
    await put('wiki/.drafts/draft.md', page('Draft'));
    await put('.wiki/cache.md', page('Cache'));
    expect((await live.current()).keys()).toEqual(['attention', 'index', 'log', 'softmax']);
  });

  it('drops a page that is replaced by a symbolic link while the server runs', async () => {
    await live.current();
    await writeFile(path.join(root, '.env'), 'KEY=secret\n');
    await rm(path.join(root, 'wiki/concepts/softmax.md'));
    await symlink('../../.env', path.join(root, 'wiki/concepts/softmax.md'));
    expect((await live.current()).has('softmax')).toBe(false);
  });

  it('answers overlapping calls with the same, complete index', async () => {
    const [a, b, c] = await Promise.all([live.current(), live.current(), live.current()]);
    expect(a).toBe(b);
    expect(b).toBe(c);
    expect(c?.keys()).toEqual(['attention', 'index', 'log', 'softmax']);
  });
});

describe('readServedPage', () => {
  it.each([
    { name: 'a page', file: 'wiki/concepts/attention.md', served: true },
    { name: 'a missing page', file: 'wiki/concepts/nothing.md', served: false },
    { name: 'a raw file', file: 'raw/paper.md', served: false },
    { name: 'schema.md', file: 'schema.md', served: false },
    { name: '.env', file: '.env', served: false },
    { name: 'a link to .env under wiki/', file: 'wiki/concepts/env-link.md', served: false },
    { name: 'a link to raw/ under wiki/', file: 'wiki/concepts/raw-link.md', served: false },
    { name: 'a path escaping the root', file: 'wiki/../../outside.md', served: false },
    { name: 'a folder', file: 'wiki/concepts', served: false },
  ])('$name: served = $served', async ({ file, served }) => {
    await writeFile(path.join(root, '.env'), 'KEY=secret\n');
    await put('raw/paper.md', page('Paper'));
    await writeFile(path.join(base, 'outside.md'), page('Outside'));
    await symlink('../../.env', path.join(root, 'wiki/concepts/env-link.md'));
    await symlink('../../raw/paper.md', path.join(root, 'wiki/concepts/raw-link.md'));
    const text = await readServedPage(root, file);
    expect(text !== undefined).toBe(served);
    if (text !== undefined) expect(text).toContain('title: Attention');
  });
});
