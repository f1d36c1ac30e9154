import { describe, expect, it } from 'vitest';
import { groundPage } from '../../src/facts/grounding.js';

/** A claim's negation is flagged only when its polarity clearly differs from what its cited lines say. */
describe('negation against cited lines', () => {
  const reader = (lines: readonly string[]) => (file: string): readonly string[] | undefined => (file === 'raw/src.md' ? lines : undefined);
  const at = (lines: readonly string[], sentence: string, topic = '') => groundPage(sentence, [], undefined, topic, reader(lines)).sentences[0]?.problem;

  it('a restated denial is supported although a heading nearby shares the first word it denies; the same claim asserted is flagged', () => {
    const rfc = [
      '### The diverging block',
      '',
      '"Must diverge" is an unusual requirement, which doesn\'t exist elsewhere in the language as of the time of writing,',
      'and might be difficult to explain or lead to confusing errors for programmers new to this feature.',
      '',
      '### `let PATTERN = if {} else {} else {};`',
    ];
    expect(at(rfc, '"Must diverge" was a requirement found nowhere else in the language, which could be hard to explain. <!-- from: raw/src.md#L3-4 -->')).toBeUndefined();
    expect(at(rfc, 'Confusing errors are not difficult to explain for programmers new to this feature. <!-- from: raw/src.md#L3-4 -->')?.kind).toBe('miscited');
  });

  it('"rather than X" in the cited lines denies X, but not a word it has said plainly already', () => {
    const rfc = ['This is a counterpart to `if let` expressions, and the pattern matching works identically, except that the value', "is assigned to the surrounding scope rather than the block's scope."];
    expect(at(rfc, "Pattern matching works exactly as in `if let`, except the bindings go to the surrounding scope, not the block's. <!-- from: raw/src.md#L1-2 -->")).toBeUndefined();
    const generators = ['In the future, we may also want to be able to define async functions that', 'evaluate to streams, rather than evaluating to futures.'];
    expect(at(generators, 'Async functions can not evaluate to streams in the future. <!-- from: raw/src.md#L1-2 -->')?.kind).toBe('miscited');
    // "Rather, …" opening a sentence asserts what follows.
    const jets = ['The jets cannot be studied one by one.', 'Rather they must be treated as a unit, and the effects of jet interaction taken into account.'];
    expect(at(jets, 'It is not true that they must be treated as a unit. <!-- from: raw/src.md#L2 -->')?.kind).toBe('miscited');
  });

  it('the subject before a negation is denied only within its own sentence', () => {
    const lines = ['The selected file will be reported in the go env', 'variable GOWORK. When not in workspace mode, GOWORK is off.'];
    expect(at(lines, 'The selected file is shown in the variable GOWORK. <!-- from: raw/src.md#L1-2 -->')).toBeUndefined();
    // "variable GOWORK. When not in workspace mode": the variable is not what that negation denies.
    expect(at(lines, 'The selected file is not shown in the variable GOWORK. <!-- from: raw/src.md#L1-2 -->')?.kind).toBe('miscited');
  });

  it('the word right after a negation is excused by a piece whose own negation it follows, not by one where it is the subject', () => {
    const lines = [
      'Inside an async function, other futures can be awaited, yielding control while they are polled.',
      '',
      'More use cases for await will also flourish, that are not tied directly to IO.',
    ];
    expect(at(lines, 'Inside an async function other futures can not be awaited while polled. <!-- from: raw/src.md#L1 -->')?.kind).toBe('miscited');
    expect(at(lines, 'Uses of await will flourish that are not tied to IO. <!-- from: raw/src.md#L3 -->')).toBeUndefined();
  });

  it("a denial of the page's own subject, which its cited lines never mention, is flagged; the plain claim is supported", () => {
    const notes = ['A card refers to other cards by their numbers.', 'These references make the box a web of ideas rather than a list.'];
    expect(at(notes, 'Numbered references between cards are trails on paper: they make the box a web. <!-- from: raw/src.md#L1-2 -->', 'Associative trail')).toBeUndefined();
    expect(at(notes, 'Numbered references between cards are not trails on paper: they make the box a web. <!-- from: raw/src.md#L1-2 -->', 'Associative trail')?.kind).toBe('miscited');
  });

  // Played reviews of held-out pages: denials the cited lines word their own way, each judged a false alarm.
  it('a denial the cited lines word their own way is support: "not all" for "a non-goal", "could not tell" for "unclear", "not declared" for "inappropriate"', () => {
    const goals = ['It should be able to replace the common uses of most of', 'the available embedding tools.', 'Replacing all possible uses is a non-goal.', 'Replacing all possible embedding tools is also a non-goal.'];
    expect(at(goals, 'The design aims to replace the common uses of most embedding tools, explicitly not all uses or all tools. <!-- from: raw/src.md#L1-4 -->')).toBeUndefined();
    const constraints = ['It would also be unclear to users what constraints are placed on the', 'arguments to these calls: they must be string literals.'];
    expect(at(constraints, 'Users could not tell that the arguments must be string literals. <!-- from: raw/src.md#L1-2 -->')).toBeUndefined();
    const modules = ['For the same reason, information about one package’s embedded files', 'is also inappropriate in `go.mod`: each package’s individual meaning should be defined by its Go sources.'];
    expect(at(modules, 'Embedding information is not declared in `go.mod`; each package’s meaning is defined by its Go sources. <!-- from: raw/src.md#L1-2 -->')).toBeUndefined();
  });

  it('a "not" planted in a sentence the cited lines say plainly is still flagged, though another line denies one of its words', () => {
    const wiki = ['Any reader could edit any page from the browser.', 'A word written in CamelCase became a link to the page of that name.', 'A link to a page that did not exist yet showed a question mark.'];
    expect(at(wiki, 'Any reader could edit any page; a CamelCase word became a link. <!-- from: raw/src.md#L1-3 -->')).toBeUndefined();
    expect(at(wiki, 'Any reader could not edit any page; a CamelCase word became a link. <!-- from: raw/src.md#L1-3 -->')?.kind).toBe('miscited');
  });

  it('"A, not B" denies only what it has not asserted: "10 identical pointers, not pointers to 0 through 9"', () => {
    const loop = ['After this loop executes, `ids` contains 10 identical pointers, each pointing at the value 10,', 'instead of 10 distinct pointers to 0 through 9.'];
    expect(at(loop, 'The loop leaves `ids` holding 10 identical pointers to the value 10, not pointers to 0 through 9. <!-- from: raw/src.md#L1-2 -->')).toBeUndefined();
    expect(at(loop, 'The loop does not leave `ids` holding 10 identical pointers to the value 10. <!-- from: raw/src.md#L1-2 -->')?.kind).toBe('miscited');
  });

  it('"embedded" meets "embed" (Porter stems "embed" to "emb"): "cannot both be embedded" is the lines\' "not possible to embed"', () => {
    const cases = ['Another implication is that it is not possible to embed two different', 'files that differ only in the case of their file names.'];
    expect(at(cases, 'Two files whose names differ only in case cannot both be embedded. <!-- from: raw/src.md#L1-2 -->')).toBeUndefined();
  });
});

