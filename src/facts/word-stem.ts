import { stem as porterStem } from '../search/text/analyze.js';

/** Stems shorter than this match only themselves (see stem-match.ts). */
const SHORT_STEM = 4;

/**
 * A word's stem for matching. Porter's short stems split a word's family: "embed" → "emb" but
 * "embedded" → "embed", "add" → "add" but "added" → "ad", "use" → "us" but "uses" → "us"; and a
 * stem that short matches only itself (a played page's "cannot be embedded" never met its
 * source's "not possible to embed"). Such a word is reduced to its uninflected form instead.
 */
export function wordStem(word: string): string {
  const stemmed = porterStem(word);
  return stemmed.length >= SHORT_STEM ? stemmed : uninflected(word);
}

/** "embeds" → "embed", "added"/"adding" → "add", "used"/"using"/"uses" → "use" (short words only). */
function uninflected(word: string): string {
  if (/(?:x|ch|sh|ss|z)es$/.test(word)) return word.slice(0, -2);
  if (/[^s]s$/.test(word)) return word.slice(0, -1);
  const suffix = /(?:ed|ing)$/.exec(word)?.[0];
  if (!suffix) return word;
  const root = word.slice(0, -suffix.length);
  if (/([^aeiou])\1$/.test(root)) return root; // "added" → "add"
  if (root.length === 2 && /[^aeiou]$/.test(root)) return `${root}e`; // "used" → "use"
  return suffix === 'ed' ? word : root; // "embed" is no "emb" + "ed"
}
