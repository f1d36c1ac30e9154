import { open } from 'node:fs/promises';
import { InputError } from '../errors.js';
import { SNIFF_BYTES, binaryError, emptyError, looksBinary } from './decode.js';

export interface TextWindow {
  text: string;
  /** Byte offset of the next window, or undefined at the end of the file. */
  nextOffset: number | undefined;
  totalBytes: number;
  /** The window held bytes that are not UTF-8; they were decoded as U+FFFD. */
  invalidUtf8: boolean;
}

export interface WindowOptions {
  /**
   * End the window after its last newline when that keeps at least half of it, so windows
   * hold whole lines (default true). Off: end at the last whole character.
   */
  preferLineBreak?: boolean;
}

/** Longest UTF-8 sequence minus one: how far past the window we peek to see a cut character. */
const LOOKAHEAD = 3;

/**
 * One window of a text file, read at a byte position without loading the rest of the file.
 * The window never splits a UTF-8 sequence (an offset inside one moves forward to the next
 * character), so consecutive windows, each started at the previous `nextOffset`, decode to
 * exactly the whole file. A UTF-8 byte-order mark at offset 0 is dropped. A single
 * character longer than `maxBytes` still makes progress.
 */
export async function readTextWindow(
  absPath: string,
  offsetBytes: number,
  maxBytes: number,
  options: WindowOptions = {},
): Promise<TextWindow> {
  if (!Number.isInteger(offsetBytes) || offsetBytes < 0) throw new RangeError(`offset must be a non-negative integer, got ${offsetBytes}`);
  if (!Number.isInteger(maxBytes) || maxBytes < 1) throw new RangeError(`window size must be a positive integer, got ${maxBytes}`);
  const handle = await open(absPath, 'r');
  try {
    const totalBytes = (await handle.stat()).size;
    if (offsetBytes >= totalBytes) return { text: '', nextOffset: undefined, totalBytes, invalidUtf8: false };

    const wanted = Math.min(maxBytes + 2 * LOOKAHEAD, totalBytes - offsetBytes);
    const buffer = Buffer.alloc(wanted);
    const { bytesRead } = await handle.read(buffer, 0, wanted, offsetBytes);
    const bytes = buffer.subarray(0, bytesRead);

    let start = 0;
    while (start < Math.min(LOOKAHEAD, bytes.length) && isContinuation(bytes[start])) start++;
    if (offsetBytes === 0 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) start = 3;

    const atEnd = offsetBytes + bytes.length >= totalBytes;
    let end = Math.min(start + maxBytes, bytes.length);
    if (end < bytes.length || !atEnd) end = characterBoundary(bytes, start, end);
    if (options.preferLineBreak !== false && end < bytes.length) end = lineBoundary(bytes, start, end);

    const slice = bytes.subarray(start, end);
    let text: string;
    let invalidUtf8 = false;
    try {
      text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(slice);
    } catch {
      text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(slice);
      invalidUtf8 = true;
    }
    const next = offsetBytes + end;
    return { text, nextOffset: next >= totalBytes ? undefined : next, totalBytes, invalidUtf8 };
  } finally {
    await handle.close();
  }
}

/**
 * Refuse a file that cannot be read as text, looking only at its first 8 KB:
 * empty (or, when that is all there is, only whitespace) or binary → InputError.
 */
export async function assertTextFile(absPath: string, label: string): Promise<{ totalBytes: number }> {
  let handle;
  try {
    handle = await open(absPath, 'r');
  } catch (error) {
    throw unreadable(label, error);
  }
  try {
    const info = await handle.stat();
    if (info.isDirectory()) throw new InputError(`${label} is a directory, not a file`);
    const head = Buffer.alloc(Math.min(SNIFF_BYTES, info.size));
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    const sniffed = head.subarray(0, bytesRead);
    if (info.size === 0) throw emptyError(label);
    if (looksBinary(sniffed)) throw binaryError(label);
    if (info.size <= SNIFF_BYTES && sniffed.toString('utf8').replace(/^\uFEFF/, '').trim() === '') throw emptyError(label);
    return { totalBytes: info.size };
  } catch (error) {
    throw error instanceof InputError ? error : unreadable(label, error);
  } finally {
    await handle.close();
  }
}

function unreadable(label: string, error: unknown): InputError {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return new InputError(`${label} does not exist`);
  if (code === 'EISDIR') return new InputError(`${label} is a directory, not a file`);
  return new InputError(`${label} could not be read: ${error instanceof Error ? error.message : String(error)}`);
}

function isContinuation(byte: number | undefined): boolean {
  return byte !== undefined && (byte & 0xc0) === 0x80;
}

/**
 * Move `end` back so the window does not stop inside a multi-byte character. If that would
 * leave the window empty (one character bigger than the window), move forward past it instead.
 */
function characterBoundary(bytes: Uint8Array, start: number, end: number): number {
  let cut = end;
  while (cut > start && end - cut < LOOKAHEAD && isContinuation(bytes[cut])) cut--;
  if (isContinuation(bytes[cut]) && cut > start) return end; // not valid UTF-8 here anyway
  if (cut > start) return cut;
  let forward = end;
  while (forward < bytes.length && forward - end < LOOKAHEAD && isContinuation(bytes[forward])) forward++;
  return Math.max(forward, start + 1);
}

function lineBoundary(bytes: Uint8Array, start: number, end: number): number {
  const lastNewline = bytes.lastIndexOf(0x0a, end - 1);
  return lastNewline >= start + Math.floor((end - start) / 2) ? lastNewline + 1 : end;
}
