import { readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildGraph, type PageGraph } from '../../src/graph/build.js';
import { initWorkspace } from '../../src/operations/workspace/init.js';
import { parsePage } from '../../src/wiki/page.js';
import { loadPages } from '../../src/wiki/pages.js';
import { parseSchema } from '../../src/wiki/schema-loader.js';
import { SAMPLE_KEYS, SAMPLE_ORPHANS, writeSampleWiki } from './sample-wiki.js';

const { contract } = parseSchema(readFileSync(new URL('../../templates/schema.md', import.meta.url), 'utf8'));

function page(pagePath: string, frontmatter: string, body = ''): ReturnType<typeof parsePage> {
  return parsePage(pagePath, `---\n${frontmatter}\n---\n${body}`, contract);
}

async function sampleGraph(options: { broken?: boolean } = {}): Promise<PageGraph> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'wiki-graph-'));
  await initWorkspace(root, { today: '2026-01-01' });
  await writeSampleWiki(root, options);
  return buildGraph(await loadPages(root, contract), contract);
}

describe('buildGraph on the sample wiki', () => {
  let graph: PageGraph;
  beforeAll(async () => {
    graph = await sampleGraph();
  });

  it('has one node per content page, sorted by key; index and log are not nodes', () => {
    expect(graph.nodes.map((n) => n.key)).toEqual(SAMPLE_KEYS);
    expect(graph.stats.nodes).toBe(SAMPLE_KEYS.length);
  });

  it('orders types as the contract does and counts pages per type', () => {
    expect(graph.types).toEqual(['source', 'concept', 'entity']);
    expect(graph.stats.byType).toEqual({ source: 2, concept: 6, entity: 4 });
  });

  it('marks pages no other page links to as orphans', () => {
    expect(graph.nodes.filter((n) => n.orphan).map((n) => n.key)).toEqual(SAMPLE_ORPHANS);
    expect(graph.stats.orphans).toBe(SAMPLE_ORPHANS.length);
  });

  it('marks archived pages', () => {
    expect(graph.nodes.filter((n) => n.archived).map((n) => n.key)).toEqual(['recurrent-attention-notes']);
  });

  it('keeps one edge per source, target and kind', () => {
    const between = (source: string, target: string) =>
      graph.edges.filter((e) => e.source === source && e.target === target).map((e) => e.kind);
    expect(between('scaled-dot-product-attention', 'multi-head-attention')).toEqual(['inline', 'ref']);
    expect(between('transformer', 'self-attention')).toEqual(['inline']); // linked twice in the body
    expect(between('bert-paper', 'transformer')).toEqual(['inline', 'ref']); // [[transformer#Encoder]]
  });

  it('counts distinct neighbour pages as degrees', () => {
    const node = (key: string) => graph.nodes.find((n) => n.key === key);
    expect(node('multi-head-attention')).toMatchObject({ inDegree: 3, outDegree: 1 });
    expect(node('attention-is-all-you-need')).toMatchObject({ inDegree: 1, outDegree: 5 });
  });

  it('takes title, summary and tags from the frontmatter', () => {
    expect(graph.nodes.find((n) => n.key === 'squad')).toMatchObject({
      path: 'wiki/entities/squad.md',
      title: 'SQuAD',
      type: 'entity',
      summary: 'Stanford Question Answering Dataset, a reading-comprehension benchmark.',
      tags: ['dataset', 'benchmark'],
    });
  });

  it('ignores links inside code and has nothing missing', () => {
    expect(graph.missing).toEqual([]);
    expect(graph.edges.some((e) => e.target.includes('not-a-page'))).toBe(false);
  });
});

describe('buildGraph with links to pages that do not exist', () => {
  it('keeps them in `missing`, not as nodes or edges', async () => {
    const graph = await sampleGraph({ broken: true });
    expect(graph.missing).toEqual([
      { source: 'draft-notes', target: 'also-missing', kind: 'inline' },
      { source: 'draft-notes', target: 'not-yet-written', kind: 'ref' },
    ]);
    expect(graph.nodes.map((n) => n.key)).not.toContain('not-yet-written');
    expect(graph.edges.filter((e) => e.source === 'draft-notes').map((e) => e.target)).toEqual(['transformer', 'transformer']);
    expect(graph.stats.missing).toBe(2);
  });
});

describe('buildGraph edge cases', () => {
  const cases: Array<{ name: string; pages: ReturnType<typeof page>[]; expect: (g: PageGraph) => void }> = [
    {
      name: 'a self-link is not an edge and does not save a page from being an orphan',
      pages: [page('wiki/concepts/a.md', 'title: A\nrefs: [a]', 'see [[a]]')],
      expect: (g) => {
        expect(g.edges).toEqual([]);
        expect(g.nodes[0]).toMatchObject({ key: 'a', orphan: true, inDegree: 0, outDegree: 0 });
      },
    },
    {
      name: 'links to the index or log are neither edges nor missing',
      pages: [page('wiki/index.md', 'title: Index', '[[a]]'), page('wiki/concepts/a.md', 'title: A', '[[index]] [[log]]')],
      expect: (g) => {
        expect(g.nodes.map((n) => n.key)).toEqual(['a']);
        expect(g.edges).toEqual([]);
        expect(g.missing).toEqual([]);
        expect(g.nodes[0]?.orphan).toBe(true); // the index's catalog link does not count
      },
    },
    {
      name: 'a duplicate key keeps the first path and is reported',
      pages: [page('wiki/entities/x.md', 'title: X entity'), page('wiki/concepts/x.md', 'title: X concept')],
      expect: (g) => {
        expect(g.nodes.map((n) => n.path)).toEqual(['wiki/concepts/x.md']);
        expect(g.stats.duplicateKeys).toEqual(['x']);
      },
    },
    {
      name: 'a page without a title is labelled by its key; a page without a type is untyped, listed last',
      pages: [page('wiki/notes/loose.md', 'summary: no title here'), page('wiki/concepts/b.md', 'title: B')],
      expect: (g) => {
        expect(g.nodes.find((n) => n.key === 'loose')).toMatchObject({ title: 'loose', type: 'untyped' });
        expect(g.types).toEqual(['source', 'concept', 'entity', 'untyped']);
        expect(g.stats.byType).toEqual({ source: 0, concept: 1, entity: 0, untyped: 1 });
      },
    },
    {
      name: 'a type outside the contract gets its own legend entry after the contract types',
      pages: [page('wiki/concepts/q.md', 'title: Q\ntype: question')],
      expect: (g) => {
        expect(g.types).toEqual(['source', 'concept', 'entity', 'question']);
        expect(g.nodes[0]?.type).toBe('question');
      },
    },
    {
      name: 'an empty wiki is an empty graph',
      pages: [],
      expect: (g) => {
        expect(g.nodes).toEqual([]);
        expect(g.stats).toMatchObject({ nodes: 0, edges: 0, orphans: 0, missing: 0 });
      },
    },
  ];
  it.each(cases)('$name', ({ pages, expect: check }) => {
    check(buildGraph(pages, contract));
  });
});
