import { describe, expect, it } from 'vitest';
import { claimsOf } from '../../src/facts/claims.js';
import { claimTerms } from '../../src/facts/claim-terms.js';
import { groundPage } from '../../src/facts/grounding.js';

describe('claimsOf', () => {
  it('leaves out navigation: link entries with a few words saying what is there, and any uncited link entry under "Related pages" or "See also"', () => {
    const body = [
      'Workspaces let several modules be built together. <!-- from: raw/a.md#L3 -->',
      '- [[minimal-version-selection]] and [[build-list]]: how versions are chosen, now with several main modules.',
      '',
      '## Related pages',
      '',
      '- [[never-type]]: the divergence its `else` block requires.',
      '- [[gopls]]: the editor tooling whose supermodules motivated the proposal, which builds one synthesised module from all the modules a user opens.',
      '- [[build-list]]: the versions chosen for a build, one per module. <!-- from: raw/a.md#L9 -->',
      'Numbered references between cards are trails on paper. <!-- from: raw/a.md#L21-22 -->',
      '',
      '## Details',
      '',
      '- [[gopls]]: the editor tooling whose supermodules motivated the proposal, which builds one synthesised module from all the modules a user opens.',
    ].join('\n');
    expect(claimsOf(body).map((c) => c.text)).toEqual([
      'Workspaces let several modules be built together.',
      // cited: a claim, wherever it stands
      'build-list: the versions chosen for a build, one per module.',
      'Numbered references between cards are trails on paper.',
      // a long entry outside a navigation section says something of its own
      'gopls: the editor tooling whose supermodules motivated the proposal, which builds one synthesised module from all the modules a user opens.',
    ]);
  });

  it('gives each sentence its own citation, a paragraph cited once at its end to all its sentences, a lone citation to the list under it', () => {
    const body = [
      'First claim about lines ten to twenty. <!-- from: raw/a.md#L10-20 --> Second claim about thirty. <!-- from: raw/a.md#L30 -->',
      '',
      'One uncited sentence here. Then a cited sentence ends it. <!-- from: raw/a.md#L40-41 -->',
      '',
      '<!-- from: raw/b.md#L5-9 -->',
      '- A listed claim without its own citation.',
      '- Another listed claim with one. <!-- from: raw/b.md#L7 -->',
      '',
      '## Next',
      '',
      'A sentence under a new heading stays uncited.',
    ].join('\n');
    expect(claimsOf(body).map((c) => [c.text, c.citations.map((x) => `${x.file}#${x.first}-${x.last}`)])).toEqual([
      ['First claim about lines ten to twenty.', ['raw/a.md#10-20']],
      ['Second claim about thirty.', ['raw/a.md#30-30']],
      ['One uncited sentence here.', ['raw/a.md#40-41']],
      ['Then a cited sentence ends it.', ['raw/a.md#40-41']],
      ['A listed claim without its own citation.', ['raw/b.md#5-9']],
      ['Another listed claim with one.', ['raw/b.md#7-7']],
      ['A sentence under a new heading stays uncited.', []],
    ]);
  });

  it('quotes a sentence with its own spacing: `if !let` and `let x: ! = …` keep their spaces, a citation takes only its own', () => {
    const body = [
      'The old RFC proposed pattern negation as if !let PAT = EXPR, which was rejected. <!-- from: raw/r.md#L353-355 -->',
      'The desugaring assigns the else body with `let nope: ! = { return; };` and then matches it. <!-- from: raw/r.md#L250-258 --> It ends the function !',
      'A cited clause <!-- from: raw/r.md#L1 --> and its rest stay one sentence.',
    ].join('\n\n');
    expect(claimsOf(body).map((c) => c.text)).toEqual([
      'The old RFC proposed pattern negation as if !let PAT = EXPR, which was rejected.',
      'The desugaring assigns the else body with `let nope: ! = { return; };` and then matches it.',
      'It ends the function !',
      'A cited clause and its rest stay one sentence.',
    ]);
  });

  it('leaves out what is not a claim: code, tables, link keys, pointers, the tool-written Evidence section and blocks', () => {
    const body = [
      '```',
      'Not 99 claims in a code block at all.',
      '```',
      '| key | value |',
      '| --- | --- |',
      '| rfc-9110 | 9110 |',
      'See [[rfc-9110]] and [[http-semantics|HTTP semantics]] for more.',
      'This wiki keeps its pages short and linked.',
      '<!-- wiki:catalog:start -->',
      'A generated line that reads like a claim.',
      '<!-- wiki:catalog:end -->',
      'The `fetch` call in [[http-client]] returns a response object.',
      '',
      '## Evidence',
      '',
      'Pages consulted: `saved-answer-key`',
      '- `wiki/concepts/x.md:12 some evidence chain line of text`',
    ].join('\n');
    const claims = claimsOf(body);
    expect(claims.map((c) => c.text)).toEqual(['The `fetch` call in http-client returns a response object.']);
    expect(claims[0]?.checked).toBe('The call in returns a response object.');
  });

  it('leaves a pointer inside a sentence out of what is checked: "(see Open issues)" names nothing', () => {
    const [claim] = claimsOf('The capture problem is acknowledged but unresolved (see Open issues).');
    expect(claim?.checked).toBe('The capture problem is acknowledged but unresolved .');
    expect(claimTerms(claim?.checked ?? '').names).toEqual([]);
  });
});

