import { describe, expect, it } from 'vitest';
import { GroundingCache, groundPage } from '../../src/facts/grounding.js';
import { numbersOf } from '../../src/facts/word-tokens.js';
import { alter } from '../../scripts/measure/facts.js';

const facts = [
  { id: 'f-1', text: 'The Golden Gate Bridge opened in 1937 after four years of work.' },
  { id: 'f-2', text: 'Its main span is 1,280 metres long.' },
  { id: 'f-3', text: 'The bridge is not a suspension bridge of the older kind.' },
];

describe('groundPage', () => {
  it.each([
    ['a sentence its source states', 'The Golden Gate Bridge opened in 1937 after four years of work.', undefined],
    ['a light paraphrase', 'The main span of the bridge is 1280 metres long.', undefined],
    ['a changed year', 'The Golden Gate Bridge opened in 1938 after four years of work.', 'unsupported-number'],
    ['a changed name', 'The Brooklyn Bridge opened after four years of work.', 'ungrounded'],
    ['an added negation', 'The Golden Gate Bridge did not open after four years of work.', 'ungrounded'],
    ['a dropped negation', 'The bridge is a suspension bridge of the older kind.', 'ungrounded'],
    ['something no source says', 'Pelicans nest under the roadway every spring season.', 'ungrounded'],
  ])('%s', (_name, sentence, expected) => {
    const [result] = groundPage(sentence, facts).sentences;
    expect(result?.problem?.kind).toBe(expected);
  });

  it('an uncited negation is checked against a closest fact saying much of the same, not one sharing a word', () => {
    const rfc = [{ id: 'f-1', text: 'Feature Name: async_await' }, { id: 'f-2', text: 'The text of the RFC was written by the language team.' }];
    expect(groundPage('No individual authors are named in the text.', rfc).sentences[0]?.problem).toBeUndefined();
    expect(groundPage('The Golden Gate Bridge did not open after four years of work.', facts).sentences[0]?.problem?.kind).toBe('ungrounded');
  });

  it('quotes the closest fact and scores the page by its supported share', () => {
    const body = '# Bridge\n\nThe Golden Gate Bridge opened in 1937 after four years of work.\nIts main span is 2,000 metres long.\n\n- [[golden-gate]]\n- [[brooklyn-bridge]]\n\n```\nnot 99 claims here\n```';
    const grounding = groundPage(body, facts);
    expect(grounding.sentences.map((s) => [s.line, s.problem?.kind, s.closest?.id])).toEqual([
      [3, undefined, 'f-1'],
      [4, 'unsupported-number', 'f-2'],
    ]);
    expect(grounding.score).toBe(0.5);
  });

  it('a page without claims scores 1; a page with no facts to check against flags every claim', () => {
    expect(groundPage('# Only a heading\n\n- [[a-link]]', facts).score).toBe(1);
    expect(groundPage('Some claim about otters without any source at all.', []).score).toBe(0);
  });

  it('a cache shared across pages (as lint shares one) changes no result', () => {
    const other = [{ id: 'f-9', text: 'The Brooklyn Bridge opened in 1883 over the East River.' }, ...facts];
    const bodies = [
      'The Golden Gate Bridge opened in 1937 after four years of work. Its main span is 2,000 metres long.',
      'The Brooklyn Bridge opened in 1883 over the East River. The bridge is a suspension bridge.',
      'The Golden Gate Bridge did not open after four years of work.',
    ];
    const shared = new GroundingCache();
    for (const body of [...bodies, ...bodies]) {
      for (const set of [facts, other]) expect(groundPage(body, set, shared)).toEqual(groundPage(body, set));
    }
  });

  it('ranks equally supported facts by id, whatever order they come in; facts sharing no word are no candidates', () => {
    const unordered = [
      { id: 'f-c', text: 'Otters hold hands while they sleep.' },
      { id: 'f-a', text: 'Otters hold stones in a pouch.' },
      { id: 'f-d', text: 'Whales sing long songs at night.' },
      { id: 'f-b', text: 'Otters hold their breath underwater.' },
    ];
    const [sentence] = groundPage('Otters hold many things all day.', unordered).sentences;
    expect(sentence?.candidates.map((f) => f.id)).toEqual(['f-a', 'f-b', 'f-c']);
  });

  it('reads numbers with thousands separators as one number', () => {
    expect(numbersOf('from 1,280 to 3.5 in 1937')).toEqual(['1280', '3.5', '1937']);
  });
});

