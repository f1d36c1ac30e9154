import { describe, expect, it } from 'vitest';
import { healthyWiki, indexFor, INDEX_TEMPLATE, lint, page } from './lint-fixture.js';
import { replaceCatalog } from '../../src/wiki/catalog-region.js';
import { readFileSync } from 'node:fs';
import { parsePage } from '../../src/wiki/page.js';
import { parseSchema } from '../../src/wiki/schema-loader.js';
import { sourceFindings } from '../../src/wiki/validate/page-rules.js';
import { ruleById } from '../../src/wiki/validate/rules/index.js';

const oracleContract = parseSchema(readFileSync(new URL('../../templates/schema.md', import.meta.url), 'utf8')).contract;

const SRC = '[raw/attention.md]';
const concept = (body: string, extra: Record<string, string> = {}): string =>
  page({ title: 'Extra', summary: 'An extra page.', sources: SRC, ...extra }, body);

interface RuleCase {
  rule: string;
  name: string;
  /** Files added to (or, with null, removed from) the healthy wiki. */
  files: Record<string, string | null>;
  /** index.md text; generated from the pages when absent. */
  index?: (files: Record<string, string>) => string | null;
  /** Where the rule must fire and what the message must say; empty = it must not fire. */
  fires: Array<{ path: string; line?: number; message?: RegExp }>;
}

const withExtraLinked = (extraPath: string, text: string): Record<string, string | null> => ({
  [extraPath]: text,
  // google-brain links to the extra page so orphan/unindexed stay quiet.
  'wiki/entities/google-brain.md': page(
    { title: 'Google Brain', summary: 'A research team at Google.', sources: SRC },
    `Authors of the [[transformer]] paper; see [[${extraPath.split('/').pop()?.replace('.md', '')}]].`,
  ),
});

