import { describe, expect, it } from 'vitest';
import { anyStrong, hitStrength, keepJudged, pageTerms, WEAK_FLOOR } from '../../src/search/strength.js';
import { analyze } from '../../src/search/text/analyze.js';
import { readableBody } from '../../src/search/text/document.js';
import { makeSnippet } from '../../src/search/text/snippet.js';

const strength = (query: string, title: string, rest: string) => hitStrength(analyze(query), pageTerms(title, rest));

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

describe('keepJudged', () => {
  it('keeps every strong hit and the best, and drops weak hits below the floor', () => {
    const hits = [
      { key: 'a', strength: 'weak' as const, relative: 1 },
      { key: 'b', strength: 'strong' as const, relative: 0.2 },
      { key: 'c', strength: 'weak' as const, relative: WEAK_FLOOR },
      { key: 'd', strength: 'weak' as const, relative: WEAK_FLOOR - 0.01 },
      { key: 'e', strength: undefined, relative: undefined },
    ];
    expect(keepJudged(hits).map((hit) => hit.key)).toEqual(['a', 'b', 'c', 'e']);
    expect(anyStrong(hits.slice(2, 4))).toBe(false);
    expect(anyStrong(hits)).toBe(true);
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
