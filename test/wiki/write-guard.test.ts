import { describe, expect, it } from 'vitest';
import { PageIndex } from '../../src/wiki/page-index.js';
import { parsePage } from '../../src/wiki/page.js';
import { citationFindings } from '../../src/wiki/validate/citation-rules.js';
import { humanLines, linesOutsideComments, modelWriteFindings } from '../../src/wiki/validate/write-guard.js';
import { contract, healthyWiki, indexFor, page } from './lint-fixture.js';

const RAW = new Set(['raw/attention.md', 'raw/bert.md']);
const rawExists = (p: string): boolean => RAW.has(p);

function wikiIndex(): PageIndex {
  const files = { ...healthyWiki(), 'wiki/index.md': indexFor(healthyWiki()) };
  return PageIndex.fromPages(Object.entries(files).map(([p, text]) => parsePage(p, text, contract)), contract);
}

const TRANSFORMER = healthyWiki()['wiki/concepts/transformer.md'] ?? '';
const transformer = (fields: Record<string, string>, body = 'Introduced in [[attention-paper]].'): string =>
  page({ title: 'Transformer', summary: 'A sequence model built from attention.', sources: '[raw/attention.md]', ...fields }, body);

function guard(path: string, content: string, previous: string | undefined, humanEdit?: { base: string | undefined }) {
  return modelWriteFindings(parsePage(path, content, contract), previous, { contract, index: wikiIndex(), rawExists, humanEdit });
}

describe('a model write is refused', () => {
  it.each([
    ['setting stale_since', 'wiki/concepts/transformer.md', transformer({ stale_since: '2026-01-01' }), TRANSFORMER, 'tool-owned-field', /leave `stale_since` out/],
    ['setting archived_since on a new page', 'wiki/concepts/lstm.md', page({ title: 'LSTM', summary: 'S.', sources: '[raw/bert.md]', archived_since: '2026-01-01' }, 'Text.'), undefined, 'tool-owned-field', /archived_since/],
    ['changing a stale mark', 'wiki/concepts/transformer.md', transformer({ stale_since: '2026-02-02' }), transformer({ stale_since: '2026-01-01' }), 'tool-owned-field', /keep `stale_since: 2026-01-01`/],
    ['dropping a source whose raw file exists', 'wiki/concepts/transformer.md', transformer({ sources: '[raw/bert.md]' }), TRANSFORMER, 'dropped-source', /keep "raw\/attention\.md"/],
    ['creating a near-duplicate key', 'wiki/concepts/transformers.md', page({ title: 'Transformers', summary: 'S.', sources: '[raw/bert.md]' }, 'Text.'), undefined, 'near-duplicate', /update the existing page wiki\/concepts\/transformer\.md instead/],
    ['setting usage_mode: always (into every later prompt)', 'wiki/concepts/transformer.md', transformer({ usage_mode: 'always' }), TRANSFORMER, 'owner-field', /leave `usage_mode` out/],
    ['creating a page with visibility', 'wiki/concepts/lstm.md', page({ title: 'LSTM', summary: 'S.', sources: '[raw/bert.md]', visibility: 'internal' }, 'Text.'), undefined, 'owner-field', /leave `visibility` out/],
    ['creating a page with visibility: public (a copy served at the public cap)', 'wiki/concepts/lstm.md', page({ title: 'LSTM', summary: 'S.', sources: '[raw/bert.md]', visibility: 'public' }, 'Text.'), undefined, 'owner-field', /leave `visibility` out/],
    ['making a private page public', 'wiki/concepts/transformer.md', transformer({ visibility: 'public' }), transformer({ visibility: 'private' }), 'owner-field', /keep `visibility: private`/],
    ['dropping visibility: private', 'wiki/concepts/transformer.md', transformer({}), transformer({ visibility: 'private' }), 'owner-field', /keep `visibility: private`/],
    ['dropping usage_mode: never', 'wiki/concepts/transformer.md', transformer({}), transformer({ usage_mode: 'never' }), 'owner-field', /keep `usage_mode: never`/],
    ['dropping visibility from a page whose YAML does not parse', 'wiki/concepts/transformer.md', transformer({}), '---\ntitle: T\nsummary: a: b\nvisibility: private\n---\nBody.\n', 'owner-field', /keep `visibility: private`/],
    ['creating a page with the same title under another key', 'wiki/concepts/the-transformer-model.md', page({ title: 'Transformer', summary: 'S.', sources: '[raw/bert.md]' }, 'Text.'), undefined, 'near-duplicate', /transformer\.md/],
  ])('%s', (_name, path, content, previous, rule, fix) => {
    const findings = guard(path, content, previous);
    expect(findings.map((f) => f.rule)).toContain(rule);
    const found = findings.find((f) => f.rule === rule);
    expect(found?.severity).toBe('error');
    expect(`${found?.message} ${found?.fix}`).toMatch(fix);
  });
});

describe('a model write is accepted', () => {
  it.each([
    ['keeping a stale mark as it is', transformer({ stale_since: '2026-01-01' }), transformer({ stale_since: '2026-01-01' })],
    ['removing a stale mark while updating from the changed source', transformer({}), transformer({ stale_since: '2026-01-01' })],
    ['adding a source beside the old one', transformer({ sources: '[raw/attention.md, raw/bert.md]' }), TRANSFORMER],
    ['dropping a source whose raw file is gone', transformer({ sources: '[raw/attention.md]' }), transformer({ sources: '[raw/attention.md, raw/deleted.md]' })],
    ['keeping visibility and usage_mode as the owner set them', transformer({ visibility: 'private', usage_mode: 'never' }), transformer({ visibility: 'private', usage_mode: 'never' })],
    ['keeping a default the owner wrote out', transformer({ usage_mode: 'auto' }), transformer({ usage_mode: 'auto' })],
  ])('%s', (_name, content, previous) => {
    expect(guard('wiki/concepts/transformer.md', content, previous)).toEqual([]);
  });
});