describe('claimsOf: what a source leaves out', () => {
  it('a sentence saying what the source (or the wiki) does not say is no claim; one denying what the source does is', () => {
    const body = [
      'The source does not name its authors.',
      'It reports no measurements of how many files lazy loading saves.',
      'The wiki does not record the release it shipped in.',
      'The change is separate; the source does not spell out how the two are connected.',
      'Saved answer to the question: "How does Go embed files into a binary?"',
      'This answer draws on three pages of the wiki.',
      'The RFC does not reserve the keyword in older editions.',
      'The proposal never changes the meaning of existing programs.',
    ].join('\n\n');
    expect(claimsOf(body).map((claim) => claim.text)).toEqual(['The RFC does not reserve the keyword in older editions.', 'The proposal never changes the meaning of existing programs.']);
  });
});

describe('claimsOf: absences and pointers written the way a careful page writes them (held-out played wiki 11)', () => {
  it('"The venue is not stated in the text", "The file states no date", "The explainer does not say whether …" are no claims; a sentence pointing to a page is none either', () => {
    const body = [
      'The venue is not stated in the text; its tags are Rheology and Python.',
      'The file states no date or venue.',
      'The explainer does not say whether the function has been adopted.',
      'The central mechanism is described on [[import-map]].',
      'The mechanism is described in [[import-map]] and ships in every browser.',
      'The paper is not stated to be peer reviewed by anyone but its authors, who are not named.',
      'Import maps are not supported in workers.',
    ].join('\n\n');
    expect(claimsOf(body).map((claim) => claim.text)).toEqual([
      'The mechanism is described in import-map and ships in every browser.',
      'Import maps are not supported in workers.',
    ]);
  });
});

describe('claimsOf: sentences with several citations (held-out played wiki 13)', () => {
  it('a full stop before two citation comments still ends the sentence, on one line or across lines', () => {
    const across = 'Profiles are discretized by the number of angles. <!-- from: raw/a.md#L1 --> <!-- from: raw/a.md#L3 -->\nSmall steps give a zig-zag line with many minor peaks. <!-- from: raw/a.md#L5 -->\n';
    expect(claimsOf(across).map((claim) => [claim.text, claim.citations.map((c) => c.first)])).toEqual([
      ['Profiles are discretized by the number of angles.', [1, 3]],
      ['Small steps give a zig-zag line with many minor peaks.', [5]],
    ]);
    const inline = 'Profiles are discretized by the number of angles. <!-- from: raw/a.md#L1 --> <!-- from: raw/a.md#L3 --> Small steps give a zig-zag line. <!-- from: raw/a.md#L5 -->';
    expect(claimsOf(inline).map((claim) => claim.citations.map((c) => c.first))).toEqual([[1, 3], [5]]);
  });
});

