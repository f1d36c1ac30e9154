import { describe, expect, it } from 'vitest';
import { anyStrong, hitStrength, judgeHits, judgedWindow, pageTerms, queryIdentifiers, strengthTerms, WEAK_FLOOR } from '../../src/search/strength.js';
import { analyze } from '../../src/search/text/analyze.js';
import { readableBody } from '../../src/search/text/document.js';
import { makeSnippet } from '../../src/search/text/snippet.js';

const strength = (query: string, title: string, rest: string, summary = '') => hitStrength(analyze(query), pageTerms(title, summary, rest));
/** Weights as a wiki's document frequencies give them: `common` terms are in most pages. */
const weighted = (common: readonly string[]) => (term: string) => (common.includes(term) ? 0.2 : term === 'absent' ? 3 : 1.5);

describe('hitStrength', () => {
  it('is strong for a page named by the query that holds its words', () => {
    expect(strength('Go subtest', 'Go subtest\ngo subtest', 'A subtest is a call to t.Run.')).toBe('strong');
    expect(strength('how does the checksum database handle failures', 'Go checksum database\ngo checksum database', 'Failures are handled as hard failures.')).toBe('strong');
  });

  it('is weak for a page that only mentions the words, or lacks one', () => {
    expect(strength('Russ Cox', 'Go checksum database\ngo checksum database', 'Proposed by Russ Cox and Filippo Valsorda.')).toBe('weak');
    expect(strength('quantum computing', 'Go module proxy\ngo module proxy', 'out of the trusted computing base')).toBe('weak');
    expect(strength('the a of', 'Anything', 'the a of')).toBe('weak');
  });
});

describe('hitStrength for a model\'s long keyword queries (the played runs\' search_wiki calls)', () => {
  const wsQuery = 'Go workspace module version selection go.work MVS replace';
  const mvs = 'minimal version selection and MVS pick the module version; in a Go workspace go.work lists modules; a replace wins.';

  it('is strong for the pages the keywords name, though no title names half of them', () => {
    expect(strength(wsQuery, 'Minimal version selection (MVS)\nminimal version selection', mvs)).toBe('strong');
    expect(strength(wsQuery, 'Go workspace (go.work)\ngo workspace', mvs)).toBe('strong');
    expect(strength('Go checksum database trust failure hard failure verification', 'Go checksum database\ngo checksum database', 'Trust nothing: a failure to verify is a hard failure.')).toBe('strong');
    expect(strength('Rust pattern matching let-else if-let refutable pattern', 'let-else statement\nlet else', 'A Rust refutable pattern, matching as if-let does.')).toBe('strong');
  });

  it('stays weak for a page whose name shares one keyword, or that lacks the words', () => {
    expect(strength(wsQuery, 'Replace directive\nreplace directive', mvs)).toBe('weak');
    expect(strength(wsQuery, 'The go command (cmd/go)\ngo command', mvs)).toBe('weak');
    expect(strength(wsQuery, 'Build list\nbuild list', mvs)).toBe('weak');
    // Named, but about little of what is asked: cancellation, timeouts and select are absent.
    expect(strength('Rust async cancellation timeout select macro', 'Async/await in Rust\nasync await', 'Rust async functions return futures; dropping one cancels it.')).toBe('weak');
    expect(strength('Python asyncio event loop scheduling', 'Rust RFC 3137: let-else statements\nrust let else rfc', 'An event in the loop.')).toBe('weak');
  });

  it('judges queries of up to four terms as before: the title names half of them', () => {
    expect(strength('Go checksum', 'Go checksum database\ngo checksum database', 'Go checksum database.')).toBe('strong');
    expect(strength('module proxy caching rules', 'Go module proxy\ngo module proxy', 'module proxy caching rules')).toBe('strong');
    expect(strength('module caching rules today', 'Go module proxy\ngo module proxy', 'module caching rules today')).toBe('weak');
  });
});

