import { randomBytes } from 'node:crypto';
import pc from 'picocolors';
import type { Colors } from './colors.js';

/**
 * Text bound for a human's terminal. Model replies, page titles, snippets, file names and
 * log entries can carry escape sequences (recolour or hide text, move the cursor, erase a
 * line, set the window title, write the clipboard). None of theirs may pass: every C0/C1
 * control character but newline and tab, and every escape sequence whole (colour codes
 * included), is removed. Only the tool's own sequences pass, and only because they carry
 * this process's mark, which no page or model can know (`ownSequence`, `ownColors`).
 */
// ESC followed by a CSI, OSC/DCS/APC/PM/SOS string or a single character; C1 introducers too.
const ESCAPE_SEQUENCE = /(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?|\x1b[ -~]?/y;
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/y;
const UNSAFE = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

/** Opens a sequence of the tool's own: NUL, then a nonce drawn once per process. */
const OWN_MARK = `\x00${randomBytes(12).toString('hex')}`;

/** A sequence of the tool's own (a colour, the live line's reset), let through by terminalSafe. */
export function ownSequence(sequence: string): string {
  return `${OWN_MARK}${sequence.replace(/\x00/g, '')}\x00`;
}

export function terminalSafe(text: string): string {
  // Fast path: nothing to look at.
  if (!UNSAFE.test(text)) return text;
  let out = '';
  let at = 0;
  while (at < text.length) {
    if (text.startsWith(OWN_MARK, at)) {
      const end = text.indexOf('\x00', at + OWN_MARK.length);
      if (end >= 0) {
        out += text.slice(at + OWN_MARK.length, end);
        at = end + 1;
        continue;
      }
    }
    ESCAPE_SEQUENCE.lastIndex = at;
    CONTROL.lastIndex = at;
    const escape = ESCAPE_SEQUENCE.exec(text) ?? CONTROL.exec(text);
    if (escape && escape[0].length > 0) {
      at += escape[0].length;
      continue;
    }
    out += text[at];
    at += 1;
  }
  return out;
}

/**
 * The colour functions of a stream whose text passes terminalSafe: picocolors' codes, each
 * marked as the tool's own so they survive while any code inside the coloured text does not.
 */
export function ownColors(enabled: boolean): Colors {
  const plain = pc.createColors(enabled);
  if (!enabled) return plain;
  const marked: Record<string, unknown> = { ...plain };
  for (const [name, colour] of Object.entries(plain)) {
    if (typeof colour !== 'function') continue;
    const sample = (colour as (input: string) => string)('\x00');
    const cut = sample.indexOf('\x00');
    if (cut <= 0) continue;
    const open = ownSequence(sample.slice(0, cut));
    const close = ownSequence(sample.slice(cut + 1));
    // As picocolors does: a nested colour closing with the same code reopens this one.
    marked[name] = (input: unknown): string => `${open}${String(input).split(close).join(`${close}${open}`)}${close}`;
  }
  return marked as unknown as Colors;
}
