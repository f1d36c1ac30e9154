import { isUtf8 } from 'node:buffer';

/**
 * Byte offset of the first byte that is not part of valid UTF-8, or undefined when all of
 * `bytes` is valid. A page holding such bytes (Latin-1, CP1252) would have them replaced
 * by U+FFFD if decoded and written back, so the tool leaves it alone and says where.
 */
export function invalidUtf8Offset(bytes: Uint8Array): number | undefined {
  if (isUtf8(bytes)) return undefined;
  let i = 0;
  while (i < bytes.length) {
    const length = sequenceLength(bytes, i);
    if (length === 0) return i;
    i += length;
  }
  return bytes.length;
}

/** Length of the well-formed UTF-8 sequence at `i` (RFC 3629: no overlongs, surrogates or values past U+10FFFF), 0 if none. */
function sequenceLength(bytes: Uint8Array, i: number): number {
  const lead = bytes[i] as number;
  if (lead < 0x80) return 1;
  const continuation = (at: number, low = 0x80, high = 0xbf): boolean => {
    const byte = bytes[at];
    return byte !== undefined && byte >= low && byte <= high;
  };
  if (lead >= 0xc2 && lead <= 0xdf) return continuation(i + 1) ? 2 : 0;
  if (lead >= 0xe0 && lead <= 0xef) {
    const [low, high] = lead === 0xe0 ? [0xa0, 0xbf] : lead === 0xed ? [0x80, 0x9f] : [0x80, 0xbf];
    return continuation(i + 1, low, high) && continuation(i + 2) ? 3 : 0;
  }
  if (lead >= 0xf0 && lead <= 0xf4) {
    const [low, high] = lead === 0xf0 ? [0x90, 0xbf] : lead === 0xf4 ? [0x80, 0x8f] : [0x80, 0xbf];
    return continuation(i + 1, low, high) && continuation(i + 2) && continuation(i + 3) ? 4 : 0;
  }
  return 0;
}

/** What to tell the user about a file that is not UTF-8. */
export function notUtf8Message(relPath: string, offset: number): string {
  return `${relPath} is not valid UTF-8 (first bad byte at offset ${offset}), so the tool does not rewrite it: a rewrite would replace those bytes`;
}

export const NOT_UTF8_FIX = 'convert the file to UTF-8 (e.g. `iconv -f latin1 -t utf-8 FILE > FILE.new && mv FILE.new FILE`)';
