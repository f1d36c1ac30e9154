import { describe, expect, it } from 'vitest';
import { claimsOf } from '../../src/facts/claims.js';
import { groundPage } from '../../src/facts/grounding.js';
import { isOrdinaryEnglish } from '../../src/facts/english-words.js';

/**
 * What the grounding check is sure of (a warning) and what it only asks (a question), issue 36:
 * sure of a number or date its cited lines do not state, a name its sources never mention
 * (capitalised, an identifier, a rare word that is no English word), cited lines sharing
 * nothing with the claim, and a denial put into a cited line's own words; every other
 * mismatch is a question. Messages quote the page's words, never stems.
 */
const source = [
  'Type checkers such as mypy read the annotations of a module.',
  'The `no_type_check` decorator turns checking off for one function, and `typing.Protocol` describes structural types.',
  'Guido van Rossum wrote the proposal with Jukka Lehtosalo in 2014.',
  '',
  'Annotations are stored in the `__annotations__` attribute and are not evaluated at run time by the interpreter.',
  'Checkers may warn when a function returns a value of another type than its annotation says.',
];
const read = (file: string): readonly string[] | undefined => (file === 'raw/pep.md' ? source : undefined);
const ground = (sentence: string, lines = 'L1') => groundPage(`${sentence} <!-- from: raw/pep.md#${lines} -->`, [], undefined, '', read).sentences[0]?.problem;

describe('grounding verdicts: what the check is sure of', () => {
  it('a number or date its cited lines do not state', () => {
    expect(ground('Guido van Rossum wrote the proposal with Jukka Lehtosalo in 2015.', 'L3')).toMatchObject({ kind: 'unsupported-number', numbers: ['2015'], sure: true });
  });

  it('a capitalised name its sources never mention, quoted as written, whatever its dictionary status ("Grace Hopper")', () => {
    const problem = ground('Guido van Rossum wrote the proposal with Grace Hopper in 2014.', 'L3');
    expect(problem).toMatchObject({ kind: 'miscited', sure: true });
    expect(problem && 'reason' in problem ? problem.reason : '').toBe('it names "Grace Hopper", which its sources never mention');
  });

  it('a lower-case tool name its sources never mention ("javac" where they say "mypy"), in prose or in code', () => {
    expect(ground('Type checkers such as javac read the annotations of a module.')).toMatchObject({ kind: 'miscited', reason: 'it names "javac", which its sources never mention', sure: true });
    expect(ground('Type checkers such as `javac` read the annotations of a module.')).toMatchObject({ kind: 'miscited', sure: true });
    expect(ground('Type checkers such as mypy read the annotations of a module.')).toBeUndefined();
  });

  it('an identifier its sources never mention: snake_case, dotted, CamelCase, in code spans or not', () => {
    expect(ground('The `no_type_checking` decorator turns checking off for one function.', 'L2')).toMatchObject({ reason: 'it names "no_type_checking", which its sources never mention', sure: true });
    expect(ground('Structural types are described by typing.Protocols in the module.', 'L2')).toMatchObject({ reason: 'it names "typing.Protocols", which its sources never mention', sure: true });
    expect(ground('Structural types are described by `StructuralProtocol` in the module.', 'L2')).toMatchObject({ sure: true });
    expect(ground('The `no_type_check` decorator turns checking off for one function.', 'L2')).toBeUndefined();
    expect(ground('Structural types are described by `typing.Protocol`.', 'L2')).toBeUndefined();
  });

  it('cited lines that share no word with the claim', () => {
    expect(ground('Pelicans nest under the bridge every spring.', 'L3')).toMatchObject({ kind: 'miscited', reason: 'its cited lines share no word with it', sure: true });
  });

  it("a denial put into a cited line's own words", () => {
    expect(ground('Checkers may not warn when a function returns a value of another type than its annotation says.', 'L6')).toMatchObject({ kind: 'miscited', reason: 'it denies "warn", which its cited lines do not deny', sure: true });
  });
});

