/**
 * BCP 47 language tags (`de`, `fr`, `zh`, `ja`, `pt-BR`), checked and named with the
 * runtime's own Intl data, so no table of languages is kept here. A tag is used in two
 * places: the `language` setting (what the model writes in) and a page's `lang` field.
 */

/** Codes that are well-formed and known but name no language to write in. */
const NOT_A_LANGUAGE: ReadonlySet<string> = new Set(['und', 'mul', 'zxx', 'mis']);

const englishNames = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });

/** The tag in its canonical spelling (`pt-br` → `pt-BR`), or undefined when it is not a well-formed BCP 47 tag. */
export function canonicalTag(tag: string): string | undefined {
  if (tag.trim() !== tag || tag === '') return undefined;
  try {
    return Intl.getCanonicalLocales(tag)[0];
  } catch {
    return undefined;
  }
}

/**
 * Why `tag` cannot be the language pages are written in, or undefined when it can:
 * malformed, or well-formed with a language the runtime does not know (`xx`, `qaa`) or
 * that is not one (`und`, `zxx`).
 */
export function languageTagProblem(tag: string): string | undefined {
  const canonical = canonicalTag(tag);
  if (canonical === undefined) return `"${tag}" is not a BCP 47 language tag (such as de, fr, zh, ja, pt-BR)`;
  // The first subtag is the language; Intl.Locale leaves `und` out of its `language`.
  const language = (canonical.split('-')[0] ?? '').toLowerCase();
  if (NOT_A_LANGUAGE.has(language) || englishNames.of(language) === undefined) {
    return `"${tag}" is a well-formed tag, but "${language}" is no language this runtime knows (e.g. de, fr, zh, ja, pt-BR)`;
  }
  return undefined;
}

/** The language's English name for a prompt (`pt-BR` → "Brazilian Portuguese"); the tag itself when the runtime has no name. */
export function languageName(tag: string): string {
  const canonical = canonicalTag(tag) ?? tag;
  try {
    return englishNames.of(canonical) ?? canonical;
  } catch {
    return canonical;
  }
}