describe('hitStrength with term weights (issue 36)', () => {
  const go = weighted(['go', 'type']);
  const overcapturing = pageTerms('Overcapturing in impl Trait\nimpl trait overcapturing', 'The problem of Rust impl Trait opaque types capturing generic parameters their hidden type does not use.', 'In Go generic code too.');
  const subtest = pageTerms('Go subtest\ngo subtest', 'A Go subtest is a named test started from inside another test with t.Run.', 'Subtests run with t.Run.');

  it('is strong for a question in other words than the title when the name and summary say it', () => {
    expect(hitStrength(analyze('How do I run a named test inside another test in Go?'), subtest, go)).toBe('strong');
  });

  it('is weak for a subject the wiki lacks though a summary holds its words', () => {
    expect(hitStrength(analyze('Go generics and type parameters'), overcapturing, go)).toBe('weak');
    // A page whose name shares only a common word with the query.
    const typeAlias = pageTerms('Type alias (Go)\ntype alias', 'A Go declaration type T1 = T2.', 'Generics and type parameters came later.');
    expect(hitStrength(analyze('Go generics and type parameters'), typeAlias, go)).toBe('weak');
  });

  it('is weak when the query\'s most telling word is on no page', () => {
    const page = pageTerms('Unicode normalization\nunicode normalization', 'NFC normalization of identifiers.', '');
    expect(hitStrength(['unicod', 'normal', 'absent'], page, weighted([]))).toBe('weak');
    expect(hitStrength(['unicod', 'normal'], page, weighted([]))).toBe('strong');
  });
});

describe('hitStrength on identifiers (issue 36)', () => {
  const typeChecking = pageTerms('TYPE_CHECKING constant\ntype checking constant', 'The typing.TYPE_CHECKING constant.', 'Unlike @no_type_check, it is a constant.');
  const protocols = pageTerms('Structural subtyping with protocols\nprotocols', 'PEP 544 protocols.', 'See typing.Protocol.');

  it('reads an identifier in the query as one term, whole', () => {
    expect(strengthTerms('no_type_check decorator')).toEqual(['decor', 'no_type_check']);
    expect(strengthTerms('typing.Protocol')).toEqual(['typing.protocol']);
    // A number is not an identifier: its parts stay words.
    expect(strengthTerms('Go 1.10 release')).toEqual(['go', '1', '10', 'releas']);
  });

  it('is strong for the page named by the identifier, weak for one that names only its words', () => {
    expect(hitStrength(strengthTerms('TYPE_CHECKING'), typeChecking)).toBe('strong');
    expect(hitStrength(strengthTerms('no_type_check'), typeChecking)).toBe('weak');
  });

  it('reads a qualified name as what it qualifies', () => {
    expect(hitStrength(strengthTerms('typing.Protocol'), protocols)).toBe('strong');
    expect(hitStrength(strengthTerms('typing.Protocol'), typeChecking)).toBe('weak');
  });
});

describe('hitStrength: a summary that names the code the query names', () => {
  const sanitizer = pageTerms('Sanitizer API\nsanitizer api', 'A proposed browser-built HTML sanitizer exposed through setHTML, parseHTML and their Unsafe variants.', 'Element.setHTML parses a string.');
  const crossSite = pageTerms('Cross-site scripting\ncross site scripting', 'Unintended JavaScript execution from untrusted HTML strings.', 'The safe setHTML method is designed to stop it.');
  const judge = (query: string, page: ReturnType<typeof pageTerms>) => hitStrength(strengthTerms(query), page, () => 1, queryIdentifiers(query));

  it('is strong for the page whose summary names the query\'s identifier, though its title does not (a held-out played wiki labelled "setHTML" on "Sanitizer API" weak)', () => {
    expect(queryIdentifiers('setHTML and queryLocalFonts()')).toEqual(new Set(['sethtml', 'querylocalfonts']));
    expect(judge('setHTML', sanitizer)).toBe('strong');
  });

  it('stays weak for a page that names the identifier only in its body, and for a query of common words a summary holds', () => {
    expect(judge('setHTML', crossSite)).toBe('weak');
    expect(judge('untrusted HTML strings', sanitizer)).toBe('weak');
    const overcapturing = pageTerms('Overcapturing in impl Trait\nimpl trait overcapturing', 'The problem of Rust impl Trait opaque types capturing generic parameters their hidden type does not use.', '');
    expect(judge('capturing generic parameters', overcapturing)).toBe('weak');
  });
});

