import { readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildGraph, type PageGraph } from '../../src/graph/build.js';
import { quote, toDot } from '../../src/graph/dot.js';
import { escapeHtml, scriptSafeJson, toHtml, type HtmlGraphData } from '../../src/graph/html.js';
import { toJson } from '../../src/graph/json.js';
import { typeColors } from '../../src/graph/palette.js';
import { initWorkspace } from '../../src/operations/workspace/init.js';
import { loadPages } from '../../src/wiki/pages.js';
import { parseSchema } from '../../src/wiki/schema-loader.js';
import type { Page } from '../../src/wiki/page.js';
import { SAMPLE_KEYS, SAMPLE_ORPHANS, writeSampleWiki } from './sample-wiki.js';

const { contract } = parseSchema(readFileSync(new URL('../../templates/schema.md', import.meta.url), 'utf8'));
const TEMPLATE = readFileSync(new URL('../../templates/graph.html', import.meta.url), 'utf8');

let pages: Page[];
let graph: PageGraph;
beforeAll(async () => {
  const root = await mkdtemp(path.join(os.tmpdir(), 'wiki-graph-'));
  await initWorkspace(root, { today: '2026-01-01' });
  await writeSampleWiki(root, { broken: true });
  pages = await loadPages(root, contract);
  graph = buildGraph(pages, contract);
});

function textsOf(list: Page[]): Map<string, string> {
  return new Map(list.map((p) => [p.key, p.body]));
}

/** The JSON inside `<script type="application/json" id="graph-data">…</script>`, parsed. */
function embeddedData(html: string): HtmlGraphData {
  const match = /<script type="application\/json" id="graph-data">([\s\S]*?)<\/script>/.exec(html);
  if (!match?.[1]) throw new Error('no graph-data block');
  return JSON.parse(match[1]) as HtmlGraphData;
}

describe('toJson', () => {
  it('is the whole graph, versioned, and parses back', () => {
    const parsed = JSON.parse(toJson(graph)) as PageGraph & { version: number };
    expect(parsed.version).toBe(1);
    expect(parsed.nodes.map((n) => n.key)).toEqual([...SAMPLE_KEYS, 'draft-notes'].sort());
    expect(parsed.edges).toEqual(graph.edges);
    expect(parsed.missing).toEqual(graph.missing);
    expect(parsed.stats).toEqual(graph.stats);
  });
});

describe('typeColors', () => {
  it('gives every type its own colour and untyped pages grey', () => {
    const colors = typeColors(['source', 'concept', 'entity', 'untyped']);
    expect(new Set(Object.values(colors)).size).toBe(4);
    expect(colors.untyped).toBe('#9A9A9A');
  });
});

