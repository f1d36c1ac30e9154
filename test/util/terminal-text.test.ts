import { describe, expect, it } from 'vitest';
import { ownColors, ownSequence, terminalSafe } from '../../src/util/terminal-text.js';

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
    ['a colour code in page text', 'a\x1b[31mred\x1b[39mb', 'aredb'],
    ['conceal (hides what follows)', 'a\x1b[8mhidden', 'ahidden'],
    ['carriage return and line erase (overwrite the line)', 'safe\r\x1b[2Kforged', 'safeforged'],
    ['cursor up', 'a\x1b[1Ab', 'ab'],
    ['a forged mark of our own (wrong nonce)', 'a\x000123456789abcdef01234567\x1b[31mb\x00', 'a0123456789abcdef01234567b'],
  ])('%s', (_what, input, expected) => {
    expect(terminalSafe(input)).toBe(expected);
  });

  it.each([
    ['newline and tab', 'a\n\tb'],
    ['plain unicode', 'Café — naïve ✓'],
  ])('keeps %s', (_what, input) => {
    expect(terminalSafe(input)).toBe(input);
  });

  it('keeps the tool\'s own sequences, and only those', () => {
    expect(terminalSafe(`${ownSequence('\x1b[31m')}error:${ownSequence('\x1b[39m')} x`)).toBe('\x1b[31merror:\x1b[39m x');
    expect(terminalSafe(`${ownSequence('\r\x1b[2K')}working`)).toBe('\r\x1b[2Kworking');
  });

  it('colours the tool\'s words and strips the codes page text brings inside them', () => {
    const c = ownColors(true);
    expect(terminalSafe(c.red(`title \x1b[8mhidden`))).toBe('\x1b[31mtitle hidden\x1b[39m');
    expect(terminalSafe(c.bold(`a ${c.dim('b')} c`))).toBe('\x1b[1ma \x1b[2mb\x1b[22m\x1b[1m c\x1b[22m');
    expect(ownColors(false).red('x')).toBe('x');
  });
});
