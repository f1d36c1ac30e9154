import { mkdtemp, readFile, writeFile, readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { configSchema } from '../../src/config/schema.js';
import { initWorkspace } from '../../src/operations/workspace/init.js';
import { CATALOG_END, CATALOG_START, replaceCatalog } from '../../src/wiki/catalog-region.js';
import { planIndex, regenerateIndex, renderCatalog } from '../../src/wiki/index-catalog.js';
import { parsePage, type Page } from '../../src/wiki/page.js';
import { loadSchema } from '../../src/wiki/schema-loader.js';
import { contract, INDEX_TEMPLATE, page } from './lint-fixture.js';

const p = (pagePath: string, fields: Record<string, string>): Page => parsePage(pagePath, page(fields, 'Body.'), contract);

const PAGES = [
  p('wiki/concepts/transformer.md', { title: 'Transformer', summary: 'A model built from [[attention]].\n  Two lines.' }),
  p('wiki/concepts/attention.md', { title: 'Attention', summary: 'Weighting.', archived_since: '2026-01-01' }),
  p('wiki/sources/paper.md', { title: 'Paper', summary: 'The paper.' }),
  p('wiki/entities/google.md', { title: 'Google' }),
  p('wiki/notes.md', { title: 'Loose note', summary: 'Outside any type folder.' }),
  p('wiki/index.md', { title: 'Index' }),
  p('wiki/log.md', { title: 'Log' }),
];

describe('renderCatalog', () => {
  it('groups pages by type in schema order, other last, `- [[key]] — summary`', () => {
    const { catalog, hub, spokes } = renderCatalog({ pages: PAGES, contract, hubThreshold: 300 });
    expect(hub).toBe(false);
    expect(spokes.size).toBe(0);
    expect(catalog).toBe(
      [
        '',
        '',
        '## Sources (1)',
        '',
        '- [[paper]] — The paper.',
        '',
        '## Concepts (2)',
        '',
        '- [[attention]] — Weighting. _(archived)_',
        '- [[transformer]] — A model built from attention. Two lines.',
        '',
        '## Entities (1)',
        '',
        '- [[google]] — Google',
        '',
        '## Other (1)',
        '',
        '- [[notes]] — Outside any type folder.',
        '',
        '',
      ].join('\n'),
    );
  });

  it('renders nothing but a newline for an empty wiki, so a fresh index is left as it is', () => {
    expect(renderCatalog({ pages: [], contract, hubThreshold: 300 }).catalog).toBe('\n');
    expect(replaceCatalog(INDEX_TEMPLATE, '\n')).toBe(INDEX_TEMPLATE);
  });

  it('switches to hub-and-spoke past the threshold: counts in the hub, one spoke per type', () => {
    const atThreshold = renderCatalog({ pages: PAGES, contract, hubThreshold: 5 });
    expect(atThreshold.hub).toBe(false);
    const past = renderCatalog({ pages: PAGES, contract, hubThreshold: 4 });
    expect(past.hub).toBe(true);
    expect(past.catalog).toContain('- [[index-source]] — Sources: 1 page');
    expect(past.catalog).toContain('- [[index-concept]] — Concepts: 2 pages');
    expect(past.catalog).toContain('- [[notes]] — Outside any type folder.');
    expect(past.catalog).not.toContain('[[transformer]]');
    expect([...past.spokes.keys()]).toEqual(['wiki/index-source.md', 'wiki/index-concept.md', 'wiki/index-entity.md']);
    const spoke = parsePage('wiki/index-concept.md', past.spokes.get('wiki/index-concept.md') ?? '', contract);
    expect(spoke.parseError).toBeUndefined();
    expect(spoke.links.map((l) => l.target)).toEqual(['attention', 'transformer']);
  });
});

describe('replaceCatalog', () => {
  const freeTextAbove = '---\ntitle: Index\n---\r\n\r\n# Índex — mine\r\n\r\nKeep   this *exactly*.  \n\n';
  const freeTextBelow = '\n\nAnd this footer, with [[transformer]] and trailing spaces.   \n\n\n';

  it('keeps the text outside the markers byte for byte', () => {
    const text = `${freeTextAbove}${CATALOG_START}\nold entries\n${CATALOG_END}${freeTextBelow}`;
    const next = replaceCatalog(text, '\nnew entries\n');
    expect(next).toBe(`${freeTextAbove}${CATALOG_START}\nnew entries\n${CATALOG_END}${freeTextBelow}`);
  });

  it('appends markers with the catalog when they are missing, keeping all existing text', () => {
    expect(replaceCatalog('# Index\n\nHand-written.', '\nX\n')).toBe(`# Index\n\nHand-written.\n\n${CATALOG_START}\nX\n${CATALOG_END}\n`);
    expect(replaceCatalog('', '\nX\n')).toBe(`${CATALOG_START}\nX\n${CATALOG_END}\n`);
  });

  it('uses the last start marker, so a stray marker never swallows text', () => {
    const text = `A\n${CATALOG_START}\nB (a stray start above)\n${CATALOG_START}\nold\n${CATALOG_END}\nC\n`;
    expect(replaceCatalog(text, '\nnew\n')).toBe(`A\n${CATALOG_START}\nB (a stray start above)\n${CATALOG_START}\nnew\n${CATALOG_END}\nC\n`);
    const onlyStart = `A\n${CATALOG_START}\nB\n`;
    const fixed = replaceCatalog(onlyStart, '\nnew\n');
    expect(fixed.startsWith(onlyStart)).toBe(true);
    expect(replaceCatalog(fixed, '\nnew\n')).toBe(fixed);
  });
});

describe('planIndex', () => {
  const files = (indexText: string | undefined, spokes: Record<string, string> = {}) => ({
    indexText,
    fallbackIndexText: INDEX_TEMPLATE,
    spokeTexts: new Map(Object.entries(spokes)),
  });

  it('writes nothing when the index is current', () => {
    const first = planIndex({ pages: PAGES, contract, hubThreshold: 300 }, files(INDEX_TEMPLATE));
    const current = first.writes[0]?.content;
    expect(first.writes.map((w) => w.path)).toEqual(['wiki/index.md']);
    expect(planIndex({ pages: PAGES, contract, hubThreshold: 300 }, files(current))).toEqual({ writes: [], deletes: [] });
  });

  it('creates index.md from the template when it is missing', () => {
    const plan = planIndex({ pages: PAGES, contract, hubThreshold: 300 }, files(undefined));
    expect(plan.writes[0]?.content.startsWith(INDEX_TEMPLATE.split(CATALOG_START)[0] ?? '')).toBe(true);
    expect(plan.writes[0]?.content).toContain('- [[paper]] — The paper.');
  });

  it('deletes spokes the catalog no longer needs when the wiki shrinks below the threshold', () => {
    const hubPlan = planIndex({ pages: PAGES, contract, hubThreshold: 2 }, files(INDEX_TEMPLATE));
    const spokes = Object.fromEntries(hubPlan.writes.filter((w) => w.path !== 'wiki/index.md').map((w) => [w.path, w.content]));
    expect(Object.keys(spokes)).toHaveLength(3);
    const hubIndex = hubPlan.writes.find((w) => w.path === 'wiki/index.md')?.content;
    const flatPlan = planIndex({ pages: PAGES, contract, hubThreshold: 300 }, files(hubIndex, spokes));
    expect(flatPlan.deletes).toEqual(['wiki/index-concept.md', 'wiki/index-entity.md', 'wiki/index-source.md']);
    expect(flatPlan.writes.map((w) => w.path)).toEqual(['wiki/index.md']);
  });
});

describe('regenerateIndex', () => {
  it('rewrites only the catalog on disk, atomically, and only when it changed', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'wiki-catalog-'));
    await initWorkspace(root);
    const schema = await loadSchema(root);
    const config = configSchema.parse({ index: { hubThreshold: 1 } });
    const indexFile = path.join(root, 'wiki/index.md');
    const mine = (await readFile(indexFile, 'utf8')).replace('Text outside the markers below is yours to edit.', 'My notes ✍️  stay.');
    await writeFile(indexFile, mine);
    expect(await regenerateIndex(root, schema, config)).toEqual({ changed: [] });

    await writeFile(path.join(root, 'wiki/concepts/a.md'), page({ title: 'A', summary: 'First.' }, 'x'));
    expect(await regenerateIndex(root, schema, config)).toEqual({ changed: ['wiki/index.md'] });
    const flat = await readFile(indexFile, 'utf8');
    expect(flat).toContain('- [[a]] — First.');
    expect(flat.split(CATALOG_START)[0]).toBe(mine.split(CATALOG_START)[0]);

    await writeFile(path.join(root, 'wiki/entities/b.md'), page({ title: 'B', summary: 'Second.' }, 'x'));
    expect((await regenerateIndex(root, schema, config)).changed.sort()).toEqual(['wiki/index-concept.md', 'wiki/index-entity.md', 'wiki/index.md']);
    expect(await readFile(indexFile, 'utf8')).toContain('- [[index-entity]] — Entities: 1 page');
    expect(await regenerateIndex(root, schema, config)).toEqual({ changed: [] });
    expect((await readdir(path.join(root, 'wiki'))).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});
