import { distance } from 'fastest-levenshtein';
import { describe, expect, it } from 'vitest';
import { GramIndex } from '../../src/wiki/gram-index.js';

/** Deterministic PRNG so the property check sees the same strings on every run. */
function rng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
}

function randomWord(random: () => number, alphabet: string): string {
  const length = 3 + Math.floor(random() * 14);
  let word = '';
  for (let i = 0; i < length; i++) word += alphabet[Math.floor(random() * alphabet.length)] ?? 'a';
  return word;
}

function mutate(random: () => number, word: string, edits: number): string {
  let out = word;
  for (let i = 0; i < edits; i++) {
    const at = Math.floor(random() * (out.length + 1));
    const kind = Math.floor(random() * 3);
    const letter = 'abcab'[Math.floor(random() * 5)] ?? 'a';
    if (kind === 0) out = out.slice(0, at) + letter + out.slice(at);
    else if (kind === 1 && out.length > 1) out = out.slice(0, at) + out.slice(at + 1);
    else out = out.slice(0, at) + letter + out.slice(at + 1);
  }
  return out;
}

describe('GramIndex', () => {
  it('never misses a string within the allowed edit distance (q-gram lemma), on a small repetitive alphabet', () => {
    const random = rng(11);
    const words = Array.from({ length: 400 }, () => randomWord(random, 'abcab'));
    const index = new GramIndex();
    words.forEach((word, id) => index.add(id, word));
    for (let trial = 0; trial < 300; trial++) {
      const base = words[Math.floor(random() * words.length)] ?? 'abc';
      const query = mutate(random, base, Math.floor(random() * 4));
      for (const allowed of [1, 2, 3]) {
        const candidates = index.candidates(query, allowed);
        if (!candidates) continue; // too short for a bound: the caller scans everything
        words.forEach((word, id) => {
          if (distance(query, word) <= allowed) expect(candidates.has(id), `${query} ~ ${word} (≤${allowed})`).toBe(true);
        });
      }
    }
  });

  it('prunes: far-away strings are mostly not candidates', () => {
    const index = new GramIndex();
    const words = ['transformer', 'attention', 'tokenizer', 'embedding', 'gradient-descent', 'backpropagation'];
    words.forEach((word, id) => index.add(id, word));
    expect([...(index.candidates('transformers', 2) ?? [])]).toEqual([0]);
    expect(index.candidates('xyz', 1)).toBeUndefined();
  });

  it('forgets deleted ids', () => {
    const index = new GramIndex();
    index.add(0, 'attention');
    index.add(1, 'attentions');
    index.delete(0, 'attention');
    expect([...(index.candidates('attention', 1) ?? [])]).toEqual([1]);
  });
});
