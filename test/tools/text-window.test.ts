import { describe, expect, it } from 'vitest';
import { byteWindow, decodeText, looksBinary, numberLines, textWindow } from '../../src/tools/text-window.js';

const utf8 = (s: string) => new TextEncoder().encode(s);

/** Deterministic noise without NUL bytes, like compressed data that happens to lack zeros. */
function noise(length: number): Uint8Array {
  let state = 12345;
  return Uint8Array.from({ length }, () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return 1 + (state % 255);
  });
}

describe('looksBinary', () => {
  it.each([
    ['plain text', utf8('hello\nworld\n'), false],
    ['empty', new Uint8Array(), false],
    ['text with a tab and an ANSI escape', utf8('a\tb \u001b[1mbold\n'), false],
    ['a NUL byte', Uint8Array.from([104, 105, 0, 33]), true],
    ['mostly control bytes', Uint8Array.from({ length: 100 }, (_, i) => (i % 2 ? 1 : 65)), true],
    ['Latin-1 with a few accents', Uint8Array.from(Buffer.from('caf\xe9 au lait, cr\xe8me br\xfbl\xe9e', 'latin1')), false],
    ['random bytes without NUL', noise(4096), true],
    ['UTF-16 with a byte-order mark', Uint8Array.from(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('hi', 'utf16le')])), false],
  ])('%s → %s', (_name, bytes, expected) => {
    expect(looksBinary(bytes)).toBe(expected);
  });
});

describe('decodeText', () => {
  it('strips a UTF-8 byte-order mark and counts replacements', () => {
    expect(decodeText(Uint8Array.from([0xef, 0xbb, 0xbf, 0x61]))).toEqual({ text: 'a', replaced: 0 });
    expect(decodeText(Uint8Array.from([0x61, 0xff, 0x62, 0xfe]))).toEqual({ text: 'a\uFFFDb\uFFFD', replaced: 2 });
  });
});

describe('textWindow', () => {
  it('reports line numbers of the window and of the whole text', () => {
    expect(textWindow('a\nb\nc\n', 2, 2)).toEqual({ start: 2, end: 4, total: 6, text: 'b\n', lines: { first: 2, last: 2, total: 3 }, midLine: false });
    expect(textWindow('a\nb', 0, 10).lines).toEqual({ first: 1, last: 2, total: 2 });
  });
  it('moves an offset inside a surrogate pair forward (deep inside a long line, where it is not moved back)', () => {
    expect(textWindow(`${'a'.repeat(100)}😀x`, 101, 8)).toMatchObject({ text: 'x', midLine: true });
  });
  it('moves an offset a little inside a line back to the line start; one deep inside a long line stays, marked mid-line', () => {
    expect(textWindow('first line\nsecond line\n', 14, 20)).toMatchObject({ start: 11, text: 'second line\n', lines: { first: 2, last: 2 }, midLine: false });
    expect(textWindow(`${'word '.repeat(100)}\n`, 300, 40)).toMatchObject({ start: 300, midLine: true, lines: { first: 1 } });
    // The offsets the tool itself gives (after a line cut at a space) are never moved back: no window repeats.
    const text = `${'word '.repeat(100)}\n`;
    const first = textWindow(text, 0, 40);
    expect(textWindow(text, first.end, 40).start).toBe(first.end);
  });
  it('ends after the last whole line that fits', () => {
    const text = 'first line\nsecond line\nthird line\n'.repeat(10);
    const window = textWindow(text, 0, 30);
    expect(window.text).toBe('first line\nsecond line\n');
    expect(window.lines).toMatchObject({ first: 1, last: 2 });
    expect(textWindow(text, window.end, 30).text.startsWith('third line\n')).toBe(true);
  });
  it('cuts a line longer than half a window at a space, never inside a word', () => {
    const text = 'Abstract generic types are proposed here. '.repeat(20);
    const window = textWindow(text, 0, 100);
    expect(window.text.endsWith(' ')).toBe(true);
    expect(text.slice(window.end).startsWith('Abstract') || /^\w+/.test(text.slice(window.end))).toBe(true);
    expect(/\w$/.test(text.slice(0, window.end).trimEnd()) && !/\w/.test(text[window.end - 1] ?? '')).toBe(true);
  });
  it('takes in a tail shorter than a quarter of a window, and leaves a longer one for the next', () => {
    const line = 'x'.repeat(9) + '\n';
    expect(textWindow(line.repeat(12), 0, 100).end).toBe(120);
    expect(textWindow(line.repeat(13), 0, 100).end).toBe(100);
  });
  it('cuts a text with no space or newline at the limit', () => {
    expect(textWindow('y'.repeat(500), 0, 100).end).toBe(100);
  });
});

describe('numberLines', () => {
  it('leads every line with its number and │, keeping a final newline', () => {
    expect(numberLines('a\nb\n', 7)).toBe('7\u2502a\n8\u2502b\n');
    expect(numberLines('partial', 3)).toBe('3\u2502partial');
    expect(numberLines('a\n\nb', 1)).toBe('1\u2502a\n2\u2502\n3\u2502b');
  });
});

describe('byteWindow', () => {
  const bytes = utf8('aé☕😀z');
  // a=1 byte, é=2, ☕=3, 😀=4, z=1 → offsets 0,1,3,6,10

  it.each([
    [0, 2, 'a', 0, 1],
    [0, 3, 'aé', 0, 3],
    [2, 4, '☕', 3, 6],
    [1, 9, 'é☕😀', 1, 10],
    [4, 7, '😀z', 6, 11],
  ])('offset %i, %i bytes → %j (bytes %i-%i)', (offset, length, text, start, end) => {
    const chunk = bytes.subarray(offset, offset + length);
    const window = byteWindow(chunk, offset, offset + chunk.length >= bytes.length);
    expect(window).toEqual({ start, end, text, replaced: 0 });
  });

  it('joins consecutive windows into the exact text', () => {
    const text = 'Ωmega café ☕ — 😀 '.repeat(50);
    const all = utf8(text);
    for (const size of [4, 5, 7, 13]) {
      let offset = 0;
      let joined = '';
      while (offset < all.length) {
        const chunk = all.subarray(offset, offset + size);
        const window = byteWindow(chunk, offset, offset + chunk.length >= all.length);
        expect(window.start).toBe(offset);
        joined += window.text;
        offset = window.end;
      }
      expect(joined).toBe(text);
    }
  });
});
