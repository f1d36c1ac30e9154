import { InputError } from '../errors.js';

/**
 * Bytes → text for sources: binary sniffing, BOM handling, declared charsets, and a
 * lenient UTF-8 fallback that keeps going (with a warning) when the bytes are not UTF-8.
 */

export interface DecodedText {
  text: string;
  warnings: string[];
}

/** How much of a file the binary sniff looks at. */
export const SNIFF_BYTES = 8192;

/** Above this share of control bytes in the sniffed head, a file is treated as binary. */
const CONTROL_BYTE_RATIO = 0.1;

/**
 * A NUL byte, or many control bytes other than tab/newline/carriage return/form feed/escape,
 * in the first 8 KB. Text with a UTF-16 byte-order mark is not binary (it has NULs by design).
 */
export function looksBinary(bytes: Uint8Array): boolean {
  if (utf16Encoding(bytes)) return false;
  const head = bytes.subarray(0, SNIFF_BYTES);
  if (head.length === 0) return false;
  let control = 0;
  for (const byte of head) {
    if (byte === 0) return true;
    if (byte < 0x20 && !ALLOWED_CONTROL_BYTES.has(byte)) control++;
    else if (byte === 0x7f) control++;
  }
  return control / head.length > CONTROL_BYTE_RATIO;
}

// tab, newline, vertical tab, form feed, carriage return, escape (ANSI colour codes in logs)
const ALLOWED_CONTROL_BYTES = new Set([0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1b]);

export function startsWithPdfMagic(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 5)).toString('latin1') === '%PDF-';
}

/** Whether the bytes' first non-blank characters open an HTML document (read as latin1: any charset's markup is ASCII). */
export function looksLikeHtml(bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 2048)).toString('latin1');
  return /^\s*(<!--[\s\S]*?-->\s*)*<(!doctype\s+html|html[\s>]|head[\s>]|body[\s>])/i.test(head);
}

/**
 * Decode `bytes`, honouring a byte-order mark first, then `declaredCharset` (from an HTTP
 * header or a `<meta charset>`), then UTF-8. Invalid UTF-8 is decoded with U+FFFD replacement
 * characters and a warning naming `label` (a path or URL). A leading BOM is dropped.
 */
export function decodeText(bytes: Uint8Array, label: string, declaredCharset?: string): DecodedText {
  const warnings: string[] = [];
  const bomEncoding = utf16Encoding(bytes);
  if (bomEncoding) return { text: new TextDecoder(bomEncoding).decode(bytes), warnings };

  const charset = declaredCharset?.trim().toLowerCase();
  if (charset && !isUtf8Label(charset) && !hasUtf8Bom(bytes)) {
    const decoder = decoderFor(charset);
    if (decoder) return { text: decoder.decode(bytes), warnings };
    warnings.push(`${label} declares an unknown charset "${declaredCharset}"; decoded as UTF-8`);
  }
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), warnings };
  } catch {
    const fix = /^https?:/i.test(label) ? '' : `; if it is Latin-1, convert it first: iconv -f latin1 -t utf-8 ${label} > utf8.tmp && mv utf8.tmp ${label}`;
    warnings.push(`${label} is not valid UTF-8; decoded with replacement characters (their sentences are left out of the facts)${fix}`);
    return { text: new TextDecoder('utf-8').decode(bytes), warnings };
  }
}

/** The charset an HTML document declares in its first 2 KB (`<meta charset>` or http-equiv). */
export function sniffHtmlCharset(bytes: Uint8Array): string | undefined {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 2048)).toString('latin1');
  const match =
    /<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(head) ??
    /<meta[^>]+content\s*=\s*["'][^"']*charset\s*=\s*([\w.:-]+)/i.exec(head);
  return match?.[1];
}

/** The `charset` parameter of a Content-Type header value. */
export function charsetFromContentType(contentType: string | null): string | undefined {
  const match = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType ?? '');
  return match?.[1];
}

function utf16Encoding(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | undefined {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return undefined;
}

function hasUtf8Bom(bytes: Uint8Array): boolean {
  return bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
}

function isUtf8Label(charset: string): boolean {
  return charset === 'utf-8' || charset === 'utf8' || charset === 'unicode-1-1-utf-8';
}

function decoderFor(charset: string): { decode(bytes: Uint8Array): string } | undefined {
  if (WINDOWS_1252_LABELS.has(charset)) return { decode: decodeWindows1252 };
  try {
    return new TextDecoder(charset);
  } catch {
    return undefined;
  }
}

// Node 20's TextDecoder decodes these labels as ISO-8859-1, losing €, curly quotes, dashes…
// (0x80–0x9F); the web treats all of them as windows-1252, so decode them that way here.
const WINDOWS_1252_LABELS = new Set([
  'ansi_x3.4-1968', 'ascii', 'cp1252', 'cp819', 'csisolatin1', 'ibm819', 'iso-8859-1', 'iso-ir-100',
  'iso8859-1', 'iso88591', 'iso_8859-1', 'iso_8859-1:1987', 'l1', 'latin1', 'us-ascii', 'windows-1252', 'x-cp1252',
]);

// windows-1252 bytes 0x80–0x9F; the five undefined ones map to the C1 control of the same value.
const WINDOWS_1252_HIGH =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

function decodeWindows1252(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    const chunk = bytes.subarray(i, i + 0x8000);
    text += String.fromCharCode(
      ...Array.from(chunk, (byte) => (byte >= 0x80 && byte <= 0x9f ? WINDOWS_1252_HIGH.charCodeAt(byte - 0x80) : byte)),
    );
  }
  return text;
}

export function emptyError(label: string): InputError {
  return new InputError(`${label} is empty`, 'add some content to it, or remove it from raw/');
}

export function binaryError(label: string): InputError {
  return new InputError(`${label} is a binary file; wiki reads text, markdown, PDF and HTML`);
}
