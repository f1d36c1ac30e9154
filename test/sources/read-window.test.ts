import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { assertTextFile, readTextWindow, type WindowOptions } from '../../src/sources/read-window.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'wiki-read-window-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function fileWith(name: string, content: string | Uint8Array): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, content);
  return file;
}

/** Read the whole file window by window, as ingest does. */
async function readAll(file: string, maxBytes: number, options?: WindowOptions) {
  const windows: Array<{ text: string; bytes: number }> = [];
  let offset: number | undefined = 0;
  while (offset !== undefined) {
    const window = await readTextWindow(file, offset, maxBytes, options);
    windows.push({ text: window.text, bytes: (window.nextOffset ?? window.totalBytes) - offset });
    expect(window.invalidUtf8).toBe(false);
    offset = window.nextOffset;
  }
  return windows;
}

/** Multi-megabyte text mixing 1-, 2-, 3- and 4-byte UTF-8 characters and lines of every length. */
function mixedText(targetBytes: number): string {
  const pieces = ['plain ascii words ', 'Zürich café ', '東京 大阪 ', '😀🚀 ', '€ – “quoted” ', '\n'];
  const parts: string[] = [];
  let bytes = 0;
  for (let i = 0; bytes < targetBytes; i++) {
    const piece = pieces[(i * 7 + (i >> 3)) % pieces.length] ?? '';
    parts.push(piece);
    bytes += Buffer.byteLength(piece);
  }
  return parts.join('');
}

