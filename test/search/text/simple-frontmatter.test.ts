import { describe, expect, it } from 'vitest';
import { parseFrontmatterYaml } from '../../../src/wiki/page.js';
import { parseSimpleFrontmatter } from '../../../src/search/text/simple-frontmatter.js';
import { seededRandom } from '../../../src/search/kernels/linalg.js';

/** What the page model makes of a frontmatter block: an object, or undefined when it does not parse. */
function viaYaml(yaml: string): unknown {
  try {
    return parseFrontmatterYaml(yaml);
  } catch {
    return undefined;
  }
}

describe('parseSimpleFrontmatter', () => {
  const accepted: Array<[string, Record<string, unknown>]> = [
    ['title: Wing flutter\nsummary: How wings shake.', { title: 'Wing flutter', summary: 'How wings shake.' }],
    ['tags: [aero, structures]\nrefs: []', { tags: ['aero', 'structures'], refs: [] }],
    ['created: 2026-01-01\nupdated: 2026-01-02', { created: '2026-01-01', updated: '2026-01-02' }],
    ["title: 'It''s: quoted'\nsummary: \"a: b # c\"", { title: "It's: quoted", summary: 'a: b # c' }],
    ['title: C# and C++ [notes] {draft}\ntags: [c#, "x y"]', { title: 'C# and C++ [notes] {draft}', tags: ['c#', 'x y'] }],
    ['stale_since:\ntitle:   spaced   out   ', { stale_since: null, title: 'spaced   out' }],
    ['', {}],
  ];
  it.each(accepted)('reads %j as the YAML parser does', (yaml, expected) => {
    expect(parseSimpleFrontmatter(yaml)).toEqual(expected);
    expect(parseSimpleFrontmatter(yaml)).toEqual(viaYaml(yaml));
  });

  const declined = [
    'tags:\n  - a\n  - b',
    'title: a: b',
    'title: x # comment',
    'count: 12',
    'draft: true',
    'title: ~',
    'title: *alias',
    'title: "esc\\"aped"',
    'title: one\ntitle: two',
    'title: first line\n  continued',
    'meta: {a: 1}',
    'null: x',
    '# comment\ntitle: x',
    'title: x\r\nsummary: y',
    'tags: [a, , b]',
    'tags: [[[link]]]',
    'tags: [c#, "x, y"]',
  ];
  it.each(declined)('leaves %j to the YAML parser', (yaml) => {
    expect(parseSimpleFrontmatter(yaml)).toBeUndefined();
  });

  it('never disagrees with the YAML parser on what it accepts (random frontmatter)', () => {
    const random = seededRandom(7);
    const pick = <T,>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
    const pieces = ['word', 'Two words', ' ', ':', ': ', '#', ' #', '-', '[', ']', ',', '{', '}', "'", '"', '?', '!', '&', '*',
      '12', '1.5', 'true', 'null', '~', '.inf', '0x1F', '2026-01-01', 'é', '\u00a0', 'C++', 'gpt-4o', '%', '@', '`', '|', '>'];
    const scalar = (): string => Array.from({ length: 1 + Math.floor(random() * 4) }, () => pick(pieces)).join('');
    const value = (): string => {
      const kind = random();
      if (kind < 0.1) return '';
      if (kind < 0.35) return `[${Array.from({ length: Math.floor(random() * 4) }, scalar).join(pick([', ', ',', ' , ']))}]`;
      if (kind < 0.45) return `"${scalar()}"`;
      if (kind < 0.55) return `'${scalar()}'`;
      return scalar();
    };
    const keys = ['title', 'summary', 'tags', 'refs', 'created', 'type', 'x-y', 'true', 'Null'];
    let compared = 0;
    for (let n = 0; n < 20000; n++) {
      const lines = Array.from({ length: 1 + Math.floor(random() * 4) }, () => `${pick(keys)}:${pick([' ', '  ', ''])}${value()}`);
      const yaml = lines.join('\n');
      const fast = parseSimpleFrontmatter(yaml);
      if (fast === undefined) continue;
      compared++;
      expect([yaml, fast]).toEqual([yaml, viaYaml(yaml)]);
    }
    expect(compared).toBeGreaterThan(1000);
  });
});
