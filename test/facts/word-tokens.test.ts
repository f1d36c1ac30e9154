import { describe, expect, it } from 'vitest';
import { Vocabulary, wordOverlap } from '../../src/facts/word-tokens.js';

/** The stems, names and numbers of a text, as strings. */
function read(vocabulary: Vocabulary, text: string): { words: string[]; names: string[]; negated: boolean; numbers: string[] } {
  const tokens = vocabulary.tokens(text);
  const stem = (id: number): string => vocabulary.stemOf(id);
  return { words: tokens.words.map(stem), names: tokens.names.map(stem), negated: tokens.negated, numbers: [...tokens.numbers] };
}

describe('Vocabulary.tokens', () => {
  it.each([
    ['plain words, stop words dropped, stems', 'The bridges opened in 1937', ['bridg', 'open', '1937']],
    ['inner marks kept, trailing marks dropped', "U.S. state-of-the-art O'Brien's -- 3.5. end.", ['u.s', 'state-of-the-art', "o'brien'", '3.5', 'end']],
    ['repeated words counted once', 'Otters hold otters. Otters hold!', ['otter', 'hold']],
    ['marks alone make no token', "-- ... ' - .", []],
  ])('%s', (_name, text, words) => {
    expect(read(new Vocabulary(), text).words).toEqual(words);
  });

  it.each([
    "Dr. Smith's state-of-the-art lab in the U.S. didn't open in 1,280 days.",
    'A 3.5-metre span -- opened... by Brown, then Green; 12 of 40 (30%).',
    "x y z 'quoted' \"double\" end-- .start",
  ])('reads plain ASCII as the Unicode rules do: %s', (text) => {
    // A character beyond ASCII, far from every token, sends the text down the Unicode path.
    const unicode = read(new Vocabulary(), `${text} — ü`);
    const ascii = read(new Vocabulary(), text);
    expect({ ...ascii, words: [...ascii.words, 'ü'] }).toEqual(unicode);
  });

  it('keeps one numbering across texts, and names past the first token', () => {
    const vocabulary = new Vocabulary();
    const first = vocabulary.tokens('Golden Gate opened');
    const second = vocabulary.tokens('It opened, Golden Gate did not');
    expect(second.words).toEqual([first.words[2], first.words[0], first.words[1]]);
    expect(second.names).toEqual([first.words[0], first.words[1]]);
    expect(second.negated).toBe(true);
  });
});

describe('Vocabulary across many words', () => {
  it('gives each word one id however large the vocabulary grows', () => {
    const vocabulary = new Vocabulary();
    const words = Array.from({ length: 5000 }, (_, i) => `word${i.toString(36)}x`);
    const first = words.map((word) => vocabulary.tokens(`Alpha ${word}`).words[1]);
    const again = words.map((word) => vocabulary.tokens(`${word} alpha`).words[0]);
    expect(again).toEqual(first);
    expect(new Set(first).size).toBe(words.length);
    expect(vocabulary.stemOf(first[4321] as number)).toBe(words[4321]);
  });
});

describe('wordOverlap', () => {
  it('is the share of the question words the text holds', () => {
    expect(wordOverlap('When did the Golden Gate bridge open?', 'The Golden Gate Bridge opened in 1937.')).toBe(0.8) // when, golden, gate, bridge, open: all but `when`;
    expect(wordOverlap('what is it', 'anything')).toBe(0);
  });
});