describe('readTextWindow', () => {
  const original = mixedText(3 * 1024 * 1024);

  it.each([
    ['odd 64 KB windows, breaking at lines', 65_537, {}],
    ['odd 1 MB windows, breaking at lines', 1_000_003, {}],
    ['4 KB windows cut at characters only', 4096, { preferLineBreak: false }],
    ['7-byte windows cut at characters only', 7, { preferLineBreak: false }],
  ] as Array<[string, number, WindowOptions]>)('%s concatenate to the original with no broken character', async (_name, maxBytes, options) => {
    const file = await fileWith(`mixed-${maxBytes}.txt`, original);
    const sample = maxBytes < 100 ? original.slice(0, 20_000) : original;
    const sampleFile = sample === original ? file : await fileWith(`mixed-sample-${maxBytes}.txt`, sample);
    const windows = await readAll(sampleFile, maxBytes, options);
    expect(windows.map((w) => w.text).join('')).toBe(sample);
    for (const window of windows) {
      expect(window.text).not.toContain('\uFFFD');
      expect(window.bytes).toBeLessThanOrEqual(maxBytes);
      expect(Buffer.byteLength(window.text)).toBe(window.bytes);
    }
    expect(windows.length).toBeGreaterThanOrEqual(Math.ceil(Buffer.byteLength(sample) / maxBytes));
  });

  it('ends a window before a character that straddles its edge', async () => {
    // 'ab' + 4-byte emoji: a 4-byte window would cut the emoji after its second byte.
    const file = await fileWith('straddle.txt', 'ab😀cd');
    const first = await readTextWindow(file, 0, 4, { preferLineBreak: false });
    expect(first).toEqual({ text: 'ab', nextOffset: 2, totalBytes: 8, invalidUtf8: false });
    const second = await readTextWindow(file, 2, 4, { preferLineBreak: false });
    expect(second).toEqual({ text: '😀', nextOffset: 6, totalBytes: 8, invalidUtf8: false });
    const third = await readTextWindow(file, 6, 4, { preferLineBreak: false });
    expect(third).toEqual({ text: 'cd', nextOffset: undefined, totalBytes: 8, invalidUtf8: false });
  });

  it('still makes progress when one character is larger than the window', async () => {
    const file = await fileWith('wide.txt', '😀😀');
    expect(await readTextWindow(file, 0, 1)).toMatchObject({ text: '😀', nextOffset: 4 });
  });

  it('moves an offset that lands inside a character forward to the next one', async () => {
    const file = await fileWith('inside.txt', 'é漢x');
    expect(await readTextWindow(file, 1, 100)).toMatchObject({ text: '漢x', nextOffset: undefined });
    expect(await readTextWindow(file, 3, 100)).toMatchObject({ text: 'x' });
  });

  it('prefers to end a window after a newline when that keeps at least half of it', async () => {
    const file = await fileWith('lines.txt', 'first line\nsecond line\nthird');
    expect(await readTextWindow(file, 0, 20)).toMatchObject({ text: 'first line\n', nextOffset: 11 });
    // The only newline is too early in a 40-byte window: cut at the size instead.
    const late = await fileWith('late.txt', 'x\n' + 'y'.repeat(60));
    expect(await readTextWindow(late, 0, 40)).toMatchObject({ text: 'x\n' + 'y'.repeat(38), nextOffset: 40 });
  });

  it('drops a UTF-8 byte-order mark at the start of the file', async () => {
    const file = await fileWith('bom.txt', '\uFEFFhello');
    expect(await readTextWindow(file, 0, 100)).toEqual({ text: 'hello', nextOffset: undefined, totalBytes: 8, invalidUtf8: false });
  });

  it('flags bytes that are not UTF-8 and decodes them as replacement characters', async () => {
    const file = await fileWith('latin1.txt', Buffer.from('caf\xe9\n', 'latin1'));
    expect(await readTextWindow(file, 0, 100)).toEqual({ text: 'caf\uFFFD\n', nextOffset: undefined, totalBytes: 5, invalidUtf8: true });
  });

  it('returns an empty last window at or past the end', async () => {
    const file = await fileWith('short.txt', 'abc');
    expect(await readTextWindow(file, 3, 10)).toEqual({ text: '', nextOffset: undefined, totalBytes: 3, invalidUtf8: false });
  });

  it.each([
    [-1, 10],
    [0, 0],
    [1.5, 10],
  ])('rejects offset %s with window %s', async (offset, maxBytes) => {
    const file = await fileWith('any.txt', 'abc');
    await expect(readTextWindow(file, offset, maxBytes)).rejects.toBeInstanceOf(RangeError);
  });

  it('reads a window of a 50 MB file without reading the rest', async () => {
    const big = path.join(dir, 'big.txt');
    const line = 'Ligne numéro — 東京 😀 lorem ipsum dolor sit amet\n';
    // Written 1 MB at a time so no 50 MB buffer exists before the measurement.
    const chunk = Buffer.from(line.repeat(Math.ceil((1024 * 1024) / Buffer.byteLength(line))));
    const handle = await open(big, 'w');
    for (let i = 0; i < 50; i++) await handle.write(chunk);
    await handle.close();
    const before = process.memoryUsage().arrayBuffers;
    const window = await readTextWindow(big, 25 * 1024 * 1024 + 1, 256 * 1024);
    const grown = process.memoryUsage().arrayBuffers - before;
    expect(window.totalBytes).toBeGreaterThanOrEqual(50 * 1024 * 1024);
    expect(window.text).not.toContain('\uFFFD');
    expect(window.text.endsWith('\n')).toBe(true);
    expect(grown).toBeLessThan(16 * 1024 * 1024);
  });
});

describe('assertTextFile', () => {
  it('accepts text and reports its size', async () => {
    expect(await assertTextFile(await fileWith('ok.md', '# ok\n'), 'raw/ok.md')).toEqual({ totalBytes: 5 });
  });

  it.each([
    ['empty', '', 'raw/x.md is empty'],
    ['whitespace only', '  \n\n', 'raw/x.md is empty'],
    ['binary', Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00]), 'raw/x.md is a binary file; wiki reads text, markdown, PDF and HTML'],
  ])('refuses a %s file', async (name, content, message) => {
    const file = await fileWith(`bad-${name}.md`, content);
    const failure = assertTextFile(file, 'raw/x.md');
    await expect(failure).rejects.toBeInstanceOf(InputError);
    await expect(failure).rejects.toThrow(message);
  });

  it('refuses a missing file and a directory with InputError', async () => {
    await expect(assertTextFile(path.join(dir, 'nope.md'), 'raw/nope.md')).rejects.toThrow(new InputError('raw/nope.md does not exist'));
    await expect(assertTextFile(dir, 'raw')).rejects.toThrow(new InputError('raw is a directory, not a file'));
  });
});
