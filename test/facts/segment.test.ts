import { describe, expect, it } from 'vitest';
import { segmentText } from '../../src/facts/segment.js';

describe('segmentText (sentence grain)', () => {
  it.each([
    ['splits sentences and keeps their lines', 'The cat sat on the mat. The dog ran far away.\nIt came back at noon today.', ['The cat sat on the mat.', 'The dog ran far away.', 'It came back at noon today.']],
    ['does not split after abbreviations, initials or decimals', 'Models, e.g. transformers, are big. J. Smith measured 3.5 kg of salt.', ['Models, e.g. transformers, are big.', 'J. Smith measured 3.5 kg of salt.']],
    ['drops inline markdown marks and link targets', 'The **attention** layer is [described here](http://x.y) in `detail` now.', ['The attention layer is described here in detail now.']],
    ['skips fenced code, tables, comments and too-short fragments', '<!-- page 1 -->\n```\nconst a = 1. Const b = 2.\n```\n| a | b |\n|---|---|\nOk.\nThe real sentence is here.', ['The real sentence is here.']],
    ['skips front matter', '---\ntitle: A long title here\n---\nBody text has four words.', ['Body text has four words.']],
    ['each list item starts its own segment', '- first item has words\n- second item has words', ['first item has words', 'second item has words']],
  ])('%s', (_name, text, expected) => {
    expect(segmentText(text, 'sentence').map((s) => s.text)).toEqual(expected);
  });

  it('gives each sentence its line range and heading', () => {
    const text = '# Results\n\nAccuracy rose to 91 percent\nin the final run. Loss fell sharply overall.';
    expect(segmentText(text, 'sentence')).toEqual([
      { text: 'Accuracy rose to 91 percent in the final run.', lineStart: 3, lineEnd: 4, heading: 'Results' },
      { text: 'Loss fell sharply overall.', lineStart: 4, lineEnd: 4, heading: 'Results' },
    ]);
  });

  it('paragraph grain keeps a paragraph whole', () => {
    const segments = segmentText('One sentence here now. Another one follows it.\n\nSecond paragraph stands alone.', 'paragraph');
    expect(segments.map((s) => [s.text, s.lineStart, s.lineEnd])).toEqual([
      ['One sentence here now. Another one follows it.', 1, 1],
      ['Second paragraph stands alone.', 3, 3],
    ]);
  });

  it('is deterministic', () => {
    const text = 'Cats are small animals. Dogs bark very loudly! Is this a question here? Birds fly south.';
    expect(segmentText(text, 'sentence')).toEqual(segmentText(text, 'sentence'));
    expect(segmentText(text, 'sentence')).toHaveLength(4);
  });
});