describe('claimTerms', () => {
  it('reads numbers as values and dates as dates, whatever their format', () => {
    expect(claimTerms('About 1,000 cards').numbers).toEqual([1000]);
    expect(claimTerms('it started on 9 August 2016').dates).toEqual(['2016-08-09']);
    expect(claimTerms('09-Aug-2016').dates).toEqual(['2016-08-09']);
    expect(claimTerms('August 9, 2016 and 2016-08-09').dates).toEqual(['2016-08-09', '2016-08-09']);
  });

  it('does not read versions and hashes as numbers; a number in a name or an enumerator is one any place in the sources may state', () => {
    const terms = claimTerms('RFC 9110 and Go 1.13 replaced v1.5.2 at commit 3f9a2c1e, as step (2) says');
    expect(terms.numbers).toEqual([9110, 1.13, 2]);
    expect(terms.namedNumbers).toEqual([9110, 1.13, 2]);
    expect(claimTerms('the error is about 30 percent at k=2.0').numbers).toEqual([30, 2]);
  });

  it('does not read an acronym spelled by the words before it as a new name; other capitals stay names', () => {
    expect(claimTerms('Trust on first use (TOFU) is a model.').names).toEqual([]);
    expect(claimTerms('The model is like TOFU in SSH.').names).toEqual(['tofu', 'ssh']);
  });

  it('in evidence, a negation governs its clause, and "avoids", "eliminate", "unlikely" deny what follows them as "not" does', () => {
    expect(claimTerms('It seems unlikely that using macros which expand to generators will result in a faster stabilization.', true).negatedWords).toContain('faster');
    expect(claimTerms('* eliminate need to prefix each error message in a test', true).negatedWords).toEqual(expect.arrayContaining(['need', 'prefix']));
    // The clause ends the negation: what follows a comma or a full stop is said plainly.
    expect(claimTerms('If it is not yet recorded in the log, the notary will fetch it.', true).negatedWords).not.toContain('fetch');
    // A sentence opening with a condition: its main clause's negation answers the condition's words too.
    expect(claimTerms('When go.sum is up-to-date, as during ordinary development, the database is never contacted.', true).negatedWords).toEqual(expect.arrayContaining(['date', 'ordinari', 'contact']));
    expect(claimTerms('The sum is up-to-date, as during ordinary development, and the database is never contacted.', true).negatedWords).not.toContain('ordinari');
    // In a claim, a negation governs no further than its clause either.
    expect(claimTerms('The command is sketched but not specified; the privacy policy was still open.').negatedWords).toEqual(['specifi']);
  });

  it('"not only X but Y" asserts X; "no longer needed" denies "needed", not "longer"', () => {
    expect(claimTerms('The check is not only fast but exact.').negated).toBe(false);
    expect(claimTerms('The Captures trick is no longer needed in Rust 2024.').negatedWords).not.toContain('longer');
    expect(claimTerms('The Captures trick is no longer needed in Rust 2024.').negatedWords).toContain('need');
    expect(claimTerms('The check is not fast.').negated).toBe(true);
    // Without a "but" or "also" it denies: "the message is not just the values" says more than "is just".
    expect(claimTerms('The error message is not just the values.').negated).toBe(true);
  });

  it('a negation word inside a hyphenated compound negates nothing ("a no-op Waker"); standing alone it does', () => {
    expect(claimTerms('Generators can be emulated with async closures and a no-op Waker.').negated).toBe(false);
    expect(claimTerms('With a no-op Waker one can build generators.', true).negatedWords).toEqual([]);
    expect(claimTerms('There are no borrows across yield points.').negated).toBe(true);
  });

  it('reads contractions and curly apostrophes as negation', () => {
    expect(claimTerms('that doesn’t help').negated).toBe(true);
    expect(claimTerms('it can’t').negated).toBe(true);
    expect(claimTerms('it can help').negated).toBe(false);
  });
});

