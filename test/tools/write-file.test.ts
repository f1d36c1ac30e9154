import { readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, makeContext, makeWorkspace, page, snapshotTree, type TempWorkspace } from './fixtures.js';

let ws: TempWorkspace;
beforeEach(async () => {
  ws = await makeWorkspace();
});
afterEach(async () => {
  await ws.cleanup();
});

const read = (relative: string) => readFile(path.join(ws.root, relative), 'utf8');

describe('write_file', () => {
  it('creates a page atomically, indexes it at once and tells the observer', async () => {
    const { tools, ports } = makeContext(ws);
    const content = page('Transformer', 'An architecture built on attention');
    const result = await call(tools, 'write_file', { path: 'wiki/concepts/transformer.md', content });
    expect(result).toEqual({
      content: `created wiki/concepts/transformer.md (${content.length} characters)`,
      isError: false,
      changed: [{ path: 'wiki/concepts/transformer.md', change: 'created' }],
    });
    expect(await read('wiki/concepts/transformer.md')).toBe(content);
    expect(ports.upserts).toEqual([{ path: 'wiki/concepts/transformer.md', content }]);
    expect(ports.events).toEqual(['before wiki/concepts/transformer.md absent', 'after wiki/concepts/transformer.md created']);
    const leftovers = (await snapshotTree(ws.root)).keys();
    expect([...leftovers].filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('updates an existing page, creates missing folders and reports warnings', async () => {
    const { tools, ports } = makeContext(ws);
    const updated = await call(tools, 'write_file', { path: 'wiki/concepts/attention.md', content: page('Attention', 'New summary', 'WARN\n') });
    expect(updated.content).toBe(`updated wiki/concepts/attention.md (${page('Attention', 'New summary', 'WARN\n').length} characters)\nwarning: a warning`);
    expect(updated.changed).toEqual([{ path: 'wiki/concepts/attention.md', change: 'updated' }]);
    expect(ports.events[0]).toBe('before wiki/concepts/attention.md present');
    const nested = await call(tools, 'write_file', { path: 'wiki/entities/people/vaswani.md', content: page('Vaswani', 'An author') });
    expect(nested.isError).toBe(false);
    expect(await read('wiki/entities/people/vaswani.md')).toContain('title: Vaswani');
  });

  it('validates before touching the disk and rejects with every reason, writing nothing', async () => {
    const before = await snapshotTree(ws.base);
    let existedAtValidation: boolean | undefined;
    const { tools, ports, ctx } = makeContext(ws);
    const inner = ctx.validator;
    ctx.validator = {
      async validate(p, content) {
        existedAtValidation = await ctx.fs.exists(path.join(ws.root, p));
        return inner.validate(p, content);
      },
    };
    const content = page('Bad', 'Broken', 'see [[missing]] INVALID one\nand INVALID two\n');
    const result = await call(tools, 'write_file', { path: 'wiki/concepts/bad.md', content });
    expect(existedAtValidation).toBe(false);
    expect(result.isError).toBe(true);
    expect(result.content).toBe(
      'rejected: wiki/concepts/bad.md was not written. Fix every point below and call write_file again with the whole page:\n' +
        '- bad line: see [[missing]] INVALID one\n- bad line: and INVALID two',
    );
    expect(ports.upserts).toEqual([]);
    expect(ports.events).toEqual([]);
    expect(await snapshotTree(ws.base)).toEqual(before);
  });

  it('leaves an identical page alone', async () => {
    const { tools, ports } = makeContext(ws);
    const same = await read('wiki/concepts/attention.md');
    const result = await call(tools, 'write_file', { path: 'wiki/concepts/attention.md', content: same });
    expect(result).toEqual({ content: 'unchanged: wiki/concepts/attention.md already has exactly this content', isError: false });
    expect(ports.events).toEqual([]);
  });

  it.each([
    ['wiki/index.md', /maintained by the tool: it is regenerated/],
    ['wiki/log.md', /written by the tool alone: every run adds exactly one entry/],
    ['wiki/concepts/notes.txt', /must end in \.md/],
    ['wiki/concepts', /must end in \.md/],
    ['wiki/loose.md', /outside the page folders/],
    ['wiki/other/page.md', /outside the page folders/],
  ])('refuses %s', async (target, message) => {
    const before = await snapshotTree(ws.base);
    const { tools, ports } = makeContext(ws);
    const result = await call(tools, 'write_file', { path: target, content: page('X', 'Y') });
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(message);
    expect(ports.validations).toEqual([]);
    expect(await snapshotTree(ws.base)).toEqual(before);
  });

  it('refuses a directory that happens to end in .md', async () => {
    const { tools } = makeContext(ws);
    await call(tools, 'write_file', { path: 'wiki/concepts/folder.md/inner.md', content: page('Inner', 'Inside') });
    const result = await call(tools, 'write_file', { path: 'wiki/concepts/folder.md', content: page('Folder', 'Dir') });
    expect(result.isError).toBe(true);
    expect(result.content).toContain('wiki/concepts/folder.md is a directory');
  });

  it('asks for the real file instead of writing through a link inside wiki/', async () => {
    await symlink('concepts/attention.md', path.join(ws.root, 'wiki/alias.md'));
    const before = await snapshotTree(ws.base);
    const { tools } = makeContext(ws);
    const result = await call(tools, 'write_file', { path: 'wiki/alias.md', content: page('Alias', 'Linked') });
    expect(result.content).toBe('refused: wiki/alias.md is a symbolic link to wiki/concepts/attention.md; write wiki/concepts/attention.md itself');
    expect(await snapshotTree(ws.base)).toEqual(before);
  });

  it('writes nothing when the history hook fails, and still succeeds when indexing fails', async () => {
    const failingHistory = makeContext(ws, { observer: { beforeWrite: () => Promise.reject(new Error('disk full in .wiki')) } });
    const before = await snapshotTree(ws.base);
    const refused = await call(failingHistory.tools, 'write_file', { path: 'wiki/concepts/new.md', content: page('New', 'Page') });
    expect(refused).toEqual({ content: 'write_file failed, wiki/concepts/new.md was not written: disk full in .wiki', isError: true });
    expect(await snapshotTree(ws.base)).toEqual(before);

    const failingSearch = makeContext(ws, { search: { search: async () => ({ results: [] }), upsert: () => Promise.reject(new Error('index locked')) } });
    const written = await call(failingSearch.tools, 'write_file', { path: 'wiki/concepts/new.md', content: page('New', 'Page') });
    expect(written.isError).toBe(false);
    expect(written.content).toContain('note: the search index was not updated (index locked)');
    expect(await read('wiki/concepts/new.md')).toBe(page('New', 'Page'));
  });
});

describe('append_to_file', () => {
  it.each([
    ['wiki/log.md', '## [2026-01-02] ingest | Forged\n- run: ingest-2026', /written by the tool alone/],
    ['wiki/index.md', '- [[x]]', /maintained by the tool/],
    ['wiki/concepts/notes.txt', 'text', /only markdown pages can be written/],
    ['wiki/changes.md', 'free text', /outside the page folders; put the page in one of wiki\/sources\/, wiki\/concepts\/, wiki\/entities\//],
    ['wiki/concepts/new-page.md', 'text', /does not exist; create the page with write_file/],
  ])('refuses to append to %s, changing nothing', async (target, content, message) => {
    await writeFile(path.join(ws.root, 'wiki/log.md'), '# Log\n');
    const before = await snapshotTree(ws.base);
    const { tools, ports } = makeContext(ws);
    const result = await call(tools, 'append_to_file', { path: target, content });
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(message);
    expect(ports.events).toEqual([]);
    expect(await snapshotTree(ws.base)).toEqual(before);
  });

  it('mentions neither the log nor the index in any tool description', () => {
    const { tools } = makeContext(ws);
    for (const tool of Object.values(tools)) expect(JSON.stringify(tool.definition)).not.toMatch(/log\.md/);
  });

  it('validates the whole page after the append and rejects an invalid result, writing nothing', async () => {
    const { tools, ports } = makeContext(ws);
    const before = await snapshotTree(ws.base);
    const bad = await call(tools, 'append_to_file', { path: 'wiki/concepts/attention.md', content: 'INVALID addition' });
    expect(bad.isError).toBe(true);
    expect(bad.content).toContain('rejected: nothing was appended to wiki/concepts/attention.md');
    expect(bad.content).toContain('- bad line: INVALID addition');
    expect(await snapshotTree(ws.base)).toEqual(before);

    const original = await read('wiki/concepts/attention.md');
    const good = await call(tools, 'append_to_file', { path: 'wiki/concepts/attention.md', content: 'More text.' });
    expect(good.isError).toBe(false);
    const whole = `${original}More text.\n`;
    expect(await read('wiki/concepts/attention.md')).toBe(whole);
    expect(ports.validations.at(-1)).toEqual({ path: 'wiki/concepts/attention.md', content: whole });
    expect(ports.upserts).toEqual([{ path: 'wiki/concepts/attention.md', content: whole }]);
  });

  it('refuses the index and empty content', async () => {
    const { tools } = makeContext(ws);
    expect((await call(tools, 'append_to_file', { path: 'wiki/index.md', content: '- [[x]]' })).content).toMatch(/maintained by the tool/);
    expect((await call(tools, 'append_to_file', { path: 'wiki/concepts/attention.md', content: '  \n' })).content).toBe('content is empty; give the text to append');
  });
});

describe('observer notes (human edits)', () => {
  it('shows the observer\'s note for a path with reads and writes, and survives a failing observer', async () => {
    const note = 'edited by hand since the tool last wrote it: keep the human\'s content';
    const { tools } = makeContext(ws, { observer: { noteFor: (p) => (p === 'wiki/concepts/attention.md' ? note : undefined) } });
    expect((await call(tools, 'read_file', { path: 'wiki/concepts/attention.md' })).content.split('\n')[0]).toContain(`; ${note}]`);
    expect((await call(tools, 'read_file', { path: 'raw/paper.md' })).content).not.toContain(note);
    const written = await call(tools, 'write_file', { path: 'wiki/concepts/attention.md', content: page('Attention', 'Rewritten') });
    expect(written.content).toContain(`note: ${note}`);
    const broken = makeContext(ws, { observer: { noteFor: () => Promise.reject(new Error('history unreadable')) } });
    expect((await call(broken.tools, 'read_file', { path: 'raw/paper.md' })).isError).toBe(false);
  });
});
