/**
 * Text bound for a human's terminal. Model replies, page titles, snippets and source names
 * can carry escape sequences (set the window title, clear the screen, write the clipboard);
 * only our own colour codes (SGR, `ESC [ … m`) and the live status line's return + erase
 * (`\r`, `ESC [ 2K`) may pass. Every other C0/C1 control character, and every other escape
 * sequence whole, is removed; newline and tab stay.
 */
const SAFE_SEQUENCE = /\x1b\[[0-9;]*m|\x1b\[2K|\r/y;
// ESC followed by a CSI, OSC/DCS/APC/PM/SOS string or a single character; C1 introducers too.
const ESCAPE_SEQUENCE = /(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?|\x1b[ -~]?/y;
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/y;

export function terminalSafe(text: string): string {
  // Fast path: nothing to look at.
  if (!/[\x00-\x08\x0b-\x1f\x7f-\x9f]/.test(text)) return text;
  let out = '';
  let at = 0;
  while (at < text.length) {
    for (const pattern of [SAFE_SEQUENCE, ESCAPE_SEQUENCE, CONTROL]) pattern.lastIndex = at;
    const safe = SAFE_SEQUENCE.exec(text);
    if (safe) {
      out += safe[0];
      at += safe[0].length;
      continue;
    }
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
