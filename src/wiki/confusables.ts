/**
 * Letters of other scripts that read as Latin ones ("Ѕеlf-аttеntіоn" in Cyrillic beside
 * "Self-attention"), so a look-alike title cannot pass the near-duplicate check. A compact,
 * hand-kept subset of Unicode's confusables (TR39) — the Cyrillic, Greek and Latin-extension
 * letters that render like the 26 Latin ones in common fonts — rather than a dependency: the
 * full table is ~6,000 entries for scripts a page title rarely mixes, and the npm packages
 * that ship it are little maintained. Fullwidth and other compatibility forms are handled by
 * NFKD before this.
 */
const LOOK_ALIKES: Record<string, string> = {
  // Cyrillic (lowercase only where the glyph is the Latin one, not a small capital: "т", "н", "к" are left out)
  а: 'a', с: 'c', ԁ: 'd', е: 'e', һ: 'h', і: 'i', ј: 'j', ӏ: 'l', о: 'o', р: 'p', ԛ: 'q', ѕ: 's', у: 'y', ү: 'y', х: 'x', ԝ: 'w',
  А: 'a', В: 'b', С: 'c', Е: 'e', Н: 'h', І: 'i', Ј: 'j', К: 'k', Ӏ: 'l', М: 'm', О: 'o', Р: 'p', Ԛ: 'q', Ѕ: 's', Т: 't',
  У: 'y', Ү: 'y', Х: 'x', Ԝ: 'w',
  // Greek
  α: 'a', ι: 'i', ν: 'v', ο: 'o', ρ: 'p', υ: 'u', χ: 'x',
  Α: 'a', Β: 'b', Ε: 'e', Ζ: 'z', Η: 'h', Ι: 'i', Κ: 'k', Μ: 'm', Ν: 'n', Ο: 'o', Ρ: 'p', Τ: 't', Υ: 'y', Χ: 'x',
  // Latin extensions and Armenian
  ı: 'i', ȷ: 'j', ɑ: 'a', ɡ: 'g', ɩ: 'i', օ: 'o', ս: 'u', հ: 'h', ո: 'n',
};

const LOOK_ALIKE_CLASS = new RegExp(`[${Object.keys(LOOK_ALIKES).join('')}]`, 'u');
/** A run of letters and digits (a word, whatever its script). */
const WORD = /[\p{L}\p{M}\p{N}]+/gu;
/** A word made only of Latin letters, digits and look-alikes (accents already removed). */
const SPOOFABLE = new RegExp(`^[A-Za-z0-9${Object.keys(LOOK_ALIKES).join('')}]+$`, 'u');

/**
 * `text` with each word written wholly in Latin letters and look-alikes spelled in Latin.
 * A word with any other letter (a genuine Russian or Greek word) is kept as it is, so two
 * different non-Latin titles never collapse into the same few Latin letters.
 */
export function latinSkeleton(text: string): string {
  if (!LOOK_ALIKE_CLASS.test(text)) return text;
  return text.replace(WORD, (word) => (SPOOFABLE.test(word) ? [...word].map((ch) => LOOK_ALIKES[ch] ?? ch).join('') : word));
}
