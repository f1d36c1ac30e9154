import { describe, expect, it } from 'vitest';
import type { TextItem } from 'pdfjs-dist/types/src/display/api.js';
import { linesFromItems, pageMarker } from '../../src/sources/pdf.js';

/** A text item at (x, y) whose glyphs are `width` wide, as pdf.js reports it. */
function item(str: string, x: number, y: number, width: number, hasEOL = false, height = 10): TextItem {
  return { str, dir: 'ltr', transform: [height, 0, 0, height, x, y], width, height, fontName: 'F1', hasEOL };
}

describe('linesFromItems', () => {
  it('joins the pieces of one baseline, adding a space only where there is a visible gap', () => {
    const lines = linesFromItems([item('Self', 72, 700, 20), item('-attention', 92, 700, 45), item('works', 140, 700, 25)]);
    expect(lines).toEqual(['Self-attention works']);
  });

  it('starts a new line when the baseline moves or an item ends with EOL', () => {
    const lines = linesFromItems([
      item('first', 72, 700, 20, true),
      item('second', 72, 688, 30),
      item('third', 72, 676, 25),
    ]);
    expect(lines).toEqual(['first', 'second', 'third']);
  });

  it('turns a large vertical gap into a blank line between paragraphs', () => {
    const lines = linesFromItems([item('para one', 72, 700, 40), item('para two', 72, 650, 40)]);
    expect(lines).toEqual(['para one', '', 'para two']);
  });

  it('ignores marked-content entries and empty EOL items', () => {
    const lines = linesFromItems([
      { type: 'beginMarkedContent', id: 'x' },
      item('alpha', 72, 700, 25),
      item('', 97, 700, 0, true),
      { type: 'endMarkedContent', id: 'x' },
      item('beta', 72, 688, 20),
    ]);
    expect(lines).toEqual(['alpha', 'beta']);
  });
});

describe('pageMarker', () => {
  it('is the HTML comment provenance can point at', () => {
    expect(pageMarker(3)).toBe('<!-- page 3 -->');
  });
});