const cases: RuleCase[] = [
  {
    rule: 'frontmatter',
    name: 'fires on YAML that does not parse, with the line',
    files: { 'wiki/concepts/transformer.md': '---\ntitle: Transformer\nsummary: [unclosed\n---\nBody [[attention-paper]].\n' },
    fires: [{ path: 'wiki/concepts/transformer.md', message: /does not parse/ }],
  },
  {
    rule: 'frontmatter',
    name: 'near miss: a quoted value holding a colon parses',
    files: { 'wiki/concepts/transformer.md': page({ title: '"Transformer: a model"', summary: 'A model.', sources: SRC }, '[[attention-paper]]') },
    fires: [],
  },
  {
    rule: 'required-field',
    name: 'fires on a missing summary',
    files: { 'wiki/concepts/transformer.md': page({ title: 'Transformer', sources: SRC }, 'See [[attention-paper]].') },
    fires: [{ path: 'wiki/concepts/transformer.md', message: /missing required field `summary`/ }],
  },
  {
    rule: 'required-field',
    name: 'fires on a date that is not a calendar date',
    files: { 'wiki/concepts/transformer.md': page({ title: 'T', summary: 'S.', sources: SRC, created: '2026-13-45' }, '[[attention-paper]]') },
    fires: [{ path: 'wiki/concepts/transformer.md', message: /`created` should be a date/ }],
  },
  {
    rule: 'required-field',
    name: 'fires on a source page without sources (its type requires them)',
    files: { 'wiki/sources/attention-paper.md': page({ title: 'Paper', summary: 'The paper.' }, 'About the [[transformer]].') },
    fires: [{ path: 'wiki/sources/attention-paper.md', message: /missing required field `sources` \(type source\)/ }],
  },
  {
    rule: 'required-field',
    name: 'fires on a type that does not match the folder',
    files: { 'wiki/concepts/transformer.md': page({ title: 'T', summary: 'S.', type: 'entity', sources: SRC }, '[[attention-paper]]') },
    fires: [{ path: 'wiki/concepts/transformer.md', message: /does not match the folder/ }],
  },
  {
    rule: 'required-field',
    name: 'near miss: optional fields absent, a valid date present',
    files: { 'wiki/concepts/transformer.md': page({ title: 'T', summary: 'S.', sources: SRC, created: '2024-02-29' }, '[[attention-paper]]') },
    fires: [],
  },
  {
    rule: 'key-pattern',
    name: 'fires on a file name that is not kebab-case',
    files: withExtraLinked('wiki/concepts/Self_Attention.md', concept('Text.')),
    fires: [{ path: 'wiki/concepts/Self_Attention.md', message: /does not match the key pattern/ }],
  },
  {
    rule: 'key-pattern',
    name: 'near miss: digits and hyphens are fine',
    files: withExtraLinked('wiki/concepts/self-attention-2.md', concept('Text.')),
    fires: [],
  },
  {
    rule: 'duplicate-key',
    name: 'fires on both pages when one key is used in two folders',
    files: { 'wiki/entities/transformer.md': page({ title: 'Transformer (band)', summary: 'A band.', sources: SRC }, 'Music.') },
    fires: [
      { path: 'wiki/concepts/transformer.md', message: /also used by wiki\/entities\/transformer\.md/ },
      { path: 'wiki/entities/transformer.md', message: /also used by wiki\/concepts\/transformer\.md/ },
    ],
  },
  {
    rule: 'duplicate-key',
    name: 'near miss: a longer key in another folder is a different key',
    files: withExtraLinked('wiki/entities/transformer-band.md', concept('Music.')),
    fires: [],
  },
  {
    rule: 'broken-link',
    name: 'fires on an inline link to a missing page, with the line and close keys',
    files: {
      'wiki/concepts/transformer.md': page({ title: 'T', summary: 'S.', sources: SRC }, 'From [[attention-paper]].\n\nCompare [[transformers]].'),
    },
    fires: [{ path: 'wiki/concepts/transformer.md', line: 9, message: /\[\[transformers\]\].*close matches: \[\[transformer\]\]/ }],
  },
  {
    rule: 'broken-link',
    name: 'fires on a refs entry naming a missing page',
    files: { 'wiki/concepts/transformer.md': page({ title: 'T', summary: 'S.', sources: SRC, refs: '[atention-paper]' }, '[[attention-paper]]') },
    fires: [{ path: 'wiki/concepts/transformer.md', message: /`refs` entry "atention-paper".*\[\[attention-paper\]\]/ }],
  },
  {
    rule: 'broken-link',
    name: 'near miss: label, heading, folder prefix, self link and links in code all resolve or are ignored',
    files: {
      'wiki/concepts/transformer.md': page(
        { title: 'T', summary: 'S.', sources: SRC },
        'See [[attention-paper#Results|results]], [[sources/attention-paper.md]], [[transformer]] and `[[not-a-page]]`.\n\n```\n[[also-not]]\n```',
      ),
    },
    fires: [],
  },
  {
    rule: 'orphan',
    name: 'fires on a page nothing links to and the index does not list',
    files: { 'wiki/concepts/lonely.md': concept('Alone.') },
    index: (files) => indexFor(without(files, 'lonely.md')),
    fires: [{ path: 'wiki/concepts/lonely.md', message: /no other page links to \[\[lonely\]\]/ }],
  },
  {
    rule: 'orphan',
    name: 'fires even when only the log mentions the page',
    files: {
      'wiki/concepts/lonely.md': concept('Alone.'),
      'wiki/log.md': '# Log\n\n## [2026-01-31] ingest | lonely\n- wrote [[lonely]]\n',
    },
    index: (files) => indexFor(without(files, 'lonely.md')),
    fires: [{ path: 'wiki/concepts/lonely.md' }],
  },
  {
    rule: 'orphan',
    name: 'fires on a page the index lists but no page links to (as wiki graph counts it)',
    files: { 'wiki/concepts/lonely.md': concept('Alone.') },
    fires: [{ path: 'wiki/concepts/lonely.md' }],
  },
  {
    rule: 'orphan',
    name: 'near miss: a page linked from one content page',
    files: withExtraLinked('wiki/concepts/extra.md', concept('Text.')),
    fires: [],
  },
  {
    rule: 'unindexed',
    name: 'fires on a linked page missing from the catalog',
    files: withExtraLinked('wiki/concepts/extra.md', concept('Text.')),
    index: (files) => indexFor(without(files, 'extra.md')),
    fires: [{ path: 'wiki/concepts/extra.md', message: /not listed in wiki\/index\.md/ }],
  },
  {
    rule: 'unindexed',
    name: 'near miss: listed in the catalog',
    files: withExtraLinked('wiki/concepts/extra.md', concept('Text.')),
    fires: [],
  },
  {
    rule: 'dead-index-entry',
    name: 'fires on a catalog entry for a missing page, with its line',
    files: {},
    index: (files) => indexFor(files).replace('<!-- wiki:catalog:end -->', '- [[ghost]] — gone\n<!-- wiki:catalog:end -->'),
    fires: [{ path: 'wiki/index.md', line: 24, message: /\[\[ghost\]\]/ }],
  },
  {
    rule: 'dead-index-entry',
    name: 'near miss: a missing link in the free text is a broken link, not a dead entry',
    files: {},
    index: (files) => indexFor(files).replace('Text outside the markers', 'See [[transformer]]. Text outside the markers'),
    fires: [],
  },
  {
    rule: 'missing-source',
    name: 'fires on a source that is not a file',
    files: { 'wiki/concepts/transformer.md': page({ title: 'T', summary: 'S.', sources: '[raw/attention.md, raw/nope.md]' }, '[[attention-paper]]') },
    fires: [{ path: 'wiki/concepts/transformer.md', message: /"raw\/nope\.md" is not a file/ }],
  },
  {
    rule: 'missing-source',
    name: 'fires on a path escaping the workspace',
    files: { 'wiki/concepts/transformer.md': page({ title: 'T', summary: 'S.', sources: '[../outside.md]' }, '[[attention-paper]]') },
    fires: [{ path: 'wiki/concepts/transformer.md', message: /outside\.md/ }],
  },
  {
    rule: 'missing-source',
    name: 'near miss: a line-range fragment and ./ prefix name the same file',
    files: { 'wiki/concepts/transformer.md': page({ title: 'T', summary: 'S.', sources: '[./raw/attention.md#L10-20]' }, '[[attention-paper]]') },
    fires: [],
  },
  {
    rule: 'no-sources',
    name: 'fires on a content page without provenance',
    files: { 'wiki/concepts/transformer.md': page({ title: 'T', summary: 'S.' }, '[[attention-paper]]') },
    fires: [{ path: 'wiki/concepts/transformer.md', message: /no `sources`/ }],
  },
  {
    rule: 'no-sources',
    name: 'near miss: a source page without sources gets required-field instead, and index/log never do',
    files: { 'wiki/sources/attention-paper.md': page({ title: 'Paper', summary: 'The paper.' }, 'About the [[transformer]].') },
    fires: [],
  },
  {
    rule: 'empty-page',
    name: 'fires on a body of headings and comments only',
    files: withExtraLinked('wiki/concepts/extra.md', concept('## Overview\n\n<!-- from: raw/attention.md -->\n')),
    fires: [{ path: 'wiki/concepts/extra.md', line: 6 }],
  },
  {
    rule: 'empty-page',
    name: 'near miss: one sentence is a body',
    files: withExtraLinked('wiki/concepts/extra.md', concept('## Overview\n\nOne sentence.')),
    fires: [],
  },
  {
    rule: 'near-duplicate',
    name: 'fires once per plural/singular pair, on the later path',
    files: {
      'wiki/concepts/mid-cap-fund.md': concept('A fund. [[mid-cap-funds]]', { title: 'Mid-cap fund' }),
      'wiki/concepts/mid-cap-funds.md': concept('Funds. [[mid-cap-fund]]', { title: 'Mid-cap funds list' }),
    },
    fires: [{ path: 'wiki/concepts/mid-cap-funds.md', message: /nearly the same as \[\[mid-cap-fund\]\]/ }],
  },
  {
    rule: 'near-duplicate',
    name: 'fires on spelling and punctuation variants',
    files: {
      'wiki/concepts/tokenizer.md': concept('A. [[tokeniser]]', { title: 'Word splitter' }),
      'wiki/concepts/tokeniser.md': concept('B. [[tokenizer]]', { title: 'Tokens' }),
      'wiki/concepts/midcap.md': concept('C. [[mid-cap]]', { title: 'Small' }),
      'wiki/concepts/mid-cap.md': concept('D. [[midcap]]', { title: 'Big' }),
    },
    fires: [{ path: 'wiki/concepts/midcap.md' }, { path: 'wiki/concepts/tokenizer.md' }],
  },
  {
    rule: 'near-duplicate',
    name: 'fires on the same title under different keys',
    files: {
      'wiki/concepts/llm.md': concept('A. [[large-language-model]]', { title: 'Large language models' }),
      'wiki/concepts/large-language-model.md': concept('B. [[llm]]', { title: 'Large Language Model' }),
    },
    fires: [{ path: 'wiki/concepts/llm.md', message: /title "Large language models"/ }],
  },
  {
    rule: 'near-duplicate',
    name: 'near miss: version numbers and real differences are distinct pages',
    files: {
      'wiki/entities/gpt-3.md': concept('A. [[gpt-4]] [[transformer-xl]]', { title: 'GPT-3' }),
      'wiki/entities/gpt-4.md': concept('B. [[gpt-3]]', { title: 'GPT-4' }),
      'wiki/concepts/transformer-xl.md': concept('C. [[gpt-3]]', { title: 'Transformer-XL' }),
    },
    fires: [],
  },
  {
    rule: 'frontmatter-drift',
    name: 'fires on body links missing from refs and cited files missing from sources',
    files: {
      'wiki/concepts/transformer.md': page(
        { title: 'Transformer', summary: 'S.', refs: '[attention-paper]', sources: '[]' },
        'From [[attention-paper]] and [[google-brain|Brain]].\n\nIt attends. <!-- from: raw/attention.md#L1-2 --> <!-- from: raw/gone.md -->',
      ),
    },
    fires: [
      { path: 'wiki/concepts/transformer.md', message: /cite raw\/attention\.md, not in `sources`/ },
      { path: 'wiki/concepts/transformer.md', message: /links to \[\[google-brain\]\], not in `refs`/ },
    ],
  },
  {
    rule: 'frontmatter-drift',
    name: 'near miss: refs and sources in step (fragments, self links, broken links and a hand-kept string refs aside)',
    files: {
      'wiki/concepts/transformer.md': page(
        { title: 'Transformer', summary: 'S.', refs: '[attention-paper, google-brain]', sources: '[./raw/attention.md]' },
        'See [[attention-paper#Method]], [[google-brain|Brain]], [[transformer]] and [[nowhere]]. <!-- from: raw/attention.md#L3-4 -->',
      ),
      'wiki/entities/google-brain.md': page({ title: 'Google Brain', summary: 'A team.', refs: 'transformer', sources: SRC }, 'Wrote the [[transformer]] and [[attention-paper]].'),
    },
    fires: [],
  },
  {
    rule: 'log-format',
    name: 'fires on a heading that is not an entry, and on an impossible date',
    files: { 'wiki/log.md': '# Log\n\n## 2026-01-31 ingest paper\n\n## [2026-02-30] query | q\n' },
    fires: [
      { path: 'wiki/log.md', line: 3, message: /is not "## \[YYYY-MM-DD\] op \| title"/ },
      { path: 'wiki/log.md', line: 5, message: /not a calendar date/ },
    ],
  },
  {
    rule: 'log-format',
    name: 'fires when the log is missing',
    files: { 'wiki/log.md': null },
    fires: [{ path: 'wiki/log.md', message: /missing/ }],
  },
  {
    rule: 'log-format',
    name: 'near miss: entries with sub-headings and bullets, frontmatter on top',
    files: { 'wiki/log.md': '---\ntitle: Log\n---\n# Log\n\n## [2026-01-31] ingest | paper.md\n### created\n- [[transformer]]\n' },
    fires: [],
  },
  {
    rule: 'log-entry',
    name: 'fires on entries a merge glued or collapsed: two run lines under one heading, a heading without its run line, a run line under no heading, a run logged twice',
    files: {
      'wiki/log.md': [
        '# Log',
        '',
        '## [2026-01-31] lint | --fix applied 1 repair', // 3: an older entry kept once for two runs
        '- run: 20260131-100000-aaaaaa',
        '- run: 20260131-100000-bbbbbb',
        '- status: ok',
        '## [2026-02-01] query | why? · run 20260201-100000-cccccc', // 7: its run line went to the entry below
        '## [2026-02-01] query | how? · run 20260201-100000-dddddd',
        '- run: 20260201-100000-dddddd · status: done',
        '- run: 20260201-100000-cccccc · status: done', // 10: no heading of its own
        '## [2026-02-02] ingest | a · run 20260202-100000-eeeeee',
        '- run: 20260202-100000-eeeeee · source: raw/a.md',
        '## [2026-02-02] ingest | a · run 20260202-100000-eeeeee', // 13: the same entry again
        '- run: 20260202-100000-eeeeee · source: raw/a.md',
        '',
      ].join('\n'),
    },
    fires: [
      { path: 'wiki/log.md', line: 3, message: /holds 2 "- run:" lines/ },
      { path: 'wiki/log.md', line: 7, message: /names run 20260201-100000-cccccc but is not followed by its/ },
      { path: 'wiki/log.md', line: 8, message: /is followed by "- run: 20260201-100000-cccccc/ },
      { path: 'wiki/log.md', line: 10, message: /stands under no heading/ },
      { path: 'wiki/log.md', line: 13, message: /a second time/ },
    ],
  },
  {
    rule: 'log-entry',
    name: 'fires on two older entries glued when a merge lost the blank line between them',
    files: { 'wiki/log.md': '# Log\n\n## [2026-01-31] ingest | a\n- run: r1\n- status: ok\n## [2026-01-31] ingest | b\n- run: r2\n- status: ok\n' },
    fires: [{ path: 'wiki/log.md', line: 6, message: /no blank line/ }],
  },
  {
    rule: 'log-entry',
    name: 'near miss: older entries with blank lines, then merge-safe entries with none, an init entry without a run',
    files: {
      'wiki/log.md':
        '# Log\n\n## [2026-01-30] init | workspace created\n\n## [2026-01-31] ingest | a\n- run: r1\n- status: ok\n\n## [2026-01-31] ingest | b\n- run: r2\n' +
        '## [2026-02-01] lint | --fix applied 1 repair · run r3\n- run: r3 · fixed: x\n## [2026-02-01] lint | --fix applied 1 repair · run r4\n- run: r4 · fixed: x\n',
    },
    fires: [],
  },
];

describe('validateWiki', () => {
  it('finds nothing wrong with the healthy fixture (index and log are exempt from content rules)', () => {
    expect(lint(healthyWiki())).toEqual([]);
  });

  it.each(cases)('$rule: $name', ({ rule, files, index, fires }) => {
    const merged: Record<string, string | null> = { ...healthyWiki(), ...files };
    const present = Object.fromEntries(Object.entries(merged).filter((e): e is [string, string] => e[1] !== null));
    const findings = lint(merged, index ? { index: index(present) } : {}).filter((f) => f.rule === rule);
    expect(findings.map((f) => f.path)).toEqual(fires.map((f) => f.path));
    fires.forEach((expected, i) => {
      const found = findings[i];
      if (expected.line !== undefined) expect(found?.line).toBe(expected.line);
      if (expected.message) expect(found?.message).toMatch(expected.message);
      expect(found?.fix).toBeTruthy();
      expect(found?.severity).toBe(ruleById(rule)?.severity);
    });
  });

  it('reports a page with broken frontmatter without crashing and still checks its body links', () => {
    const findings = lint({
      ...healthyWiki(),
      'wiki/concepts/transformer.md': '---\ntitle: [oops\n---\nSee [[attention-paper]] and [[atention-paper]].\n',
    });
    const mine = findings.filter((f) => f.path === 'wiki/concepts/transformer.md');
    expect(mine.map((f) => f.rule)).toEqual(['frontmatter', 'broken-link']);
    // `title: [oops` is the file's line 2 (the YAML parser counts from the opening `---` line, as the file does).
    expect(mine[0]?.line).toBe(2);
    expect(mine[0]?.message).toMatch(/^frontmatter field "title" does not parse: /);
    expect(mine[1]?.message).toMatch(/\[\[atention-paper\]\].*close matches: \[\[attention-paper\]\]/);
    expect(mine[1]?.line).toBe(4);
  });

  it('lists at most three close matches, closest first', () => {
    const files: Record<string, string> = { ...healthyWiki() };
    for (const key of ['attention', 'attentions-map', 'attention-map', 'attention-maps', 'attention-mask', 'intention']) {
      files[`wiki/concepts/${key}.md`] = concept('[[transformer]]', { title: key });
    }
    files['wiki/concepts/transformer.md'] = page({ title: 'T', summary: 'S.', sources: SRC }, '[[attention-paper]] [[attention-mop]]');
    const broken = lint(files).find((f) => f.rule === 'broken-link');
    expect(broken?.message).toMatch(/close matches: \[\[attention-map\]\], \[\[attention-maps\]\], \[\[attentions-map\]\]$/);
  });

  it('without index.md every content page is unindexed, and index.md is not required to exist', () => {
    const findings = lint(healthyWiki(), { index: null });
    expect(findings.map((f) => f.rule)).toEqual(['unindexed', 'unindexed', 'unindexed']);
  });

  it('counts spoke entries as listed when the hub links the spoke', () => {
    const spoke = page({ title: '"Index: Concepts"', summary: 'Catalog.' }, '- [[transformer]] — A sequence model.');
    const hub = replaceCatalog(INDEX_TEMPLATE, '\n- [[index-concept]] — Concepts\n- [[attention-paper]] — Paper\n- [[google-brain]] — Team\n');
    expect(lint({ ...healthyWiki(), 'wiki/index-concept.md': spoke }, { index: hub })).toEqual([]);
    const unlinkedSpoke = replaceCatalog(INDEX_TEMPLATE, '\n- [[attention-paper]] — Paper\n- [[google-brain]] — Team\n');
    const findings = lint({ ...healthyWiki(), 'wiki/index-concept.md': spoke }, { index: unlinkedSpoke });
    expect(findings.map((f) => [f.rule, f.path])).toEqual([['unindexed', 'wiki/concepts/transformer.md']]);
  });

  it('sorts findings by path, then line, then rule', () => {
    const findings = lint({
      ...healthyWiki(),
      'wiki/concepts/transformer.md': page({ title: 'T' }, '[[zzz]]\n[[yyy]]'),
      'wiki/concepts/a-first.md': concept('[[nope]]'),
    });
    const keys = findings.map((f) => `${f.path}|${String(f.line ?? 0).padStart(4, '0')}|${f.rule}`);
    expect(keys).toEqual([...keys].sort());
    expect(findings[0]?.path).toBe('wiki/concepts/a-first.md');
  });
});

function without(files: Record<string, string>, suffix: string): Record<string, string> {
  return Object.fromEntries(Object.entries(files).filter(([p]) => !p.endsWith(suffix)));
}

describe('sources is no existence oracle', () => {
  const everyFileExists = (): boolean => true;
  it.each([['.env'], ['.env.nope'], ['raw/.env'], ['.git/config'], ['.npmrc'], ['.ssh/id_rsa'], ['raw/server.pem'], ['.wiki/lock']])(
    '`sources: [%s]` is reported missing whether or not the file exists',
    (entry) => {
      const text = `---\ntitle: T\nsummary: S\nsources: [${entry}]\n---\n\nBody.\n`;
      const page = parsePage('wiki/concepts/t.md', text, oracleContract);
      const findings = sourceFindings(page, oracleContract, everyFileExists);
      expect(findings.map((f) => f.rule)).toEqual(['missing-source']);
    },
  );
});
