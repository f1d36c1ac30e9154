import { distance } from 'fastest-levenshtein';
import { latinSkeleton } from './confusables.js';

/**
 * How alike two page names are. Models (and people) drift between "Mid-Cap Fund" and
 * "Mid-Cap Funds", "tokenizer" and "tokeniser", "mid-cap" and "midcap"; these helpers put
 * such variants side by side so the validator can suggest, warn or repair.
 */

/** One word reduced to a singular-looking stem; applied to both sides, so it need not be real English. */
export function singularise(word: string): string {
  if (word.length <= 3) return word;
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (word.endsWith('sses')) return word.slice(0, -2);
  if (/(?:x|z|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (/(?:ss|us|is)$/.test(word)) return word;
  if (word.endsWith('s')) return word.slice(0, -1);
  return word;
}

/** A name's words: lowercase ASCII, accents and apostrophes dropped, look-alike letters of other scripts read as Latin, each singularised. */
export function nameTokens(name: string): string[] {
  return latinSkeleton(name.normalize('NFKD').replace(/[\u0300-\u036f]/g, ''))
    .toLowerCase()
    .replace(/['’]/g, '')
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .map(singularise);
}

/**
 * The form two names share when they differ only by case, punctuation, accents or
 * plural/singular words: the name's tokens joined without separators.
 */
export function canonicalName(name: string): string {
  return nameTokens(name).join('');
}

/** Digit runs of a name, so "gpt-3" and "gpt-4" (or "llama-2" and "llama-3") never count as the same. */
function digitsOf(name: string): string {
  return (name.match(/\d+/g) ?? []).join(',');
}

/** Edit distance allowed for a suggestion, by the length of the name's canonical form. */
export function suggestionDistance(length: number): number {
  if (length <= 3) return 0;
  if (length <= 5) return 1;
  if (length <= 12) return 2;
  return 3;
}

/** The shortest word in which a one-letter difference still reads as a typo or spelling variant. */
const NEAR_MIN_WORD = 5;

/**
 * Whether two names almost certainly mean the same page: identical canonical forms, or the
 * same words but for one letter inside one long word ("tokenizer"/"tokeniser",
 * "atention"/"attention"). A whole short word that differs ("model-a"/"model-b",
 * "type-i"/"type-ii") or a different number ("gpt-3"/"gpt-4") is a different thing. Near
 * enough to warn about a near-duplicate and — when unique — to rewrite a broken link.
 */
export function isNearName(a: string, b: string): boolean {
  const ta = nameTokens(a);
  const tb = nameTokens(b);
  if (ta.length === 0 || tb.length === 0) return false;
  if (ta.join('') === tb.join('')) return true;
  if (ta.length !== tb.length || digitsOf(a) !== digitsOf(b)) return false;
  let differing = 0;
  for (let i = 0; i < ta.length; i++) {
    const wa = ta[i] ?? '';
    const wb = tb[i] ?? '';
    if (wa === wb) continue;
    differing++;
    if (differing > 1 || Math.min(wa.length, wb.length) < NEAR_MIN_WORD || distance(wa, wb) > 1) return false;
  }
  return differing === 1;
}

/** Every string one deletion away from `s` (and `s` itself): names within one edit share one. */
export function deletionNeighbours(s: string): string[] {
  const out = new Set<string>([s]);
  for (let i = 0; i < s.length; i++) out.add(s.slice(0, i) + s.slice(i + 1));
  return [...out];
}

export { distance as editDistance };
