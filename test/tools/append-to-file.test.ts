import { describe, expect, it } from 'vitest';
import { appendedText } from '../../src/tools/append-to-file.js';

describe('what append_to_file puts after a page', () => {
  it('one blank line before a heading, however the page ends and the text opens (never two)', () => {
    for (const previous of ['- last item.', '- last item.\n', '- last item.\n\n']) {
      for (const content of ['## See also\n- [[a]]', '\n## See also\n- [[a]]', '\n\n## See also\n- [[a]]\n']) {
        expect(previous + appendedText(previous, content)).toBe('- last item.\n\n## See also\n- [[a]]\n');
      }
    }
  });

  it('text that opens with a blank line gets one; other text continues on the next line', () => {
    expect(appendedText('A paragraph.\n', '\nAnother paragraph.')).toBe('\nAnother paragraph.\n');
    expect(appendedText('- one\n', '- two')).toBe('- two\n');
    expect(appendedText('- one', '- two')).toBe('\n- two\n');
  });
});
