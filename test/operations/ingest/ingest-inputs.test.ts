import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { InputError } from '../../../src/errors.js';
import { checkReadable, copyIntoRaw, planInputs, readHead } from '../../../src/operations/ingest/ingest-inputs.js';
import { tempDir } from '../../helpers/cli.js';

/** `wiki ingest` arguments → sources: planning touches nothing, so a bad argument fails before any write. */

let root: string;
let outside: string;

beforeEach(async () => {
  root = await tempDir('wiki-inputs-');
  outside = await tempDir('wiki-outside-');
  await mkdir(path.join(root, 'raw/assets'), { recursive: true });
  await mkdir(path.join(root, 'raw/papers'), { recursive: true });
  await mkdir(path.join(root, 'wiki'), { recursive: true });
  await writeFile(path.join(root, 'raw/b.md'), '# B\n');
  await writeFile(path.join(root, 'raw/a.txt'), 'A\n');
  await writeFile(path.join(root, 'raw/papers/c.pdf'), '%PDF-1.4\n');
  await writeFile(path.join(root, 'raw/assets/figure.md'), 'an asset\n');
  await writeFile(path.join(root, 'raw/image.png'), 'not a source type\n');
  await writeFile(path.join(root, 'wiki/page.md'), '# page\n');
  await writeFile(path.join(outside, 'notes.md'), '# Notes\n');
});

