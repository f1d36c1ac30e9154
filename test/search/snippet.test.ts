import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/search/analyze.js';
import { makeSnippet } from '../../src/search/snippet.js';

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

  it('splits CJK sentences on their own punctuation', () => {
    expect(makeSnippet('第一句没有。注意力机制很重要。', analyze('注意力'))).toBe('注意力机制很重要。');
  });
});
