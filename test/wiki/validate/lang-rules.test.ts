import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parsePage } from '../../../src/wiki/page.js';
import { parseSchema } from '../../../src/wiki/schema-loader.js';
import { langFieldFindings } from '../../../src/wiki/validate/lang-rules.js';

const contract = parseSchema(readFileSync(new URL('../../../templates/schema.md', import.meta.url), 'utf8')).contract;
const withLang = (line: string) => parsePage('wiki/concepts/haus.md', `---\ntitle: Haus\nsummary: Ein Haus.\n${line}\n---\nEin Haus ist ein Gebäude.\n`, contract);

describe("a page's lang field (lang-field)", () => {
  it('passes a page without lang and a page whose lang is a tag of a known language', () => {
    for (const line of ['', 'lang: de', 'lang: zh-Hant', 'lang: pt-BR', 'lang: pt-br']) expect(langFieldFindings(withLang(line)), line).toEqual([]);
  });

  it('reports a language name, a malformed tag, an unknown language and a value that is not text, with the fix', () => {
    for (const line of ['lang: German', 'lang: en_US', 'lang: xx', 'lang: [de, fr]', 'lang: 42', 'lang: ""']) {
      const [found, ...rest] = langFieldFindings(withLang(line));
      expect(rest, line).toEqual([]);
      expect(found?.rule, line).toBe('lang-field');
      expect(found?.message, line).toMatch(/^lang: /);
      expect(found?.fix).toMatch(/such as de, fr, zh, ja or pt-BR/);
    }
  });
});