describe('a hand-edited page', () => {
  const base = transformer({}, 'Introduced in [[attention-paper]].\n\nSecond paragraph by the tool.');
  const edited = transformer({ tags: '[architecture, favourite]' }, 'Introduced in [[attention-paper]].\n\nA paragraph the owner wrote.\n\nSecond paragraph by the tool.');

  it('refuses a rewrite that drops the human line or field, quoting what is missing', () => {
    const findings = guard('wiki/concepts/transformer.md', transformer({}, 'Introduced in [[attention-paper]]. Rewritten.'), edited, { base });
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ rule: 'human-edit', severity: 'error' });
    expect(findings[0]?.message).toContain('A paragraph the owner wrote.');
    expect(findings[0]?.message).toContain('tags: ["architecture","favourite"]');
    expect(findings[0]?.message).not.toContain('Second paragraph by the tool.');
  });

  it('accepts a rewrite that keeps every human line and field, changing what the tool wrote', () => {
    const rewrite = transformer({ tags: '[architecture, favourite, attention]' }, 'Introduced in [[attention-paper]].\n\nA paragraph the owner wrote.\n\nNew text replacing the tool’s paragraph.');
    expect(guard('wiki/concepts/transformer.md', rewrite, edited, { base })).toEqual([]);
  });

  it('without the tool’s copy, counts every current line as the human’s', () => {
    const findings = guard('wiki/concepts/transformer.md', transformer({ tags: '[architecture, favourite]' }, 'Introduced in [[attention-paper]].\n\nA paragraph the owner wrote.'), edited, { base: undefined });
    expect(findings[0]?.message).toContain('Second paragraph by the tool.');
  });

  it('refuses a rewrite that keeps the owner\'s line only inside an HTML comment', () => {
    const hidden = transformer({ tags: '[architecture, favourite]' }, 'Introduced in [[attention-paper]].\n\n<!--\nA paragraph the owner wrote.\n-->\n\nSecond paragraph by the tool.');
    const findings = guard('wiki/concepts/transformer.md', hidden, edited, { base });
    expect(findings.map((f) => f.rule)).toEqual(['human-edit']);
    expect(findings[0]?.message).toContain('A paragraph the owner wrote.');
  });

  it('accepts an owner\'s commented-out line kept in its comment', () => {
    const commented = transformer({}, 'Introduced in [[attention-paper]].\n\n<!-- owner note\nkept for later\n-->\n\nSecond paragraph by the tool.');
    const rewrite = transformer({}, 'Introduced in [[attention-paper]].\n\n<!-- owner note\nkept for later\n-->\n\nRewritten by the model. <!-- from: raw/attention.md -->');
    expect(guard('wiki/concepts/transformer.md', rewrite, commented, { base })).toEqual([]);
  });

  it('linesOutsideComments leaves out lines a comment opened earlier hides', () => {
    expect(linesOutsideComments('a\n<!-- x\nb\n-->\nc <!-- d -->\ne\n<!--\n--> f\n')).toEqual(['a', '<!-- x', 'c <!-- d -->', 'e', '<!--']);
  });

  it('keeps the owner\'s fields carried from an earlier rewrite, until the owner changes them', () => {
    const kept = transformer({ tags: '[architecture, favourite]', reviewed_by: 'dana' });
    const carried = { carriedHumanFields: { tags: ['favourite'], reviewed_by: 'dana' } };
    const check = (content: string, previous: string) =>
      modelWriteFindings(parsePage('wiki/concepts/transformer.md', content, contract), previous, { contract, index: wikiIndex(), rawExists, ...carried });
    const dropped = check(transformer({ tags: '[architecture]' }), kept);
    expect(dropped.map((f) => f.rule)).toEqual(['human-edit']);
    expect(dropped[0]?.message).toContain('tags: ["favourite"]');
    expect(dropped[0]?.message).toContain('reviewed_by: "dana"');
    expect(check(transformer({ tags: '[favourite, attention]', reviewed_by: 'dana' }), kept)).toEqual([]);
    // The owner removed reviewed_by and the tag by hand: nothing of theirs to keep any more.
    expect(check(transformer({}), transformer({ tags: '[architecture]' }))).toEqual([]);
  });

  it('humanLines are the lines added or changed since the base', () => {
    expect(humanLines('a\nb changed\nc\nd\n', 'a\nb\nc\n')).toEqual(['b changed', 'd']);
    expect(humanLines('a\n', undefined)).toEqual(['a']);
  });
});

describe('from-comments', () => {
  const lines = (p: string): number | undefined => (p === 'raw/attention.md' ? 40 : undefined);
  it.each([
    ['<!-- from: raw/attention.md#L10-20 -->', []],
    ['<!-- from: raw/attention.md#L40 -->', []],
    ['<!-- from: raw/attention.md -->', []],
    ['<!-- from: raw/report.pdf#page=4 -->', ['bad-citation']],
    ['<!-- from: raw/missing.md#L1-2 -->', ['bad-citation']],
    ['<!-- from: raw/attention.md#L30-41 -->', ['bad-citation']],
    ['<!-- from: raw/attention.md#L20-10 -->', ['bad-citation']],
    ['<!-- from: ../outside.md -->', ['bad-citation']],
  ])('%s → %j', (comment, rules) => {
    const found = citationFindings(parsePage('wiki/concepts/x.md', page({ title: 'X', summary: 'S.' }, `Claim. ${comment}`), contract), rawExists, lines);
    expect(found.map((f) => f.rule)).toEqual(rules);
  });
});
