/** Postgres refuses a lexeme of 2 KB or more; no analysed word is near it. */
export const MAX_LEXEME_BYTES = 2000;

/**
 * How much of a tsvector's 1 MB its lexemes may take. `array_to_tsvector` accepts a larger
 * one but then matches none of it (its offsets are 20 bits), so a text with more distinct
 * terms than fit is indexed by its first ones only.
 */
const MAX_TSVECTOR_BYTES = 900_000;
/** What each lexeme costs beside its bytes: its entry and alignment. */
const ENTRY_BYTES = 8;

/** The distinct `terms` a tsvector can hold and match: each short enough, and together within its size, in the order given. */
export function tsvectorTerms(terms: Iterable<string>): string[] {
  const kept: string[] = [];
  let bytes = 0;
  for (const term of terms) {
    const size = Buffer.byteLength(term);
    if (term === '' || size >= MAX_LEXEME_BYTES) continue;
    if (bytes + size + ENTRY_BYTES > MAX_TSVECTOR_BYTES) break;
    bytes += size + ENTRY_BYTES;
    kept.push(term);
  }
  return kept;
}
