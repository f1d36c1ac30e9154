import { describe, expect, it } from 'vitest';
import { invalidUtf8Offset } from '../../src/util/utf8.js';

describe('invalidUtf8Offset', () => {
  const cases: Array<{ name: string; bytes: number[] | string; offset: number | undefined }> = [
    { name: 'ASCII', bytes: 'plain text', offset: undefined },
    { name: 'valid multi-byte UTF-8', bytes: 'café — 𝄞', offset: undefined },
    { name: 'Latin-1 é after ASCII', bytes: [0x63, 0x61, 0x66, 0xe9, 0x0a], offset: 3 },
    { name: 'a lone continuation byte', bytes: [0x41, 0x80], offset: 1 },
    { name: 'an overlong encoding of "/"', bytes: [0xc0, 0xaf], offset: 0 },
    { name: 'an encoded surrogate', bytes: [0x41, 0xed, 0xa0, 0x80], offset: 1 },
    { name: 'a sequence cut off at the end', bytes: [0x41, 0x42, 0xe2, 0x82], offset: 2 },
    { name: 'past U+10FFFF', bytes: [0xf4, 0x90, 0x80, 0x80], offset: 0 },
  ];
  it.each(cases)('$name → $offset', ({ bytes, offset }) => {
    const data = typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : Uint8Array.from(bytes);
    expect(invalidUtf8Offset(data)).toBe(offset);
  });
});