describe('a denial the cited lines match only on a later word (held-out played wiki 12)', () => {
  const reader = (lines: readonly string[]) => (file: string): readonly string[] | undefined => (file === 'raw/src.md' ? lines : undefined);
  const at = (lines: readonly string[], sentence: string) => groundPage(sentence, [], undefined, '', reader(lines)).sentences[0]?.problem;
  const explainer = [
    'The navigation API state field is kept apart from the serialized state field behind history.state.',
    'It is convenient that existing code using window.history does not inadvertently mess with new code and its state management.',
  ];

  it('is asked about when the word its negation governs first is in no cited line: "is not kept" against a cited "does not … mess with new code"', () => {
    expect(at(explainer, 'It is not held in a new field apart from the serialized state behind history.state. <!-- from: raw/src.md#L1-2 -->')).toMatchObject({ kind: 'miscited', sure: false, reason: expect.stringContaining('"held"') });
  });

  it('good work: the same denial the cited lines make passes', () => {
    expect(at(explainer, 'Existing code using window.history does not mess with new code and its state management. <!-- from: raw/src.md#L2 -->')).toBeUndefined();
  });
});

describe('negation against facts (an uncited claim)', () => {
  const facts = [
    { id: 'f-1', text: 'Because of MVS the versions in the workspace must be at least the same as the versions in each component module.' },
    { id: 'f-2', text: 'The go work sync command writes the versions back into the go.mod file of each module.' },
  ];
  it('when no fact says much of what it says, the facts about it that hold a word it denies decide', () => {
    const claim = (not: string) => `Because of MVS, each dependency version is ${not}at least what every component module requires; go work sync can write those versions back.`;
    expect(groundPage(claim(''), facts).sentences[0]?.problem).toBeUndefined();
    expect(groundPage(claim('not '), facts).sentences[0]?.problem?.kind).toBe('ungrounded');
  });

  it('a label ending in a colon asserts nothing its closest fact\'s negation could contradict; the same words as a sentence are flagged', () => {
    const rules = [{ id: 'f-1', text: "Rust's rules in the 2021 and earlier editions around capturing lifetimes in return position impl Trait (RPIT) opaque types are not helpful to users." }];
    expect(groundPage('Rust 2021 and earlier editions, return position impl Trait rules (RPIT):', rules).sentences[0]?.problem).toBeUndefined();
    expect(groundPage('Rust 2021 and earlier editions, return position impl Trait rules (RPIT) are helpful to users.', rules).sentences[0]?.problem?.kind).toBe('ungrounded');
  });
});

describe('what a negation finding quotes', () => {
  const reader = (lines: readonly string[]) => (file: string): readonly string[] | undefined => (file === 'raw/src.md' ? lines : undefined);
  it('the piece that says the denied word plainly, so a reader sees what the verdict rests on', () => {
    // The first line shares the most words with the sentence; the last is the one that says "moved".
    const lines = ['Tool directive comments in a doc comment, such as //go:build lines, are tool directive comments of the doc comment.', '', 'Other text is reflowed.', '', 'They are moved to the end.'];
    const sentence = groundPage('Tool directive comments are not moved to the end of the doc comment. <!-- from: raw/src.md#L1-5 -->', [], undefined, '', reader(lines)).sentences[0];
    expect(sentence?.problem?.kind).toBe('miscited');
    expect(sentence?.closest?.id).toBe('raw/src.md#L5');
  });
});

describe('what a negation finding says', () => {
  const reader = (lines: readonly string[]) => (file: string): readonly string[] | undefined => (file === 'raw/src.md' ? lines : undefined);
  it('names the word the claim denies and the cited lines do not, or says they do not mention it: a reader can check either', () => {
    const lines = ['Tool directive comments are moved to the end of the doc comment.'];
    const denied = groundPage('Tool directive comments are not moved to the end of the doc comment. <!-- from: raw/src.md#L1 -->', [], undefined, '', reader(lines)).sentences[0]?.problem;
    // The sentence is its cited line with a "not" put in: the check is sure of that one.
    expect(denied).toEqual({ kind: 'miscited', reason: 'it denies "moved", which its cited lines do not deny', sure: true });
  });
});
