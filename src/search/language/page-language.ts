import { detectLanguage, SAMPLE_CHARS } from './detect.js';
import { ENGLISH, languageOf } from './languages.js';

/**
 * The language a page is analysed in: its frontmatter `lang` (a BCP 47 tag, read as a plain
 * string) when that is a tag; else the language its text is in, when that can be told;
 * else `fallback`: the wiki's configured language, or English as search always read pages.
 */
export function pageLanguage(declared: unknown, title: string, summary: string, body: string, fallback: string = ENGLISH): string {
  return languageOf(declared) ?? detectLanguage(`${title}\n${summary}\n${body.slice(0, SAMPLE_CHARS)}`) ?? fallback;
}
