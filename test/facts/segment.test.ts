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
    // Plain ASCII text takes a scanning path; these attack where it hands over to \p{L} and \s.
    ['abbreviations and initials beyond ASCII', 'Frau Müller. Sie kam aus São Paulo zu uns. Der Prof. Dr. Ünal blieb dort lange.', ['Sie kam aus São Paulo zu uns.', 'Der Prof. Dr. Ünal blieb dort lange.']],
    ['a lone non-ASCII initial; a Greek word before a full stop', 'She met É. Zola in Paris last year. The ΟΔΟΣ. Sign was very old indeed.', ['She met É. Zola in Paris last year.', 'Sign was very old indeed.']],
    ['non-breaking spaces, tabs and runs of spaces fold to one space', 'The São Paulo team won twice.\u00a0Then  it   lost\tthree games in a row.', ['The São Paulo team won twice.', 'Then it lost three games in a row.']],
    ['markdown marks beside non-ASCII words', 'Café culture grew. Ça va bien aujourd’hui mes amis. An *emphasised* word, a <b>tag</b> and [[page|a label]] here.', ['Café culture grew.', 'Ça va bien aujourd’hui mes amis.', 'An emphasised word, a tag and a label here.']],
    ['abbreviations of other languages ("bzw.", "ca.", "vgl.", "env.") end no sentence', 'Der Wert liegt bei ca. 8 Sekunden bzw. etwas darüber. Vgl. Tabelle 1 für die Zeiten. Il faut env. 3 heures pour finir.', ['Der Wert liegt bei ca. 8 Sekunden bzw. etwas darüber.', 'Vgl. Tabelle 1 für die Zeiten.', 'Il faut env. 3 heures pour finir.']],
    ['a trailing space and double spaces', 'Two  spaces here are fine now. A line ends with a space here ', ['Two spaces here are fine now.', 'A line ends with a space here']],
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

  it.each([
    ['LF', '---\ntitle: A long title here\ntags: [a, b]\n---\n\nBody text has four words.'],
    ['CRLF', '---\r\ntitle: A long title here\r\ntags: [a, b]\r\n---\r\n\r\nBody text has four words.'],
    ['a BOM', '\uFEFF---\ntitle: A long title here\ntags: [a, b]\n---\n\nBody text has four words.'],
  ])('after front matter (%s), lines still count from the top of the file', (_name, text) => {
    expect(segmentText(text, 'sentence')).toEqual([{ text: 'Body text has four words.', lineStart: 6, lineEnd: 6, heading: '' }]);
  });

  it('an unclosed front matter block is text, not skipped', () => {
    expect(segmentText('---\nThe opening line is never closed here.', 'sentence').map((s) => s.text)).toEqual(['The opening line is never closed here.']);
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

describe('segmentText: inline marks', () => {
  it('drops emphasis marks, but not the underscores inside a word (`snake_case`, `SCREAMING_SNAKE_CASE`)', () => {
    const [sentence] = segmentText('Names in snake_case must not contain uppercase, SCREAMING_SNAKE_CASE no lowercase, and _this_ is __emphasis__.', 'sentence');
    expect(sentence?.text).toBe('Names in snake_case must not contain uppercase, SCREAMING_SNAKE_CASE no lowercase, and this is emphasis.');
  });
});

describe('segmentText: link reference definitions', () => {
  it('are no sentences: where links point states nothing', () => {
    const text = 'The RFC follows UAX31 closely.\n\n[UAX31]: http://www.unicode.org/reports/tr31/\n[Go]: https://golang.org/ref/spec#Identifiers "Go spec"\n';
    expect(segmentText(text, 'sentence').map((s) => s.text)).toEqual(['The RFC follows UAX31 closely.']);
  });
});