describe('grounding verdicts: what the check asks about', () => {
  it('a denial worded another way is a question, quoting the word as written', () => {
    const problem = ground('Checkers never warn about returned values.', 'L6');
    expect(problem).toMatchObject({ kind: 'miscited', sure: false });
    expect(problem && 'reason' in problem ? problem.reason : '').toMatch(/^it denies "warn", which its cited lines do not deny$/);
  });

  it('partial support is a question that quotes the words the lines lack, not their stems', () => {
    const problem = ground('The interpreter rewrites every enhancement registry at import time using cached bytecode.', 'L5');
    expect(problem).toMatchObject({ kind: 'miscited', sure: false });
    const reason = problem && 'reason' in problem ? problem.reason : '';
    expect(reason).toMatch(/^its cited lines hold few of its words \(not "[^"]*enhancement[^"]*"/);
    expect(reason).not.toMatch(/enhanc\b/);
  });

  it('an uncited claim naming what its sources say elsewhere, not in its closest fact, is a question', () => {
    const facts = [
      { id: 'f-1', text: 'Type checkers read the annotations of a module and report errors.' },
      { id: 'f-2', text: 'Jukka Lehtosalo wrote the first checker.' },
    ];
    const problem = groundPage('Type checkers from Lehtosalo read the annotations of a module and report errors.', facts).sentences[0]?.problem;
    expect(problem).toMatchObject({ kind: 'ungrounded', sure: false });
  });

  it('an ordinary English word the sources do not use is no name: no finding', () => {
    expect(isOrdinaryEnglish('sturdy')).toBe(true);
    expect(isOrdinaryEnglish('runtime')).toBe(true); // "run" + "time"
    expect(isOrdinaryEnglish('javac')).toBe(false);
    expect(isOrdinaryEnglish('mypy')).toBe(false);
    expect(ground('Type checkers such as mypy read the sturdy annotations of a module.')).toBeUndefined();
  });
});

describe("a paper's apparatus and math are evidence like any line", () => {
  const paper = [
    '---',
    "title: 'Ferrite.jl: a finite element toolbox'",
    'authors:',
    '  - name: Kristoffer Carlsson',
    '    affiliation: 1',
    'bibliography: paper.bib',
    '---',
    '',
    'We assemble the stiffness matrix with Ferrite.jl [@carlsson2021] and test the hypothesis $H_{0_1}$ against $\\alpha = 0.05$.',
    '',
    '# References',
  ];
  const readPaper = (file: string): readonly string[] | undefined => (file === 'raw/paper.md' ? paper : undefined);
  const check = (sentence: string, lines: string) => groundPage(`${sentence} <!-- from: raw/paper.md#${lines} -->`, [], undefined, '', readPaper).sentences[0]?.problem;

  it('front matter and bibliography lines support what they say; YAML name keys are no denial', () => {
    expect(check('The paper is by Kristoffer Carlsson, and its citation keys point into paper.bib.', 'L2-6')).toBeUndefined();
    expect(check('Kristoffer Carlsson is named as the author in the front matter.', 'L3-4')).toBeUndefined();
  });

  it('a citation key is a token like any other: the same key passes, another key is a name the paper never mentions', () => {
    expect(check('The stiffness matrix is assembled with Ferrite.jl [@carlsson2021].', 'L9')).toBeUndefined();
    expect(check('The stiffness matrix is assembled with Ferrite.jl [@lindgren2011].', 'L9')).toMatchObject({ sure: true });
  });

  it('math written in Unicode is the claim its LaTeX source states', () => {
    expect(check('The hypothesis H0₁ is tested against α = 0.05.', 'L9')).toBeUndefined();
    expect(check('The hypothesis $H_{0_1}$ is tested against $\\alpha = 0.05$.', 'L9')).toBeUndefined();
    expect(check('The hypothesis H0₂ is tested against α = 0.05.', 'L9')).toMatchObject({ sure: true });
  });

  it('a description from outside the paper ("the finite element package Ferrite.jl", where it never says what Ferrite.jl is) is at least a question', () => {
    expect(check('The stiffness matrix is assembled with the finite element package Ferrite.jl.', 'L9')).toMatchObject({
      kind: 'miscited',
      reason: 'it calls "Ferrite.jl" "finite element package", which its cited lines do not',
      sure: false,
    });
    expect(check('The stiffness matrix is assembled with Ferrite.jl, a finite element package, by the authors.', 'L9')).toMatchObject({ sure: false });
    expect(check('The stiffness matrix is assembled with the package Ferrite.jl.', 'L9')).toBeUndefined();
  });

  it('a sentence about what the folder lacks states no claim', () => {
    expect(claimsOf('The citation keys point into paper.bib, which the folder does not include. <!-- from: raw/paper.md#L6 -->')).toEqual([]);
  });
});

describe('not claims: acronym expansions and sentences about the wiki', () => {
  const pep = ['A PEP is a design document for the language.', 'Every PEP has a number and a champion.'];
  const readPep = (file: string): readonly string[] | undefined => (file === 'raw/peps.md' ? pep : undefined);
  const check = (sentence: string) => groundPage(`${sentence} <!-- from: raw/peps.md#L1-2 -->`, [], undefined, '', readPep).sentences[0]?.problem;

  it('the expansion of an acronym its sources use ("PEP" → "Python Enhancement Proposal") names nothing new, before or after it', () => {
    expect(check('A Python Enhancement Proposal (PEP) is a design document for the language.')).toBeUndefined();
    expect(check('Every PEP (Python Enhancement Proposal) has a number and a champion.')).toBeUndefined();
    // An acronym the sources never use is still a name they never mention, expansion or not.
    expect(check('A Rust Feature Case (RFC) is a design document for the language.')).toMatchObject({ sure: true });
  });

  it('"A comparison is saved as [[…]]" is about the wiki, not a claim', () => {
    expect(claimsOf('A comparison of the two designs is saved as [[go-vs-rust-comparison]].')).toEqual([]);
    expect(claimsOf('The comparison was filed under [[comparisons/typing]] for later.')).toEqual([]);
    expect(claimsOf('Type checkers such as mypy read annotations ([[mypy]]).').length).toBe(1);
  });
});

describe('grounding verdicts: a document\'s own name and listed numbers (held-out played wikis 8 and 9)', () => {
  const proposal = ['# KEP-2599: minReadySeconds for StatefulSets', '', 'The controller waits minReadySeconds before it counts a pod available.', 'Plots use xlim=(-0.5,0.5) for the window.'];
  const readKep = (file: string): readonly string[] | undefined => (file === 'raw/kep.md' ? proposal : undefined);
  const groundKep = (sentence: string, lines: string) => groundPage(`${sentence} <!-- from: raw/kep.md#${lines} -->`, [], undefined, '', readKep).sentences[0]?.problem;

  it('a number that is part of a name the source writes anywhere ("KEP-2599" in its title) is stated', () => {
    expect(groundKep('KEP-2599 makes the controller wait minReadySeconds before it counts a pod available.', 'L3')).toBeUndefined();
  });

  it('a number in a name the source never writes is still a sure warning', () => {
    expect(groundKep('KEP-3001 makes the controller wait minReadySeconds before it counts a pod available.', 'L3')).toMatchObject({ kind: 'unsupported-number', sure: true });
  });

  it('numbers listed with a comma ("-0.5,0.5") are each stated', () => {
    expect(groundKep('Plots use a window whose edge is at 0.5.', 'L4')).toBeUndefined();
  });
});

describe('grounding verdicts: what a careful page writes its own way is not a sure warning (held-out played wikis 9 and 10)', () => {
  const paper = [
    '# The model',
    '',
    'It defines the expected colony weight over time as having an initial size ($W_0$), a growth rate ($\\lambda$), and a rate of decline ($\\delta$) after the switch.',
    'minReadySeconds is already available for Deployments, DaemonSets, ReplicasSets and Replication Controllers.',
    'Memory management is described in a [companion document](./MEMORY-MANAGEMENT.md).',
    '## FAQ',
    'Decorators have reached stage 3.',
  ];
  const readPaper = (file: string): readonly string[] | undefined => (file === 'raw/paper.md' ? paper : undefined);
  const groundPaper = (sentence: string, lines: string) => groundPage(`${sentence} <!-- from: raw/paper.md#${lines} -->`, [], undefined, '', readPaper).sentences[0]?.problem;

  it('math the page writes itself ("$W_t = \\lambda^tW_0$") names no one', () => {
    expect(groundPaper('Expected colony weight is $W_t = \\lambda^tW_0$ with initial size $W_0$, growth rate $\\lambda$ and decline rate $\\delta$.', 'L3')).toBeUndefined();
  });

  it('but a name in the prose beside the math is still read', () => {
    expect(groundPaper('Expected colony weight $W_t$ was defined by Grace Hopper with growth rate $\\lambda$.', 'L3')).toMatchObject({ sure: true, reason: expect.stringContaining('"Grace Hopper"') });
  });

  it("a name one letter off one its source writes is the source's typo corrected, not a sure warning", () => {
    expect(groundPaper('minReadySeconds is already available for Deployments, DaemonSets, ReplicaSets and Replication Controllers.', 'L4')).toBeUndefined();
  });

  it('a name further off is still a sure warning', () => {
    expect(groundPaper('minReadySeconds is already available for Deployments, DaemonSets, JobQueues and Replication Controllers.', 'L4')).toMatchObject({ sure: true, reason: expect.stringContaining('"JobQueues"') });
  });

  it('a word the source writes only in a heading ("## FAQ") is mentioned', () => {
    expect(groundPaper('The FAQ says decorators have reached stage 3.', 'L7')).toBeUndefined();
  });

  it('a denial of something its cited lines never mention adds to them: a question, not a warning', () => {
    expect(groundPaper('Memory management is described in a companion document, MEMORY-MANAGEMENT.md, which is not in the folder.', 'L5')).toMatchObject({ sure: false });
  });
});

describe('grounding verdicts: abbreviations a source uses (held-out played wiki 11)', () => {
  const paper = ['The authors thank Gareth McKinley from the Massachusetts Institute of Technology.', 'Corporate Research Laboratory, 3M, Maplewood, MN, 55144, USA'];
  const readPaper = (file: string): readonly string[] | undefined => (file === 'raw/paper.md' ? paper : undefined);
  const groundPaper = (sentence: string, lines: string) => groundPage(`${sentence} <!-- from: raw/paper.md#${lines} -->`, [], undefined, '', readPaper).sentences[0]?.problem;

  it('an acronym its source spells out with small words between ("MIT" for "Massachusetts Institute of Technology") is no unknown name', () => {
    expect(groundPaper('The authors thank Gareth McKinley of MIT.', 'L1')).toBeUndefined();
  });

  it('a name its cited lines abbreviate ("Minnesota" where they write "MN") is a question, not a warning', () => {
    expect(groundPaper('The laboratory is at 3M in Maplewood, Minnesota.', 'L2')).toMatchObject({ sure: false });
  });

  it('a name no abbreviation of the cited lines fits is still a sure warning', () => {
    expect(groundPaper('The laboratory is at 3M in Maplewood, Wisconsin.', 'L2')).toMatchObject({ sure: true, reason: expect.stringContaining('"Wisconsin"') });
  });
});

describe('grounding verdicts: a name its sources write in a derived form (held-out played wiki 12)', () => {
  const paper = ['Samples were taken from the Bermudian Seafloor in 2019.'];
  const readPaper = (file: string): readonly string[] | undefined => (file === 'raw/paper.md' ? paper : undefined);
  const groundPaper = (sentence: string) => groundPage(`${sentence} <!-- from: raw/paper.md#L1 -->`, [], undefined, '', readPaper).sentences[0]?.problem;

  it('"Bermuda" where the source says "Bermudian" is a question, not a warning', () => {
    expect(groundPaper('Samples were taken from the seafloor near Bermuda in 2019.')).toMatchObject({ sure: false });
  });

  it('a name whose stem no source word begins with is still a sure warning', () => {
    expect(groundPaper('Samples were taken from the seafloor near Barbados in 2019.')).toMatchObject({ sure: true, reason: expect.stringContaining('"Barbados"') });
  });
});

describe('grounding verdicts: what the played wiki 13 warned about wrongly', () => {
  const source = ['The derivation is given in Appx. B of the earlier paper.', 'Use `<link rel="expect" href="#main" blocking="render">` to block rendering.'];
  const read = (file: string): readonly string[] | undefined => (file === 'raw/s.md' ? source : undefined);
  const at = (sentence: string, lines: string) => groundPage(`${sentence} <!-- from: raw/s.md#${lines} -->`, [], undefined, '', read).sentences[0]?.problem;

  it('"Appendix" where the cited line writes "Appx." is a question, not a warning; a name no abbreviation fits still warns', () => {
    expect(at('The derivation is in Appendix B of the earlier paper.', 'L1')).toMatchObject({ sure: false });
    expect(at('The derivation is in Zurich B of the earlier paper.', 'L1')).toMatchObject({ sure: true });
  });

  it('words in a code span count as shared with the cited lines; a sentence sharing nothing at all still warns', () => {
    expect(at('The same `<link rel="expect" blocking="render">` form is the anti-flicker technique.', 'L2')?.sure).not.toBe(true);
    expect(at('Pelicans nest under the bridge every spring.', 'L2')).toMatchObject({ sure: true, reason: 'its cited lines share no word with it' });
  });
});