describe('judgeHits', () => {
  const hit = (key: string, strength: 'strong' | 'weak' | undefined, score: number) => ({ key, strength, score, relative: undefined as number | undefined });

  it('puts strong hits before weak ones, so a label never rises down the list', () => {
    const judged = judgeHits([hit('a', 'weak', 1), hit('b', 'weak', 0.9), hit('c', 'strong', 0.8), hit('d', 'strong', 0.3)], 10);
    expect(judged.map((h) => h.key)).toEqual(['c', 'd', 'a', 'b']);
    expect(judged.map((h) => h.strength)).toEqual(['strong', 'strong', 'weak', 'weak']);
    expect(judged.map((h) => h.relative)).toEqual([0.8, 0.3, 1, 0.9]);
  });

  it('keeps every strong hit and the first, and drops weak hits below the floor of the best score', () => {
    const judged = judgeHits([hit('a', 'weak', 1), hit('b', 'strong', 0.2), hit('c', 'weak', WEAK_FLOOR), hit('d', 'weak', WEAK_FLOOR - 0.01)], 10);
    expect(judged.map((h) => h.key)).toEqual(['b', 'a', 'c']);
    const allWeak = judgeHits([hit('a', 'weak', 0.5), hit('b', 'weak', 0.1)], 10);
    expect(allWeak.map((h) => h.key)).toEqual(['a']);
    expect(anyStrong(allWeak)).toBe(false);
  });

  it('judges the same window whatever the limit, then cuts to it', () => {
    expect(judgedWindow(1)).toBe(judgedWindow(5));
    expect(judgedWindow(50)).toBe(50);
    const hits = [hit('a', 'weak', 1), hit('b', 'weak', 0.95), hit('c', 'strong', 0.7)];
    expect(judgeHits(hits, 1).map((h) => h.key)).toEqual(['c']);
  });

  it('keeps hits not judged (snippets off) in score order, all of them', () => {
    expect(judgeHits([hit('a', undefined, 1), hit('b', undefined, 0.1)], 10).map((h) => h.key)).toEqual(['a', 'b']);
  });
});

describe('snippets read as prose', () => {
  it('show [[key|label]] as its label and [[key]] as the key\'s words, without provenance comments, cut on a word', () => {
    const body = readableBody(
      'Intro line.\n\nThe essay by [[vannevar-bush|Vannevar Bush]] proposed the [[memex#Design]] and its trails, which later inspired hypertext systems and, through them, the first wiki of [[ward-cunningham]] many decades later in Portland. <!-- from: raw/memex-notes.md#L3-9 -->\n',
    );
    const snippet = makeSnippet(body, analyze('memex trails'));
    expect(snippet).toContain('The essay by Vannevar Bush proposed the memex and its trails');
    expect(snippet).toContain('the first wiki of ward cunningham');
    expect(snippet).not.toMatch(/\[\[|<!--|from:/);
    expect(snippet.length).toBeLessThanOrEqual(200);
    expect(snippet).toMatch(/(\w|\.|…)$/);
  });
});

describe('pageTerms on a hostile page', () => {
  it('reads a page of one huge word, and huge identifiers, in one pass', () => {
    const huge = 'a'.repeat(400_000);
    const terms = pageTerms('Huge', '', `${huge} ${'x_'.repeat(100_000)}y`);
    expect(terms.all.has(huge)).toBe(true);
    expect([...terms.all].some((term) => term.startsWith('x_x_'))).toBe(true);
  });
});
