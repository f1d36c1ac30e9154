/**
 * Acronyms and their expansions, for the grounding check: an acronym spelled by the words
 * beside it ("trust on first use (TOFU)", "PEP (Python Enhancement Proposal)") names nothing
 * new — the expansion only says what the letters stand for.
 */

const ACRONYM_LETTERS = /^(\p{Lu}{2,})s?$/u;
const CAPITALISED = /^\p{Lu}/u;

/** Whether `piece` is an acronym of the words just before it ("TOFU" after "trust on first use"); `spoken` is every word so far, lower-cased. */
export function spellsOut(piece: string, spoken: readonly string[]): boolean {
  const letters = piece.replace(/s$/, '');
  if (!/^\p{Lu}{2,}$/u.test(letters) || spoken.length < letters.length) return false;
  return spoken.slice(-letters.length).map((word) => word[0]).join('') === letters.toLowerCase();
}

/** Whether `text` spells out an acronym whose stem is `acronym` ("minimal version selection" for "mv", the stem of "MVS"): consecutive words with its initials. */
export function spellsOutAcronym(text: string, acronym: string): boolean {
  const all = text.toLowerCase().match(/\p{L}+/gu) ?? [];
  // "Massachusetts Institute of Technology" is MIT: the small words between are not initials.
  return spelledBy(all, acronym) || spelledBy(all.filter((word) => !LINKING_WORDS.has(word)), acronym);
}

/** Words an expansion may have that its acronym skips. */
const LINKING_WORDS = new Set(['of', 'and', 'for', 'the', 'in', 'on', 'at', 'to', 'de', 'du', 'des', 'la', 'le', 'der', 'die', 'das', 'und', 'für', 'von', 'van']);

function spelledBy(words: readonly string[], acronym: string): boolean {
  // The stem may have lost a final "s" ("MVS" -> "mv"): the initials may run one letter on.
  for (const length of [acronym.length, acronym.length + 1]) {
    for (let at = 0; at + length <= words.length; at++) {
      const initials = words.slice(at, at + length).map((word) => word[0]).join('');
      if (initials.startsWith(acronym) && words.slice(at, at + length).every((word) => word.length > 1)) return true;
    }
  }
  return false;
}

/**
 * The capitalised expansions of acronyms in `text`, right before or after the acronym
 * ("Python Enhancement Proposal (PEP)", "PEP (Python Enhancement Proposal)"): their words,
 * lower-cased, and the acronyms they expand (which still name something a source must).
 */
export function capitalisedExpansions(text: string): { words: Set<string>; acronyms: Set<string> } {
  const words = new Set<string>();
  const acronyms = new Set<string>();
  if (!/\p{Lu}{2}/u.test(text)) return { words, acronyms };
  const tokens = text.match(/[\p{L}\p{N}]+/gu) ?? [];
  const spells = (run: readonly string[], letters: string): boolean =>
    run.length === letters.length && run.every((word) => CAPITALISED.test(word) && word.length > 1 && !ACRONYM_LETTERS.test(word)) && run.map((word) => word[0]).join('') === letters;
  tokens.forEach((token, index) => {
    const letters = ACRONYM_LETTERS.exec(token)?.[1];
    if (!letters) return;
    for (const run of [tokens.slice(Math.max(0, index - letters.length), index), tokens.slice(index + 1, index + 1 + letters.length)]) {
      if (!spells(run, letters)) continue;
      for (const word of run) words.add(word.toLowerCase());
      acronyms.add(token);
    }
  });
  return { words, acronyms };
}
