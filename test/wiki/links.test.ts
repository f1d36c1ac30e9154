import { describe, expect, it } from 'vitest';
import { extractInlineLinks, maskCode, targetToKey } from '../../src/wiki/links.js';

describe('extractInlineLinks', () => {
  const cases: Array<{ name: string; text: string; expected: Array<{ target: string; heading?: string; label?: string; line: number }> }> = [
    { name: 'plain key', text: 'See [[attention]].', expected: [{ target: 'attention', line: 1 }] },
    { name: 'label', text: 'the [[multi-head-attention|MHA]] layer', expected: [{ target: 'multi-head-attention', label: 'MHA', line: 1 }] },
    { name: 'heading', text: '[[transformer#Encoder]]', expected: [{ target: 'transformer', heading: 'Encoder', line: 1 }] },
    { name: 'heading and label', text: '[[transformer#Decoder|the decoder]]', expected: [{ target: 'transformer', heading: 'Decoder', label: 'the decoder', line: 1 }] },
    { name: 'several on several lines', text: 'a [[x]]\nb\nc [[y]] [[z]]', expected: [{ target: 'x', line: 1 }, { target: 'y', line: 3 }, { target: 'z', line: 3 }] },
    { name: 'folder prefix and .md suffix dropped', text: '[[concepts/attention.md]]', expected: [{ target: 'attention', line: 1 }] },
    { name: 'same-page heading is not an edge', text: '[[#Intro]]', expected: [] },
    { name: 'inline code span ignored', text: 'write `[[key]]` to link', expected: [] },
    { name: 'double-backtick span ignored', text: 'use ``a ` [[key]]`` here and [[real]]', expected: [{ target: 'real', line: 1 }] },
    { name: 'fenced block ignored', text: '```md\n[[inside]]\n```\n[[outside]]', expected: [{ target: 'outside', line: 4 }] },
    { name: 'tilde fence ignored', text: '~~~\n[[inside]]\n~~~\nok [[after]]', expected: [{ target: 'after', line: 4 }] },
    { name: 'longer fence needs a longer close', text: '````\n```\n[[inside]]\n````\n[[out]]', expected: [{ target: 'out', line: 5 }] },
    { name: 'unclosed backtick is literal', text: 'a ` b [[k]]', expected: [{ target: 'k', line: 1 }] },
    { name: 'no link', text: 'nothing [here] [[ ]]', expected: [] },
    // A table cell escapes the pipe: the key is still "go-language" (a played page's answer was refused over it).
    { name: 'pipe escaped in a table', text: '| Go | [[go-language\\|Go]] |', expected: [{ target: 'go-language', label: 'Go', line: 1 }] },
  ];
  it.each(cases)('$name', ({ text, expected }) => {
    const links = extractInlineLinks(text).map(({ target, heading, label, line }) => ({
      target,
      line,
      ...(heading ? { heading } : {}),
      ...(label ? { label } : {}),
    }));
    expect(links).toEqual(expected);
  });

  it('keeps the raw source text of each link', () => {
    expect(extractInlineLinks('x [[a|B]] y')[0]?.raw).toBe('[[a|B]]');
  });
});

describe('maskCode', () => {
  it('keeps line count and length of every line', () => {
    const text = 'a\n```\ncode [[x]]\n```\n`y` b';
    const masked = maskCode(text);
    expect(masked.split('\n').map((l) => l.length)).toEqual(text.split('\n').map((l) => l.length));
    expect(masked).not.toContain('[[x]]');
  });
});

describe('maskCode: what is masked', () => {
  it.each([
    ['no code at all: the text itself', 'plain [[a]] text\nsecond line', 'plain [[a]] text\nsecond line'],
    ['an inline span', 'see `[[a]]` and [[b]]', `see${' '.repeat(9)}and [[b]]`],
    ['a double-backtick span holding a backtick', 'x ``a ` b`` y', 'x           y'],
    ['an unclosed backtick run stays', 'a ` b [[c]]', 'a ` b [[c]]'],
    ['a backtick fence', 'a\n```\n[[x]]\n```\nb', 'a\n   \n     \n   \nb'],
    ['a tilde fence (no backtick anywhere)', 'a\n~~~\n[[x]]\n~~~\nb', 'a\n   \n     \n   \nb'],
    ['spans on either side of plain text', '`a` mid `b` end', '    mid     end'],
  ])('%s', (_case, text, masked) => {
    expect(maskCode(text)).toBe(masked);
  });
});

describe('targetToKey', () => {
  it.each([
    ['attention', 'attention'],
    [' attention ', 'attention'],
    ['wiki/concepts/attention.md', 'attention'],
    ['Attention.MD', 'Attention'],
    ['go-language\\', 'go-language'],
  ])('%s → %s', (input, key) => expect(targetToKey(input)).toBe(key));
});
