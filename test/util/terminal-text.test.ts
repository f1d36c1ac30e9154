import { describe, expect, it } from 'vitest';
import { terminalSafe } from '../../src/util/terminal-text.js';

describe('terminalSafe strips what could drive the terminal', () => {
  it.each([
    ['OSC window title (BEL)', 'a\x1b]0;pwned\x07b', 'ab'],
    ['OSC window title (ST)', 'a\x1b]2;pwned\x1b\\b', 'ab'],
    ['OSC 52 clipboard write', 'x\x1b]52;c;ZWNobyBoaQ==\x07y', 'xy'],
    ['clear screen', 'a\x1b[2Jb', 'ab'],
    ['cursor home', 'a\x1b[Hb', 'ab'],
    ['8-bit CSI', 'a\x9b2Jb', 'ab'],
    ['8-bit OSC', 'a\x9d0;t\x9cb', 'ab'],
    ['DCS string', 'a\x1bPq#0\x1b\\b', 'ab'],
    ['bare ESC + char', 'a\x1bcb', 'ab'],
    ['bell, backspace, NUL, DEL', 'a\x07\x08\x00\x7fb', 'ab'],
    ['unterminated OSC', 'a\x1b]0;rest of line', 'a'],
  ])('%s', (_what, input, expected) => {
    expect(terminalSafe(input)).toBe(expected);
  });

  it.each([
    ['newline and tab', 'a\n\tb'],
    ['our colours', '\x1b[31merror:\x1b[39m x'],
    ['the live line reset', '\r\x1b[2Kworking'],
    ['plain unicode', 'Café — naïve ✓'],
  ])('keeps %s', (_what, input) => {
    expect(terminalSafe(input)).toBe(input);
  });
});
