/**
 * Pure helpers for read_file: telling text from binary, decoding, and cutting a window out
 * of a text (offsets in characters) or out of a huge file's bytes (offsets in bytes)
 * without splitting a character.
 */

const SNIFF_BYTES = 64 * 1024;
/** Control characters are rare in any text; above this share the bytes are not text. */
const CONTROL_RATIO = 0.1;
/**
 * Bytes that are not UTF-8 become U+FFFD. Legacy-encoded text (Latin-1, CP1252) has some,
 * but random bytes turn about half into U+FFFD; the bar sits between the two.
 */
const REPLACEMENT_RATIO = 0.3;

/** NUL bytes, or many bytes that are not UTF-8 text, mark a binary file. */
export function looksBinary(bytes: Uint8Array): boolean {
  if (hasUtf16Bom(bytes)) return false;
  const sample = bytes.subarray(0, SNIFF_BYTES);
  if (sample.includes(0)) return true;
  if (sample.length === 0) return false;
  const text = new TextDecoder('utf-8').decode(sample);
  let controls = 0;
  let replacements = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0xfffd) replacements++;
    else if (code < 32 && code !== 9 && code !== 10 && code !== 12 && code !== 13 && code !== 27) controls++;
  }
  return controls / text.length > CONTROL_RATIO || replacements / text.length > REPLACEMENT_RATIO;
}

export interface DecodedText {
  text: string;
  /** Characters that were not valid in the encoding and became U+FFFD. */
  replaced: number;
}

/** Decode UTF-8 (or UTF-16 with a byte-order mark), replacing invalid bytes with U+FFFD. */
export function decodeText(bytes: Uint8Array): DecodedText {
  const encoding = bytes[0] === 0xff && bytes[1] === 0xfe ? 'utf-16le' : bytes[0] === 0xfe && bytes[1] === 0xff ? 'utf-16be' : 'utf-8';
  const text = new TextDecoder(encoding).decode(bytes);
  return { text, replaced: countReplacements(text) };
}

function hasUtf16Bom(bytes: Uint8Array): boolean {
  return (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
}

function countReplacements(text: string): number {
  let count = 0;
  for (let i = text.indexOf('\uFFFD'); i !== -1; i = text.indexOf('\uFFFD', i + 1)) count++;
  return count;
}

export interface TextWindow {
  start: number;
  end: number;
  total: number;
  text: string;
  /** 1-based line numbers of the window's first and last line, and the text's line count. */
  lines: { first: number; last: number; total: number };
  /** The window starts inside its first line (a line too long to go back to the start of). */
  midLine: boolean;
}

/** A tail shorter than this share of a window joins the window before it: no round trip for a few lines. */
const TAIL_SHARE = 0.25;

/**
 * About `limit` characters of `text` from `offset`, cut where a reader can resume cleanly:
 * after the last whole line that fits (a line longer than half a window is cut at a space),
 * never inside a surrogate pair; a tail shorter than a quarter of a window is included, so a
 * window may run to 1.25 × `limit`. The next window starts at `end`.
 * An offset inside a line starts the window at that line's start when it is less than a
 * quarter of a window back (a played model read from an offset of its own mid-line, and the
 * window was labelled with that line's number); further back (a line cut at a space), the
 * window says it starts mid-line. Offsets this tool gives are never moved.
 */
export function textWindow(text: string, offset: number, limit: number): TextWindow {
  let start = Math.min(offset, text.length);
  if (start > 0 && start < text.length && text[start - 1] !== '\n') {
    const lineStart = text.lastIndexOf('\n', start - 1) + 1;
    if (start - lineStart <= limit * TAIL_SHARE) start = lineStart;
  }
  if (start > 0 && start < text.length && isLowSurrogate(text.charCodeAt(start)) && isHighSurrogate(text.charCodeAt(start - 1))) start++;
  const midLine = start > 0 && start < text.length && text[start - 1] !== '\n';
  const end = windowEnd(text, start, limit);
  const first = countNewlines(text, 0, start) + 1;
  const last = first + countNewlines(text, start, Math.max(start, end - 1));
  const total = countNewlines(text, 0, text.length) + (text.length > 0 && !text.endsWith('\n') ? 1 : 0);
  return { start, end, total: text.length, text: text.slice(start, end), lines: { first, last, total: Math.max(total, 1) }, midLine };
}

function windowEnd(text: string, start: number, limit: number): number {
  const hardEnd = start + limit;
  if (text.length - hardEnd <= limit * TAIL_SHARE) return text.length;
  const lineEnd = text.lastIndexOf('\n', hardEnd - 1);
  if (lineEnd >= start + limit / 2) return lineEnd + 1;
  const space = text.lastIndexOf(' ', hardEnd - 1);
  if (space >= start + limit / 2) return space + 1;
  return hardEnd > start + 1 && isHighSurrogate(text.charCodeAt(hardEnd - 1)) ? hardEnd - 1 : hardEnd;
}

/**
 * The window's lines, each led by its 1-based number and `│` (`120│text`), so a citation
 * (`#L120-135`) can be read off. `firstLine` is the number of the window's first line.
 */
export function numberLines(windowText: string, firstLine: number): string {
  const lines = windowText.split('\n');
  const endsLine = lines.length > 1 && lines[lines.length - 1] === '';
  if (endsLine) lines.pop();
  return lines.map((line, index) => `${firstLine + index}${LINE_MARK}${line}`).join('\n') + (endsLine ? '\n' : '');
}

export const LINE_MARK = '\u2502';

function countNewlines(text: string, from: number, to: number): number {
  let count = 0;
  for (let i = text.indexOf('\n', from); i !== -1 && i < to; i = text.indexOf('\n', i + 1)) count++;
  return count;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

export interface ByteWindow {
  /** Byte offset of the first byte decoded (moved forward past a split character). */
  start: number;
  /** Byte offset just after the last byte decoded; the next window starts here. */
  end: number;
  text: string;
  replaced: number;
}

/**
 * Decode `chunk` (the bytes read from byte `offset` of a file) as UTF-8, dropping a partial
 * character at either edge so consecutive windows join up exactly. `atEnd` says the chunk
 * reaches the end of the file, where a truncated character is kept (and replaced).
 */
export function byteWindow(chunk: Uint8Array, offset: number, atEnd: boolean): ByteWindow {
  let from = 0;
  while (from < Math.min(3, chunk.length) && isContinuationByte(chunk[from] ?? 0)) from++;
  let to = chunk.length;
  if (!atEnd) to = completeSequencesEnd(chunk, from);
  const text = new TextDecoder('utf-8').decode(chunk.subarray(from, to));
  return { start: offset + from, end: offset + to, text, replaced: countReplacements(text) };
}

function isContinuationByte(byte: number): boolean {
  return (byte & 0xc0) === 0x80;
}

/** Index just after the last complete UTF-8 sequence at or after `from`. */
function completeSequencesEnd(chunk: Uint8Array, from: number): number {
  const length = chunk.length;
  for (let back = 1; back <= 4 && length - back >= from; back++) {
    const byte = chunk[length - back] ?? 0;
    if (isContinuationByte(byte)) continue;
    const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    // A lead byte whose sequence runs past the chunk starts the next window instead.
    return needed > back && length - back > from ? length - back : length;
  }
  return length;
}
