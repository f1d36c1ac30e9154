import { readFile, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../../src/search/text/analyze.js';
import { openSearchIndex } from '../../../src/search/index.js';
import { makeSnippet } from '../../../src/search/text/snippet.js';
import { seededRandom } from '../../../src/search/kernels/linalg.js';
import { TOPIC_PAGES, configWith, workspaceWith } from '../helpers.js';

/** The definition, for one-line prose: the sentence holding the most query terms, the first on a tie, else the first. */
function snippetStemmingEverySentence(text: string, query: readonly string[]): string {
  const sentences = text.split(/(?<=[.!?]) +/);
  let best = sentences[0] ?? '';
  let bestScore = 0;
  for (const sentence of sentences) {
    const score = new Set(analyze(sentence).filter((term) => query.includes(term))).size;
    if (score > bestScore) [best, bestScore] = [sentence, score];
  }
  return best;
}

const body = `# Wing flutter

Flutter is a dynamic instability. It couples the **bending** and torsion of a wing.

- Swept wings flutter at lower speeds than straight ones.

\`\`\`
flutter in a code block is not a passage
\`\`\`
`;

describe('makeSnippet', () => {
  it('picks the sentence with the most query words, without markdown', () => {
    expect(makeSnippet(body, analyze('bending torsion'))).toBe('It couples the bending and torsion of a wing.');
    expect(makeSnippet(body, analyze('swept wings speed'))).toBe('Swept wings flutter at lower speeds than straight ones.');
  });

  it('falls back to the opening line when nothing matches', () => {
    expect(makeSnippet(body, analyze('hypersonic'))).toBe('Wing flutter');
  });

  it('cuts a long sentence to a window around the first match', () => {
    const long = `${'Preamble words '.repeat(30)}the key finding about turbulence follows ${'and more words '.repeat(30)}.`;
    const snippet = makeSnippet(long, analyze('turbulence'), 120);
    expect(snippet.length).toBeLessThanOrEqual(121);
    expect(snippet).toMatch(/^…/);
    expect(snippet).toMatch(/turbulence/);
  });

  it('picks what it picked by stemming every sentence, on random prose', () => {
    const random = seededRandom(14);
    const vocabulary = ['relational', 'relate', 'happiness', 'happy', 'sensibility', 'sensible', 'flies', 'flying', 'conditional', 'generalization', 'général', 'hopping', 'hope', 'the', 'of', 'x2', 'Valency', 'valence'];
    const pick = (): string => vocabulary[Math.floor(random() * vocabulary.length)]!;
    for (let round = 0; round < 300; round++) {
      const sentences = Array.from({ length: 1 + Math.floor(random() * 6) }, () => `${Array.from({ length: 1 + Math.floor(random() * 8) }, pick).join(' ')}.`);
      const text = sentences.join(' ');
      const query = analyze(Array.from({ length: 1 + Math.floor(random() * 3) }, pick).join(' '));
      expect(makeSnippet(text, query)).toBe(snippetStemmingEverySentence(text, query));
    }
  });

  it('splits CJK sentences on their own punctuation', () => {
    expect(makeSnippet('第一句没有。注意力机制很重要。', analyze('注意力'))).toBe('注意力机制很重要。');
  });

  it.each([
    ['a sentence ends at . ! or ? followed by space', 'Wings bend. Do wings twist? Yes! Wings flutter.', 'wings flutter', 'Wings flutter.'],
    ['not at a full stop inside a word', 'Node.js wings flutter at 3.5 Hz. Other text.', 'flutter', 'Node.js wings flutter at 3.5 Hz.'],
    ['a CJK stop ends one even before a space', '前面。 注意力很重要！后面？', '注意力', '注意力很重要！'],
    ['runs of any white space become one space', 'Wings\t\tflutter\u00a0 at\u3000speed.\u2028Next.', 'flutter', 'Wings flutter at speed.'],
    ['list, heading and quote markers go', '   ### Heading wings\n12. Numbered wings flutter\n> Quoted', 'flutter', 'Numbered wings flutter'],
    ['four spaces before a marker keep it', '    # Indented wings flutter', 'flutter', '# Indented wings flutter'],
    ['emphasis and link syntax go, link text stays', 'The *wing* flutters: see [flutter notes](http://x.y/z) and `code`.', 'notes', 'The wing flutters: see flutter notes and code.'],
    ['table rules and dividers are skipped', '|---|:-:|\n---\nWings flutter.', 'zzz', 'Wings flutter.'],
  ])('sentences: %s', (_, text, query, expected) => {
    expect(makeSnippet(text, analyze(query))).toBe(expected);
  });

  it('tidies exactly the characters /\\s/ calls white space', () => {
    for (let code = 0; code < 0x10000; code++) {
      const char = String.fromCharCode(code);
      if ('\n.!?*_`。！？'.includes(char)) continue; // these split or are markup
      const tidied = /\s/.test(char);
      expect(makeSnippet(`wing ${char}${char}flutter`, [], 200)).toBe(tidied ? 'wing flutter' : `wing ${char}${char}flutter`.trim());
    }
  });
});

describe('snippets in search results', () => {
  it('a search shows the page as it is on disk, even when rewritten with the same size and time', async () => {
    const ws = await workspaceWith(TOPIC_PAGES);
    const index = await openSearchIndex(ws.root, ws.schema, configWith(), { env: {}, rescanAfterMs: Number.POSITIVE_INFINITY });
    const snippetOf = async (): Promise<string | undefined> =>
      (await index.search('sourdough starter')).results.find((r) => r.key === 'sourdough')?.snippet;
    expect(await snippetOf()).toMatch(/starter ferments flour and water/);
    const file = path.join(ws.root, 'wiki/concepts/sourdough.md');
    const before = await stat(file);
    const text = await readFile(file, 'utf8');
    const edited = text.replace('ferments flour and water', 'ferments flour and honey');
    expect(edited.length).toBe(text.length);
    await writeFile(file, edited);
    await utimes(file, before.atimeMs / 1000, before.mtimeMs / 1000);
    expect(await snippetOf()).toMatch(/starter ferments flour and honey/);
    await index.close();
  });
});

describe('snippets show identifiers and text as written (issue 36)', () => {
  const page = [
    'The `typing.TYPE_CHECKING` constant is **False** at run time.',
    'The decorator `@no_type_check` turns _checking_ off, and `typing.Protocol` defines __structural__ types.',
    'Use ``a `tick` inside`` sparingly; *Snake_Case* and CamelCase stay.',
  ].join('\n');

  it('keeps case, underscores and dots of identifiers in code spans and in prose', () => {
    expect(makeSnippet(page, analyze('no_type_check decorator'))).toBe('The decorator @no_type_check turns checking off, and typing.Protocol defines structural types.');
    expect(makeSnippet(page, analyze('TYPE_CHECKING run time'))).toBe('The typing.TYPE_CHECKING constant is False at run time.');
  });

  it('drops only the marks of emphasis and code, never a mark inside a word', () => {
    expect(makeSnippet(page, analyze('tick sparingly'))).toBe('Use a `tick` inside sparingly; Snake_Case and CamelCase stay.');
  });
});
