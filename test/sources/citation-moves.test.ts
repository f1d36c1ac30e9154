import { describe, expect, it } from 'vitest';
import { mapLines } from '../../src/sources/line-map.js';
import { moveCitations, movedByHand } from '../../src/sources/citation-moves.js';

const source = (n: number): string[] => Array.from({ length: n }, (_, i) => `line ${i + 1}`);
const v1 = `${source(10).join('\n')}\n`;
const v2 = `${['inserted a', 'inserted b', ...source(10)].join('\n')}\n`;

const page = [
  '---',
  'title: Example',
  'sources: [raw/x.md#L2-3, raw/other.md#L2-3]',
  '---',
  'First claim. <!-- from: raw/x.md#L2-3 -->',
  'Second claim. <!-- from: raw/x.md#L7 -->',
  'Other source. <!-- from: raw/other.md#L2-3 -->',
  'Mentions raw/x.md#L4 in prose, not a citation.',
  '',
].join('\n');

describe('moveCitations: citations follow their lines', () => {
  it('moves every citation of the source below an inserted paragraph, body and frontmatter, and nothing else', () => {
    const moves = moveCitations(page, 'raw/x.md', mapLines(v1, v2));
    expect(moves.moved).toBe(3);
    expect(moves.changed).toEqual([]);
    expect(moves.text).toContain('sources: [raw/x.md#L4-5, raw/other.md#L2-3]');
    expect(moves.text).toContain('First claim. <!-- from: raw/x.md#L4-5 -->');
    expect(moves.text).toContain('Second claim. <!-- from: raw/x.md#L9 -->');
    expect(moves.text).toContain('Other source. <!-- from: raw/other.md#L2-3 -->');
    expect(moves.text).toContain('Mentions raw/x.md#L4 in prose');
  });

  it('leaves a range whose lines changed as it was and reports it with its page line', () => {
    const edited = v1.replace('line 7\n', 'line seven, reworded\n');
    const moves = moveCitations(page, 'raw/x.md', mapLines(v1, edited));
    expect(moves.changed).toEqual([{ line: 6, first: 7, last: 7 }]);
    expect(moves.text).toContain('Second claim. <!-- from: raw/x.md#L7 -->');
    expect(moves.moved).toBe(0);
    expect(moves.unmoved).toBe(2);
  });

  it('does not take raw/x.md.bak for raw/x.md', () => {
    const text = 'A claim. <!-- from: raw/x.md.bak#L2 -->\n';
    expect(moveCitations(text, 'raw/x.md', mapLines(v1, v2)).text).toBe(text);
  });

  it('changes nothing when the source did not move', () => {
    const moves = moveCitations(page, 'raw/x.md', mapLines(v1, v1));
    expect(moves.text).toBe(page);
    expect(moves.unmoved).toBe(3);
  });
});

describe('renameSourceIn: a renamed source is the same source', () => {
  it('renames it in sources and citations, and nowhere else', async () => {
    const { renameSourceIn } = await import('../../src/sources/citation-moves.js');
    const moved = renameSourceIn(page, 'raw/x.md', 'raw/papers/x-v1.md');
    expect(moved.renamed).toBe(3);
    expect(moved.text).toContain('sources: [raw/papers/x-v1.md#L2-3, raw/other.md#L2-3]');
    expect(moved.text).toContain('First claim. <!-- from: raw/papers/x-v1.md#L2-3 -->');
    expect(moved.text).toContain('Mentions raw/x.md#L4 in prose');
    expect(renameSourceIn('---\nsources: [raw/x.md.bak]\n---\nA. <!-- from: raw/x.md.bak#L1 -->\n', 'raw/x.md', 'raw/y.md').renamed).toBe(0);
  });
});

describe('a citation left where it is', () => {
  it('a range `keep` names is not moved and is reported with the changed ones', () => {
    const moves = moveCitations(page, 'raw/x.md', mapLines(v1, v2), (first, last) => first === 7 && last === 7);
    expect(moves.text).toContain('Second claim. <!-- from: raw/x.md#L7 -->');
    expect(moves.text).toContain('First claim. <!-- from: raw/x.md#L4-5 -->');
    expect(moves.changed).toEqual([{ line: 6, first: 7, last: 7 }]);
  });
});

describe('movedByHand: the ranges a person already moved to where their lines went', () => {
  const map = mapLines(v1, v2);
  it('finds a range renumbered exactly as the change moved its lines', () => {
    const edited = page.replace('First claim. <!-- from: raw/x.md#L2-3 -->', 'First claim. <!-- from: raw/x.md#L4-5 -->');
    expect([...movedByHand(page, edited, 'raw/x.md', map)]).toEqual(['4-5']);
  });

  it('not a range named in prose', () => {
    const edited = page.replace('Mentions raw/x.md#L4 in prose', 'Mentions raw/x.md#L6 in prose');
    expect([...movedByHand(page, edited, 'raw/x.md', map)]).toEqual([]);
  });

  it('not a range left as the tool wrote it, one renumbered elsewhere, or a sentence rewritten', () => {
    expect([...movedByHand(page, page, 'raw/x.md', map)]).toEqual([]);
    expect([...movedByHand(page, page.replace('raw/x.md#L2-3 -->', 'raw/x.md#L5-6 -->'), 'raw/x.md', map)]).toEqual([]);
    expect([...movedByHand(page, page.replace('First claim. <!-- from: raw/x.md#L2-3 -->', 'First claim, reworded. <!-- from: raw/x.md#L4-5 -->'), 'raw/x.md', map)]).toEqual([]);
  });
});