describe('groundPage with cited lines', () => {
  it('an acronym its sources define is a term, not a name its closest fact must repeat; a name they never mention still is', () => {
    const facts = [
      { id: 'f-1', text: 'MVS or Minimal Version Selection: the algorithm used to determine the versions of all modules in a build.' },
      { id: 'f-2', text: 'Everything else is selected over all the modules of the workspace together.' },
    ];
    expect(groundPage('Everything else comes from MVS over all modules of the workspace together.', facts).sentences[0]?.problem).toBeUndefined();
    const spelled = [{ id: 'f-3', text: 'The workspace modules are selected by minimal version selection over all modules together.' }];
    expect(groundPage('The workspace modules are selected by MVS over all modules together.', spelled).sentences[0]?.problem).toBeUndefined();
    expect(groundPage('The workspace modules are selected by Okonkwo over all modules together.', spelled).sentences[0]?.problem?.kind).toBe('ungrounded');
    expect(groundPage('Everything else comes from Okonkwo over all modules of the workspace together.', facts).sentences[0]?.problem?.kind).toBe('ungrounded');
    expect(groundPage('Everything else comes from GPS over all modules of the workspace together.', facts).sentences[0]?.problem?.kind).toBe('ungrounded');
  });

  it('a short lead-in framing the cited sentence after it is not held to that sentence\'s lines; a negation they contradict still is', () => {
    const lines = ['Cards are not filed by topic but given a fixed number, such as 21/3d7a.', 'A new card that continues a thought is placed behind it with a branching number.'];
    const readLines = (file: string): readonly string[] | undefined => (file === 'raw/notes.md' ? lines : undefined);
    const page = (lead: string) => groundPage(`${lead} A card continuing a thought goes behind it with a branching number. <!-- from: raw/notes.md#L1-2 -->`, [], undefined, '', readLines).sentences[0]?.problem;
    expect(page('The two mechanisms solve different problems.')).toBeUndefined();
    // with its own citation it is checked as any claim
    expect(groundPage('The two mechanisms solve different problems. <!-- from: raw/notes.md#L1-2 -->', [], undefined, '', readLines).sentences[0]?.problem?.kind).toBe('miscited');
    expect(page('A card continuing a thought is not placed behind it.')?.kind).toBe('miscited');
    // a longer sentence states something checkable of its own
    expect(page('Luhmann wrote seventy books and several hundred articles on social systems theory.')?.kind).toBe('miscited');
  });

  const source = [
    '# Notes',
    '',
    'Luhmann kept roughly 90,000 handwritten cards in wooden drawers.',
    'Cards are not filed by topic but given a fixed number, such as 21/3d7a.',
    'A new card that continues a thought is placed behind it with a branching number.',
    'So a line of thought can grow in the middle of the box without renumbering anything.',
    'Ward Cunningham started the WikiWikiWeb on 25 March 1995.',
  ];
  const read = (file: string): readonly string[] | undefined => (file === 'raw/notes.md' ? source : undefined);
  const check = (sentence: string) => groundPage(sentence, [], undefined, '', read).sentences[0];

  it('supports a paraphrase of its cited lines (reordered, inflected, other voice)', () => {
    expect(check('About 90,000 cards, filed by a fixed branching number rather than by topic, so a thought can grow anywhere without renumbering. <!-- from: raw/notes.md#L3-6 -->')?.problem).toBeUndefined();
    expect(check('The WikiWikiWeb was started by Ward Cunningham on 1995-03-25. <!-- from: raw/notes.md#L7 -->')?.problem).toBeUndefined();
  });

  it('flags a changed number, a swapped name and an added negation, quoting what its lines say', () => {
    expect(check('About 90,007 cards were kept in wooden drawers. <!-- from: raw/notes.md#L3 -->')?.problem).toEqual({ kind: 'unsupported-number', numbers: ['90,007'], sure: true });
    expect(check('Okonkwo started the WikiWikiWeb on 25 March 1995 as a site. <!-- from: raw/notes.md#L7 -->')?.problem).toBeUndefined(); // the first word is not read as a name
    expect(check('The WikiWikiWeb was started by Okonkwo on 25 March 1995. <!-- from: raw/notes.md#L7 -->')?.problem?.kind).toBe('miscited');
    const wrong = check('Pelicans nest under the roadway of the bridge every spring. <!-- from: raw/notes.md#L3 -->');
    expect(wrong?.problem?.kind).toBe('miscited');
    expect(wrong?.candidates.map((c) => c.text)).toContain('Luhmann kept roughly 90,000 handwritten cards in wooden drawers.');
  });

  it('does not flag identifiers as numbers: a link key, a version string, a hash; a document number in a name its source states elsewhere', () => {
    const lines = ['# RFC 9110', '', 'HTTP semantics are defined in one document.', '', 'The semantics document replaced older documents.'];
    const readHttp = (file: string): readonly string[] | undefined => (file === 'raw/http.md' ? lines : undefined);
    const body = 'HTTP semantics, see [[rfc-9110]], are defined in one document as of version 1.2.3 (commit 3f9a2c1). <!-- from: raw/http.md#L5 -->';
    expect(groundPage(body, [{ id: 'f-1', text: 'RFC 9110', source: 'raw/http.md', lineStart: 1, lineEnd: 1 }], undefined, '', readHttp).sentences[0]?.problem).toBeUndefined();
  });

  it('supports a negation its cited lines word their own way, and still flags a negation they contradict', () => {
    const rfc = [
      'The order of the keywords is fixed to `async move`.',
      'Permitting only one ordering avoids confusion about whether it is significant.',
      '',
      'It seems unlikely that using macros which expand to generators will result in a',
      'faster stabilization.',
      '',
      'When `go.sum` is up-to-date, as it is during ordinary development,',
      'the database is never contacted.',
      '',
      'Futures are inert: dropping a future cancels it.',
    ];
    const readRfc = (file: string): readonly string[] | undefined => (file === 'raw/rfc.md' ? rfc : undefined);
    const at = (sentence: string) => groundPage(sentence, [], undefined, '', readRfc).sentences[0];
    expect(at('Macros over generators would not give a faster stabilization. <!-- from: raw/rfc.md#L4-5 -->')?.problem).toBeUndefined();
    expect(at('The command contacts the database only to add lines, never when `go.sum` is up to date, as in ordinary development. <!-- from: raw/rfc.md#L7-8 -->')?.problem).toBeUndefined();
    expect(at('Dropping a future cancels it. <!-- from: raw/rfc.md#L10 -->')?.problem).toBeUndefined();
    expect(at('Permitting one ordering avoids confusion, so nobody is confused about it. <!-- from: raw/rfc.md#L1-2 -->')?.problem).toBeUndefined();
    // Two content words and an added negation: still a claim, and flagged.
    expect(at('Cancellation is not dropping. <!-- from: raw/rfc.md#L10 -->')?.problem?.kind).toBe('miscited');
    expect(at('The order of the keywords is not fixed to `async move`. <!-- from: raw/rfc.md#L1 -->')?.problem?.kind).toBe('miscited');
  });

  it('checks the first word a negation governs, as a stem or its prefix, against a piece that denies that word', () => {
    const proxy = [
      'GONOSUMDB and GONOPROXY are configured independently.',
      'A proxy may forward database requests at /sumdb/.',
      'Clients then use the proxy only, never falling back to a direct connection to the database.',
    ];
    const readProxy = (file: string): readonly string[] | undefined => (file === 'raw/proxy.md' ? proxy : undefined);
    const at = (sentence: string) => groundPage(sentence, [], undefined, '', readProxy).sentences[0];
    expect(at('GONOSUMDB and GONOPROXY are not independent settings. <!-- from: raw/proxy.md#L1 -->')?.problem?.kind).toBe('miscited');
    // "database" is denied in another sentence (about falling back): not what this claim denies.
    expect(at('A proxy can not forward database requests at /sumdb/. <!-- from: raw/proxy.md#L2 -->')?.problem?.kind).toBe('miscited');
    expect(at('Clients never fall back to a direct database connection. <!-- from: raw/proxy.md#L3 -->')?.problem).toBeUndefined();
  });

  it('reads the cited lines, not the nearest facts of the whole source', () => {
    // Line 7 says it; lines 3–4 (with the slack, up to line 7) do too — but lines 1–2 of another file do not.
    expect(check('Ward Cunningham started the WikiWikiWeb in 1995. <!-- from: raw/other.md#L1-2 -->')?.againstCitedLines).toBe(false);
    expect(check('Ward Cunningham started the WikiWikiWeb in 1995. <!-- from: raw/notes.md#L7 -->')?.againstCitedLines).toBe(true);
  });
});

describe('claimsOf: a list cited under its lead-in and again on its last item', () => {
  it('each uncited item cites both: the lead-in\'s lines and the lines ending the list', () => {
    const body = [
      'With a suffix: <!-- from: raw/x.md#L46-48 -->',
      '',
      '- It runs in module mode whether or not a file is present.',
      '- Arguments must name main packages.',
      '- That file must hold no replace directives. <!-- from: raw/x.md#L49-69 -->',
    ].join('\n');
    const items = claimsOf(body).filter((c) => c.text.startsWith('It runs') || c.text.startsWith('Arguments'));
    expect(items).toHaveLength(2);
    for (const item of items) expect(item.citations).toEqual([{ file: 'raw/x.md', first: 46, last: 48 }, { file: 'raw/x.md', first: 49, last: 69 }]);
  });

  it('without a lead-in that cites, an uncited item is not given the last item\'s citation', () => {
    const body = ['- It runs in module mode.', '- That file must hold no replace directives. <!-- from: raw/x.md#L49-69 -->'].join('\n');
    expect(claimsOf(body).find((c) => c.text.startsWith('It runs'))?.citations).toEqual([]);
  });
});
