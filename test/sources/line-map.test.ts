import { describe, expect, it } from 'vitest';
import { followRange, mapLines } from '../../src/sources/line-map.js';

const text = (...lines: string[]): string => `${lines.join('\n')}\n`;

describe('mapLines: where an earlier text\'s lines are now', () => {
  it('follows lines moved down by an inserted paragraph', () => {
    const map = mapLines(text('a', 'b', 'c'), text('new 1', 'new 2', 'a', 'b', 'c'));
    expect([1, 2, 3].map((line) => map.newLineOf(line))).toEqual([3, 4, 5]);
  });

  it('loses a line that was edited or removed', () => {
    const map = mapLines(text('a', 'b', 'c', 'd'), text('a', 'B!', 'd'));
    expect(map.newLineOf(1)).toBe(1);
    expect(map.newLineOf(2)).toBeUndefined();
    expect(map.newLineOf(3)).toBeUndefined();
    expect(map.newLineOf(4)).toBe(3);
  });

  it('numbers lines as read_file does: a last line without a newline counts, CRLF is one line end', () => {
    const map = mapLines('a\r\nb', 'x\na\nb');
    expect(map.oldLineCount).toBe(2);
    expect(map.newLineOf(2)).toBe(3);
  });
});

describe('followRange: a cited range moves only when it moved whole', () => {
  const map = mapLines(text('a', 'b', 'c', 'd', 'e'), text('top', 'a', 'b', 'c', 'inserted', 'd', 'E'));

  it('moves a range whose lines all moved together', () => {
    expect(followRange(map, 1, 3)).toEqual({ kind: 'kept', first: 2, last: 4 });
  });

  it('is changed when a line was inserted inside it', () => {
    expect(followRange(map, 3, 4)).toEqual({ kind: 'changed' });
  });

  it('is changed when one of its lines was edited', () => {
    expect(followRange(map, 4, 5)).toEqual({ kind: 'changed' });
  });
});

describe('mapLines: markup is no change', () => {
  it('a line whose only change is its emphasis, code marks or spacing keeps its place (played re-ingest: six of twelve sentences handed back for a moved "**")', () => {
    const before = 'Intro\n**Access gate:** read only after a click.\nUse `fetch` here.\nEnd';
    const after = 'New line\nIntro\nAccess gate: **read only after a click.**\nUse fetch  here.\nEnd';
    const map = mapLines(before, after);
    expect([1, 2, 3, 4].map((line) => map.newLineOf(line))).toEqual([2, 3, 4, 5]);
  });
  it('a changed word is still a change, and snake_case keeps its underscore', () => {
    const map = mapLines('Chrome 147 has shipped it.\nset max_items here', 'Chrome 148 has shipped it.\nset maxitems here');
    expect(map.newLineOf(1)).toBeUndefined();
    expect(map.newLineOf(2)).toBeUndefined();
  });
});