describe('alter (planted falsifications)', () => {
  it.each([
    ['Accuracy was 91 percent in trials.', 'Accuracy was 98 percent in trials.'],
    ['The study by Smith found effects.', 'The study by Castellan found effects.'],
    ['the effect was large in mice', 'the effect was not large in mice'],
  ])('%s', (sentence, expected) => {
    expect(alter(sentence)).toBe(expected);
  });
});

describe('groundPage: an uncited claim grounded through the pages its paragraph cites', () => {
  const sources = [
    { id: 'f-1', text: 'We ran a program over the git logs of the top 14k modules, looking for commits that only added x := x lines.' },
    { id: 'f-2', text: 'Loops capture one variable for all iterations.' },
  ];
  const loopvarPage = [{ id: 'wiki/sources/go-loopvar.md#12', text: 'About 600 commits in the top 14k modules consisted only of added x := x lines, roughly half of them unnecessary.' }];
  const linked = (keys: readonly string[]) => (keys.includes('go-loopvar') ? loopvarPage : []);
  const ground = (sentence: string) => groundPage(sentence, sources, new GroundingCache(), '', undefined, linked).sentences[0]?.problem?.kind;

  it('a saved answer citing [[go-loopvar]] for a figure that page states is grounded; without the link it is not', () => {
    expect(ground('About 600 commits in the top 14k modules only added x := x lines ([[go-loopvar]]).')).toBeUndefined();
    expect(groundPage('About 600 commits in the top 14k modules only added x := x lines.', sources).sentences[0]?.problem?.kind).toBe('unsupported-number');
  });

  it('a changed number, a swapped name or an added negation is still flagged against the linked page', () => {
    expect(ground('About 900 commits in the top 14k modules only added x := x lines ([[go-loopvar]]).')).toBe('unsupported-number');
    expect(ground('In the top 14k modules Okonkwo found 600 commits that only added x := x lines ([[go-loopvar]]).')).toBeDefined();
    expect(ground('About 600 commits in the top 14k modules never added x := x lines ([[go-loopvar]]).')).toBeDefined();
  });

  it("a paragraph that links nowhere (a saved answer's summary) is grounded through every page its page links", () => {
    const body = 'About 600 commits in the top 14k modules only added x := x lines.\n\nLoops capture one variable for all iterations ([[go-loopvar]]).';
    expect(groundPage(body, sources, new GroundingCache(), '', undefined, linked).sentences[0]?.problem).toBeUndefined();
    expect(groundPage(body.replace('600', '900'), sources, new GroundingCache(), '', undefined, linked).sentences[0]?.problem?.kind).toBe('unsupported-number');
    expect(groundPage('About 600 commits in the top 14k modules only added x := x lines.', sources, new GroundingCache(), '', undefined, linked).sentences[0]?.problem?.kind).toBe('unsupported-number');
  });

  it('a denial the linked page states is grounded through it; the same words asserted are flagged', () => {
    const futures = [{ id: 'wiki/concepts/rust-future-trait.md#35', text: 'Once a future has returned Ready, further poll calls may panic, block forever or otherwise misbehave; the trait guarantees nothing.' }];
    const viaFutures = (sentence: string) => groundPage(sentence, sources, new GroundingCache(), '', undefined, (keys) => (keys.includes('rust-future-trait') ? futures : [])).sentences[0]?.problem?.kind;
    expect(viaFutures('Polling a future again after it returned Ready may panic, block or misbehave, and the trait guarantees nothing ([[rust-future-trait]]).')).toBeUndefined();
    expect(viaFutures('Polling a future again after it returned Ready may not panic, block or misbehave ([[rust-future-trait]]).')).toBeDefined();
  });
});

