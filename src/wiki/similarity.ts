import { distance } from 'fastest-levenshtein';

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

/**
 * The form two names share when they differ only by case, punctuation, accents or
 * plural/singular words: lowercase ASCII words, each singularised, joined without separators.
 */
export function canonicalName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['’]/g, '')
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .map(singularise)
    .join('');
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

/** The shortest canonical form that a one-letter difference may still call "the same name". */
const NEAR_MIN_LENGTH = 5;

/**
 * Whether two names almost certainly mean the same page: identical canonical forms, or one
 * letter apart on a long enough name with the same numbers in it. Near enough to warn about a
 * near-duplicate, and — when unique — to rewrite a broken link without asking.
 */
export function isNearName(a: string, b: string): boolean {
  const ca = canonicalName(a);
  const cb = canonicalName(b);
  if (ca === '' || cb === '') return false;
  if (ca === cb) return true;
  return isNearCanonical(ca, cb) && digitsOf(a) === digitsOf(b);
}

export function isNearCanonical(ca: string, cb: string): boolean {
  if (Math.min(ca.length, cb.length) < NEAR_MIN_LENGTH) return false;
  if (Math.abs(ca.length - cb.length) > 1) return false;
  return distance(ca, cb) <= 1;
}

/** Every string one deletion away from `s` (and `s` itself): names within one edit share one. */
export function deletionNeighbours(s: string): string[] {
  const out = new Set<string>([s]);
  for (let i = 0; i < s.length; i++) out.add(s.slice(0, i) + s.slice(i + 1));
  return [...out];
}

/** How far apart two names are, on their canonical forms (0 = same name modulo plural/punctuation). */
export function nameDistance(a: string, b: string): number {
  return distance(canonicalName(a), canonicalName(b));
}

export { distance as editDistance };
