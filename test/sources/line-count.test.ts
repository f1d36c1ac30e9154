import { mkdtemp, mkdir, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rawContentLines, rawLineCounter } from '../../src/sources/line-count.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'wiki-line-count-'));
  await mkdir(path.join(root, 'raw'));
});
afterEach(() => rm(root, { recursive: true, force: true }));

describe('rawContentLines and rawLineCounter', () => {
  it.each([
    ['an empty file has one line', '', [false]],
    ['a last line without a newline counts', 'a\nb', [true, true]],
    ['a final newline adds no line', 'a\n\nb\n', [true, false, true]],
    ['blank and space-only lines hold no text', '  \n\tx\n\n', [false, true, false]],
    ['CRLF lines are lines', 'a\r\n\r\nb', [true, false, true]],
  ])('%s', async (_name, text, lines) => {
    await writeFile(path.join(root, 'raw/a.md'), text);
    const reader = rawContentLines(root);
    expect(reader('raw/a.md')).toEqual(lines);
    expect(rawLineCounter(reader)('raw/a.md')).toBe(lines.length);
  });

  it('extracted, missing and directory paths have no lines', async () => {
    await writeFile(path.join(root, 'raw/a.pdf'), '%PDF-1.4\n');
    const reader = rawContentLines(root);
    for (const rawPath of ['raw/a.pdf', 'raw/missing.md', 'raw']) expect(reader(rawPath)).toBeUndefined();
  });

  it('reads a file once for its count and its lines, and again when its size or time changes', async () => {
    const file = path.join(root, 'raw/a.md');
    const then = new Date('2026-01-02T03:04:05Z');
    await writeFile(file, 'one\ntwo\n');
    await utimes(file, then, then);
    const reader = rawContentLines(root);
    const count = rawLineCounter(reader);
    expect(reader('raw/a.md')).toEqual([true, true]);
    // Same size, same time: a reader that read again would see three lines.
    await writeFile(file, 'o\nt\nw\n\n\n');
    await utimes(file, then, then);
    expect(count('raw/a.md')).toBe(2);
    await utimes(file, then, new Date(then.getTime() + 5000));
    expect(count('raw/a.md')).toBe(5);
    expect(reader('raw/a.md')).toEqual([true, true, true, false, false]);
  });
});
