import type { GraphNode, PageGraph } from './build.js';
import { typeColors } from './palette.js';

/** What the page's inline script reads from the `graph-data` block. */
export interface HtmlGraphData {
  title: string;
  types: Array<{ name: string; color: string; count: number }>;
  nodes: Array<GraphNode & { text: string }>;
  edges: PageGraph['edges'];
  missing: PageGraph['missing'];
  stats: PageGraph['stats'];
}

export interface HtmlOptions {
  /** The contents of templates/graph.html. */
  template: string;
  title: string;
  /** Markdown body per page key, shown in the side panel. */
  texts: ReadonlyMap<string, string>;
}

export const TEMPLATE_PLACEHOLDERS = ['{{title}}', '{{data}}'] as const;

/**
 * One self-contained HTML file: the template (inline CSS and script, no network) with the
 * graph embedded as JSON. Replacement is a single pass, so placeholder-like text inside
 * the data is never substituted again.
 */
export function toHtml(graph: PageGraph, options: HtmlOptions): string {
  const colors = typeColors(graph.types);
  const data: HtmlGraphData = {
    title: options.title,
    types: graph.types.map((name) => ({ name, color: colors[name] ?? '#9A9A9A', count: graph.stats.byType[name] ?? 0 })),
    nodes: graph.nodes.map((node) => ({ ...node, text: options.texts.get(node.key) ?? '' })),
    edges: graph.edges,
    missing: graph.missing,
    stats: graph.stats,
  };
  for (const placeholder of TEMPLATE_PLACEHOLDERS) {
    if (!options.template.includes(placeholder)) throw new Error(`graph template lacks ${placeholder}`);
  }
  return options.template.replace(/\{\{(title|data)\}\}/g, (_, name: string) =>
    name === 'title' ? escapeHtml(options.title) : scriptSafeJson(data),
  );
}

/**
 * JSON that can sit inside a `<script>` element whatever the strings hold: every `<`, `>`
 * and `&` becomes a `\u` escape, so neither `</script>` nor `<!--` can appear, and the
 * line separators JavaScript once treated as newlines are escaped too. JSON.parse
 * restores the exact text.
 */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}
