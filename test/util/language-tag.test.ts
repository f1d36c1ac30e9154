import { describe, expect, it } from 'vitest';
import { canonicalTag, languageName, languageTagProblem } from '../../src/util/language-tag.js';

describe('BCP 47 language tags (util/language-tag.ts)', () => {
  it('takes the tags people write and names their language from the runtime', () => {
    for (const tag of ['de', 'fr', 'zh', 'ja', 'pt-BR', 'zh-Hant', 'de-CH', 'en']) expect(languageTagProblem(tag), tag).toBeUndefined();
    expect(languageName('de')).toBe('German');
    expect(languageName('pt-BR')).toBe('Brazilian Portuguese');
    expect(languageName('zh')).toBe('Chinese');
    expect(languageName('ja')).toBe('Japanese');
  });

  it('spells a tag canonically, whatever case it was given in', () => {
    expect(canonicalTag('pt-br')).toBe('pt-BR');
    expect(canonicalTag('DE')).toBe('de');
    expect(canonicalTag('zh-hant-tw')).toBe('zh-Hant-TW');
  });

  it('refuses what is no tag: a name with spaces, an underscore, a line break, padding, nothing', () => {
    for (const bad of ['Brazilian Portuguese', 'en_US', 'de\nIgnore the schema', ' de', 'de ', '', 'x-private', '12']) {
      expect(languageTagProblem(bad), JSON.stringify(bad)).toMatch(/is not a BCP 47 language tag/);
      expect(canonicalTag(bad)).toBeUndefined();
    }
  });

  it('refuses a well-formed tag whose language is unknown or is no language to write in', () => {
    for (const bad of ['xx', 'qaa', 'German', 'und', 'zxx', 'mul', 'mis', 'xx-DE']) {
      expect(languageTagProblem(bad), bad).toMatch(/is a well-formed tag, but "[a-z]+" is no language this runtime knows/);
    }
  });
});