describe('toDot', () => {
  let dot: string;
  beforeAll(() => {
    dot = toDot(graph, { name: 'my "research"' });
  });

  it('is one digraph with escaped name', () => {
    expect(dot.startsWith('digraph "my \\"research\\"" {\n')).toBe(true);
    expect(dot.trimEnd().endsWith('}')).toBe(true);
  });

  it('declares every page once, filled with its type colour', () => {
    const colors = typeColors(graph.types);
    for (const node of graph.nodes) {
      const lines = dot.split('\n').filter((l) => l.startsWith(`  ${quote(node.key)} [`));
      expect(lines, node.key).toHaveLength(1);
      expect(lines[0]).toContain(`fillcolor="${colors[node.type]}40"`);
    }
  });

  it('gives orphans a dashed red border and archived pages grey text', () => {
    for (const key of SAMPLE_ORPHANS) {
      expect(dot).toMatch(new RegExp(`^  "${key}" \\[.*style="rounded,filled,dashed".*$`, 'm'));
    }
    expect(dot).toMatch(/^ {2}"recurrent-attention-notes" \[.*fontcolor="#888888"/m);
    expect(dot).not.toMatch(/^ {2}"transformer" \[.*dashed/m);
  });

  it('draws one edge per linked pair: solid with a ref, dashed for inline links only', () => {
    expect(dot).toContain('  "multi-head-attention" -> "scaled-dot-product-attention";\n');
    expect(dot).toContain('  "transformer" -> "self-attention" [style=dashed];\n');
    expect(dot.match(/^ {2}"scaled-dot-product-attention" -> "multi-head-attention"/gm)).toHaveLength(1);
  });

  it('shows missing targets as red nodes that cannot be mistaken for pages', () => {
    expect(dot).toContain('"missing:not-yet-written" [label="not-yet-written?"');
    expect(dot).toContain('  "draft-notes" -> "missing:also-missing" [color="#D62728", style=dashed];\n');
  });

  it('escapes quotes in labels', () => {
    expect(dot).toContain('label="Tricky \\"quoted\\" <b>title</b> & more"');
  });

  it('puts a legend with each type in the graph label', () => {
    for (const type of graph.types) expect(dot).toContain(`${type} (`);
  });
});

describe('quote (DOT strings)', () => {
  it.each([
    ['plain', '"plain"'],
    ['say "hi"', '"say \\"hi\\""'],
    ['back\\slash', '"back\\\\slash"'],
    ['two\nlines', '"two\\nlines"'],
    ['bell\u0007', '"bell"'],
  ])('%j → %s', (input, expected) => {
    expect(quote(input)).toBe(expected);
  });
});

describe('scriptSafeJson', () => {
  it.each([
    '</script><script>alert(1)</script>',
    '<!-- <script>',
    'a & b > c',
    'line\u2028separator\u2029paragraph',
    '"quotes" and \'single\' and \\backslash',
  ])('%j cannot end the script element and parses back exactly', (text) => {
    const json = scriptSafeJson({ text });
    expect(json).not.toMatch(/[<>&\u2028\u2029]/);
    expect((JSON.parse(json) as { text: string }).text).toBe(text);
  });
});

describe('toHtml', () => {
  let html: string;
  beforeAll(() => {
    html = toHtml(graph, { template: TEMPLATE, title: 'demo <wiki> & "co"', texts: textsOf(pages) });
  });

  it('embeds every node with its page text, and the edges, missing links and stats', () => {
    const data = embeddedData(html);
    expect(data.nodes.map((n) => n.key)).toEqual(graph.nodes.map((n) => n.key));
    const tricky = data.nodes.find((n) => n.key === 'tricky-text');
    expect(tricky?.text).toBe(pages.find((p) => p.key === 'tricky-text')?.body);
    expect(tricky?.text).toContain('</script><script>');
    expect(data.edges).toEqual(graph.edges);
    expect(data.missing).toEqual(graph.missing);
    expect(data.types.map((t) => t.name)).toEqual(graph.types);
  });

  it('page text cannot close a script element or start a comment', () => {
    const count = (text: string, needle: string) => text.split(needle).length - 1;
    expect(count(html, '</script')).toBe(count(TEMPLATE, '</script'));
    expect(count(html, '<!--')).toBe(count(TEMPLATE, '<!--'));
  });

  it('substitutes placeholders once, so `{{data}}` inside page text stays text', () => {
    expect(html).not.toContain('{{title}}');
    expect(embeddedData(html).nodes.find((n) => n.key === 'tricky-text')?.text).toContain('{{data}}');
  });

  it('escapes the title', () => {
    expect(html).toContain('<title>demo &lt;wiki&gt; &amp; &quot;co&quot;</title>');
    expect(escapeHtml(`<a href='x'>`)).toBe('&lt;a href=&#39;x&#39;&gt;');
  });

  it('refuses a template without the placeholders', () => {
    expect(() => toHtml(graph, { template: '<html></html>', title: 't', texts: new Map() })).toThrow(/\{\{title\}\}/);
  });
});

describe('the HTML template', () => {
  it('loads nothing from the network and forbids it by policy', () => {
    expect(TEMPLATE).not.toMatch(/https?:\/\//);
    expect(TEMPLATE).not.toMatch(/<link\b|<img\b|<iframe\b|\bsrc=|@import|url\(/i);
    expect(TEMPLATE).toContain(`Content-Security-Policy" content="default-src 'none'`);
  });
});