describe('planInputs', () => {
  const cases: Array<{ name: string; args: (root: string, outside: string) => string[]; cwd?: 'root' | 'outside'; sources: Array<{ rawPath: string; copied?: boolean }>; urls?: string[] }> = [
    { name: 'a file under raw/ is used in place', args: () => ['raw/b.md'], sources: [{ rawPath: 'raw/b.md' }] },
    {
      name: 'a folder: its source files, sorted, raw/assets/ and unsupported types left out',
      args: () => ['raw'],
      sources: [{ rawPath: 'raw/a.txt' }, { rawPath: 'raw/b.md' }, { rawPath: 'raw/papers/c.pdf' }],
    },
    { name: 'a glob', args: () => ['raw/**/*.pdf'], sources: [{ rawPath: 'raw/papers/c.pdf' }] },
    { name: 'the same file twice is planned once', args: () => ['raw/b.md', 'raw/./b.md', 'raw/*.md'], sources: [{ rawPath: 'raw/b.md' }] },
    { name: 'an absolute path under raw/', args: (r) => [path.join(r, 'raw/b.md')], sources: [{ rawPath: 'raw/b.md' }] },
    { name: 'a file outside the workspace is planned as a copy into raw/', args: (_r, o) => [path.join(o, 'notes.md')], sources: [{ rawPath: 'raw/notes.md', copied: true }] },
    { name: 'relative to the current folder', args: () => ['notes.md'], cwd: 'outside', sources: [{ rawPath: 'raw/notes.md', copied: true }] },
    { name: 'http(s) URLs are kept for fetching', args: () => ['https://example.org/post', 'raw/b.md'], sources: [{ rawPath: 'raw/b.md' }], urls: ['https://example.org/post'] },
  ];

  it.each(cases)('$name', async ({ args, cwd, sources, urls }) => {
    const plan = await planInputs(root, args(root, outside), cwd === 'outside' ? outside : root);
    expect(plan.sources.map((s) => ({ rawPath: s.rawPath, ...(s.copiedFrom ? { copied: true } : {}) }))).toEqual(sources);
    expect(plan.urls).toEqual(urls ?? []);
  });

  const refused: Array<{ name: string; args: string[]; message: RegExp }> = [
    { name: 'no argument', args: [], message: /no source given/ },
    { name: 'a missing file', args: ['raw/missing.md'], message: /raw\/missing\.md: no such file/ },
    { name: 'a folder with nothing to ingest', args: ['raw/assets'], message: /is a folder with no source files in it/ },
    { name: 'a glob that matches nothing', args: ['raw/*.html'], message: /the pattern matches no source files/ },
    { name: 'a glob that matches only unsupported files', args: ['raw/*.png'], message: /the pattern matches no source files/ },
    { name: 'a page under wiki/', args: ['wiki/page.md'], message: /sources come from raw\/ or outside the workspace, not from wiki\// },
    { name: 'a URL scheme other than http(s)', args: ['ftp://example.org/file.md'], message: /only http and https URLs can be fetched/ },
    { name: 'one bad argument among good ones', args: ['raw/b.md', 'raw/missing.md'], message: /raw\/missing\.md: no such file/ },
  ];

  it.each(refused)('refuses $name with an InputError (exit 2)', async ({ args, message }) => {
    const attempt = planInputs(root, args, root);
    await expect(attempt).rejects.toBeInstanceOf(InputError);
    await expect(attempt).rejects.toThrow(message);
  });

  it('names an outside file after a different file already in raw/ with -2, and reuses the name for identical content', async () => {
    await writeFile(path.join(root, 'raw/notes.md'), '# Other notes\n');
    const different = await planInputs(root, [path.join(outside, 'notes.md')], root);
    expect(different.sources.map((s) => s.rawPath)).toEqual(['raw/notes-2.md']);

    await writeFile(path.join(root, 'raw/notes-2.md'), '# Notes\n');
    const identical = await planInputs(root, [path.join(outside, 'notes.md')], root);
    expect(identical.sources.map((s) => s.rawPath)).toEqual(['raw/notes-2.md']);
  });

  it('writes nothing', async () => {
    const before = await readdir(path.join(root, 'raw'));
    await planInputs(root, [path.join(outside, 'notes.md')], root);
    expect(await readdir(path.join(root, 'raw'))).toEqual(before);
  });
});

describe('copyIntoRaw', () => {
  it('copies planned outside files into place, leaving no temp file, and never overwrites', async () => {
    const plan = await planInputs(root, [path.join(outside, 'notes.md')], root);
    await copyIntoRaw(root, plan.sources);
    expect(await readFile(path.join(root, 'raw/notes.md'), 'utf8')).toBe('# Notes\n');
    expect((await readdir(path.join(root, 'raw'))).filter((name) => name.endsWith('.tmp'))).toEqual([]);

    await writeFile(path.join(outside, 'notes.md'), '# Changed outside\n');
    await copyIntoRaw(root, [{ rawPath: 'raw/notes.md', copiedFrom: path.join(outside, 'notes.md') }]);
    expect(await readFile(path.join(root, 'raw/notes.md'), 'utf8')).toBe('# Notes\n');
  });
});

describe('checkReadable', () => {
  it('refuses an empty or binary text source, and warns on text that is not UTF-8', async () => {
    await writeFile(path.join(root, 'raw/empty.md'), '');
    await writeFile(path.join(root, 'raw/blob.txt'), Buffer.from([1, 0, 2, 0, 3]));
    await writeFile(path.join(root, 'raw/latin.txt'), Buffer.from('caf\xe9\n', 'latin1'));
    await expect(checkReadable(root, { rawPath: 'raw/empty.md' })).rejects.toThrow(/raw\/empty\.md is empty/);
    await expect(checkReadable(root, { rawPath: 'raw/blob.txt' })).rejects.toThrow(/binary/);
    expect(await checkReadable(root, { rawPath: 'raw/latin.txt' })).toEqual([
      'raw/latin.txt is not valid UTF-8; decoded with replacement characters (their sentences are left out of the facts); if it is Latin-1, convert it first: iconv -f latin1 -t utf-8 raw/latin.txt > utf8.tmp && mv utf8.tmp raw/latin.txt',
    ]);
    expect(await checkReadable(root, { rawPath: 'raw/b.md' })).toEqual([]);
  });

  it('checks an outside file where it is, before it is copied', async () => {
    expect(await checkReadable(root, { rawPath: 'raw/notes.md', copiedFrom: path.join(outside, 'notes.md') })).toEqual([]);
  });
});

describe('readHead', () => {
  const cases: Array<{ name: string; text: string; max: number; head: string }> = [
    { name: 'a short file whole', text: 'abc', max: 10, head: 'abc' },
    { name: 'ASCII cut at the limit', text: 'abcdef', max: 4, head: 'abcd' },
    { name: 'a 2-byte character cut in half is dropped', text: 'abcé', max: 4, head: 'abc' },
    { name: 'a 3-byte character cut after 2 bytes is dropped', text: 'ab€x', max: 4, head: 'ab' },
    { name: 'a 4-byte character cut after 3 bytes is dropped', text: 'a😀x', max: 4, head: 'a' },
    { name: 'a character that just fits is kept', text: 'abé!', max: 4, head: 'abé' },
  ];

  it.each(cases)('$name', async ({ text, max, head }) => {
    const file = path.join(root, 'raw/head.txt');
    await writeFile(file, text);
    expect(Buffer.from(await readHead(file, max)).toString('utf8')).toBe(head);
  });
});
