import { describe, expect, it } from 'vitest';
import { PageIndex } from '../../src/wiki/page-index.js';
import { parsePage } from '../../src/wiki/page.js';
import { validateWrite } from '../../src/wiki/validate-write.js';
import { contract, healthyWiki, indexFor, page, RAW_FILES } from './lint-fixture.js';

const SRC = '[raw/attention.md]';
const ctx = { contract, rawExists: (p: string) => RAW_FILES.has(p) };

function wikiIndex(): PageIndex {
  const files = { ...healthyWiki(), 'wiki/index.md': indexFor(healthyWiki()) };
  return PageIndex.fromPages(Object.entries(files).map(([p, text]) => parsePage(p, text, contract)), contract);
}

const rules = (findings: Array<{ rule: string }>): string[] => findings.map((f) => f.rule);

describe('validateWrite', () => {
  it('accepts a good new page that links to itself and to existing pages', () => {
    const result = validateWrite(
      wikiIndex(),
      { path: 'wiki/concepts/self-attention.md', content: page({ title: 'Self-attention', summary: 'S.', sources: SRC, refs: '[transformer]' }, 'See [[self-attention#Math]] and [[transformer]].') },
      ctx,
    );
    expect(result).toMatchObject({ ok: true, errors: [], warnings: [] });
    expect(result.page.key).toBe('self-attention');
  });

  it('treats writing an existing path as an update, not a duplicate', () => {
    const result = validateWrite(
      wikiIndex(),
      { path: 'wiki/concepts/transformer.md', content: page({ title: 'Transformer', summary: 'Updated.', sources: SRC }, 'From [[attention-paper]].') },
      ctx,
    );
    expect(result.ok).toBe(true);
  });

  it('refuses a from-comment citing a denied file even when it exists, as it refuses a missing one', () => {
    const exists = { ...ctx, rawExists: () => true };
    for (const cited of ['.env', 'raw/sub/.env', 'raw/missing.md']) {
      const rawExists = cited === 'raw/missing.md' ? ctx.rawExists : exists.rawExists;
      const result = validateWrite(
        wikiIndex(),
        { path: 'wiki/concepts/transformer.md', content: page({ title: 'Transformer', summary: 'S.', sources: SRC }, `A claim. <!-- from: ${cited}#L1 -->`) },
        { ...ctx, rawExists },
      );
      expect(rules(result.errors)).toEqual(['bad-citation']);
    }
  });

  it('rejects a link to a missing page, naming up to three close keys', () => {
    const result = validateWrite(
      wikiIndex(),
      { path: 'wiki/concepts/bert.md', content: page({ title: 'BERT', summary: 'S.', sources: SRC, refs: '[transformers]' }, 'Built on [[Transformers]] by [[google-brains]].') },
      ctx,
    );
    expect(result.ok).toBe(false);
    expect(rules(result.errors)).toEqual(['broken-link', 'broken-link', 'broken-link']);
    expect(result.errors[0]?.message).toMatch(/"transformers".*close matches: \[\[transformer\]\]/);
    expect(result.errors[2]?.message).toMatch(/\[\[google-brains\]\].*\[\[google-brain\]\]/);
  });

  it.each<[string, string, string, string]>([
    ['frontmatter', 'wiki/concepts/bad.md', '---\ntitle: [x\n---\nBody.\n', 'frontmatter'],
    ['required-field', 'wiki/concepts/bare.md', page({ title: 'Bare', sources: SRC }, 'Body.'), 'required-field'],
    ['key-pattern', 'wiki/concepts/Bad Name.md', page({ title: 'B', summary: 'S.', sources: SRC }, 'Body.'), 'key-pattern'],
    ['duplicate-key', 'wiki/entities/transformer.md', page({ title: 'T', summary: 'S.', sources: SRC }, 'Body.'), 'duplicate-key'],
    ['missing-source', 'wiki/concepts/x-page.md', page({ title: 'X', summary: 'S.', sources: '[raw/gone.md]' }, 'Body.'), 'missing-source'],
  ])('rejects on %s', (_name, pagePath, content, rule) => {
    const result = validateWrite(wikiIndex(), { path: pagePath, content }, ctx);
    expect(result.ok).toBe(false);
    expect(rules(result.errors)).toContain(rule);
  });

  it('returns warnings beside the errors (a page without sources is an error)', () => {
    const result = validateWrite(
      wikiIndex(),
      { path: 'wiki/concepts/transformers.md', content: page({ title: 'Transformers', summary: 'S.' }, '') },
      ctx,
    );
    expect(result.ok).toBe(false);
    expect(rules(result.errors)).toEqual(['no-sources']);
    expect(rules(result.warnings).sort()).toEqual(['empty-page', 'near-duplicate']);
    expect(result.warnings.find((w) => w.rule === 'near-duplicate')?.message).toMatch(/\[\[transformer\]\]/);
  });

  it('sees pages added with upsert, without rebuilding', () => {
    const index = wikiIndex();
    const candidate = { path: 'wiki/concepts/a-new.md', content: page({ title: 'New', summary: 'S.', sources: SRC }, 'Links [[b-new]].') };
    expect(validateWrite(index, candidate, ctx).ok).toBe(false);
    const b = validateWrite(index, { path: 'wiki/concepts/b-new.md', content: page({ title: 'B', summary: 'S.', sources: SRC }, 'Links [[a-new]].') }, ctx);
    expect(b.ok).toBe(false); // a-new does not exist yet either
    index.upsert(parsePage('wiki/concepts/b-new.md', page({ title: 'B', summary: 'S.', sources: SRC }, 'Body.'), contract));
    expect(validateWrite(index, candidate, ctx).ok).toBe(true);
  });
});

describe('validateWrite: YAML cannot amplify', () => {
  const laughs = [
    '---',
    'title: Laughs',
    'summary: S.',
    `sources: ${SRC}`,
    'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
    'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]',
    'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]',
    'd: [*c,*c,*c,*c,*c,*c,*c,*c,*c]',
    '---',
    '',
    'Body.',
    '',
  ].join('\n');
  const cases = [
    { name: 'a billion-laughs frontmatter', content: laughs, reuse: 'anchor &a' },
    { name: 'one alias', content: `---\ntitle: &t Alias\nsummary: *t\nsources: ${SRC}\n---\n\nBody.\n`, reuse: 'anchor &t' },
    { name: 'an anchor alone', content: `---\ntitle: &t Anchor\nsummary: S.\nsources: ${SRC}\n---\n\nBody.\n`, reuse: 'anchor &t' },
  ];
  it.each(cases)('refuses $name, saying what to do', ({ content, reuse }) => {
    const result = validateWrite(wikiIndex(), { path: 'wiki/concepts/laughs.md', content }, ctx);
    expect(result.ok).toBe(false);
    expect(rules(result.errors)).toContain('frontmatter');
    const message = result.errors.map((f) => (f as { message: string }).message).join('\n');
    expect(message).toContain(`uses the YAML ${reuse}`);
    expect(message).toContain('write each value out in full');
  });
});
