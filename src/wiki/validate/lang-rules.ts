import { languageTagProblem } from '../../util/language-tag.js';
import type { Page } from '../page.js';
import { finding, type Finding } from './finding.js';

/**
 * A page's `lang` names the language it is written in, as a BCP 47 tag (`de`, `pt-BR`):
 * search analyses the page in it and translate reads it. A name (`German`) or a typo would
 * be taken for no language at all (`German` is a well-formed tag, of no known language),
 * so it is refused at write time and reported by lint.
 */
export function langFieldFindings(page: Page): Finding[] {
  const lang = page.frontmatter.lang;
  if (lang === undefined) return [];
  const problem = typeof lang === 'string' ? languageTagProblem(lang) : `${JSON.stringify(lang)} is not a BCP 47 language tag`;
  if (problem === undefined) return [];
  return [
    finding('lang-field', page.path, `lang: ${problem}`, {
      fix: 'set lang to the tag of the language the page is written in, such as de, fr, zh, ja or pt-BR, or remove it',
    }),
  ];
}