describe("groundPage: the page title's words", () => {
  const lines = ['With this change, `go install` would overlap with `go get` even more, so we also', 'propose deprecating and removing the ability for `go get` to install packages.'];
  const reader = (file: string): readonly string[] | undefined => (file === 'raw/src.md' ? lines : undefined);
  const ground = (sentence: string) => groundPage(sentence, [], new GroundingCache(), 'Proposal: go install should install executables', reader).sentences[0]?.problem?.kind;

  it('count as held beside words its cited lines hold, so a paraphrase about the subject is supported', () => {
    // Played review M: this sentence was "its cited lines say nothing like it".
    expect(ground('Because the new `go install` overlaps even more with `go get`, the proposal phases out installing with `go get`. <!-- from: raw/src.md#L1-2 -->')).toBeUndefined();
  });

  it('are not enough alone: a sentence about the subject that says nothing its lines say is flagged', () => {
    expect(ground('The go install proposal was written by a committee in Paris during winter. <!-- from: raw/src.md#L1-2 -->')).toBe('miscited');
  });
});

describe('groundPage: numbers are content', () => {
  const lines = ['Examples:', '', '0x1p-2    // == 0.25', '0x2.p10   // == 2048.0', '0x1.Fp+0  // == 1.9375'];
  const reader = (file: string): readonly string[] | undefined => (file === 'raw/src.md' ? lines : undefined);
  const ground = (sentence: string) => groundPage(sentence, [], new GroundingCache(), '', reader).sentences[0]?.problem?.kind;

  it('a sentence of examples whose values its cited lines state is supported; a changed value is flagged', () => {
    expect(ground('Examples: `0x1p-2` is 0.25, `0x2.p10` is 2048.0, `0x1.Fp+0` is 1.9375. <!-- from: raw/src.md#L1-5 -->')).toBeUndefined();
    expect(ground('Examples: `0x1p-2` is 0.5, `0x2.p10` is 2048.0, `0x1.Fp+0` is 1.9375. <!-- from: raw/src.md#L1-5 -->')).toBe('unsupported-number');
  });
});

describe('groundPage: the year a source is dated', () => {
  const lines = Array.from({ length: 40 }, (_, i) => (i === 29 ? 'The interface is a draft design and may change before it is released.' : `filler line ${i + 1}`));
  lines[4] = 'July 2020, revision 7';
  const facts = [
    { id: 'f-date', text: 'July 2020, revision 7', source: 'raw/src.md', lineStart: 5, lineEnd: 5 },
    { id: 'f-body', text: lines[29]!, source: 'raw/src.md', lineStart: 30, lineEnd: 30 },
  ];
  const reader = (file: string): readonly string[] | undefined => (file === 'raw/src.md' ? lines : undefined);
  const ground = (sentence: string) => groundPage(sentence, facts, new GroundingCache(), '', reader).sentences[0]?.problem?.kind;

  it('a claim citing later lines may give the year its source\'s header states; another year is still flagged', () => {
    expect(ground('At the time of the source (July 2020) the interface was a draft design that may change. <!-- from: raw/src.md#L30 -->')).toBeUndefined();
    expect(ground('At the time of the source (July 2021) the interface was a draft design that may change. <!-- from: raw/src.md#L30 -->')).toBe('unsupported-number');
    // A number that is no year is not taken from the header.
    expect(ground('The interface was a draft design in 7 parts that may change. <!-- from: raw/src.md#L30 -->')).toBe('unsupported-number');
    // An uncited claim (a saved answer's) is dated by its sources' heads, read from the file when no fact states them.
    const rfc = [...lines];
    rfc[1] = '- Start Date: 2023-07-26';
    const bodyOnly = [facts[1]!];
    const uncited = (sentence: string) => groundPage(sentence, bodyOnly, new GroundingCache(), '', (file) => (file === 'raw/src.md' ? rfc : undefined)).sentences[0]?.problem?.kind;
    expect(uncited('In 2023 the interface was a draft design and may change before it is released.')).toBeUndefined();
    expect(uncited('In 2024 the interface was a draft design and may change before it is released.')).toBe('unsupported-number');
    // A header date ("Start Date: 2020-07-26") dates the source in its year too.
    const dated = [{ ...facts[0]!, text: 'Start Date: 2020-07-26' }, facts[1]!];
    expect(groundPage('In 2020 the interface was a draft design that may change. <!-- from: raw/src.md#L30 -->', dated, new GroundingCache(), '', reader).sentences[0]?.problem).toBeUndefined();
  });
});
