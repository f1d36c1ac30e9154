import type { GraphNode, PageGraph } from './build.js';
import { colorFor, typeColors } from './palette.js';

const ORPHAN_BORDER = '#D62728';
const MISSING_COLOR = '#D62728';
const MAX_LABEL = 60;

/**
 * Graphviz DOT. Nodes are filled with their type's colour, orphans get a red dashed
 * border, archived pages grey text; a pair linked by a ref draws a solid edge, by inline
 * links only a dashed one. Missing targets become red plaintext nodes (Graphviz needs an
 * end point) under ids that cannot collide with page keys. The legend is the graph label.
 */
export function toDot(graph: PageGraph, options: { name?: string } = {}): string {
  const colors = typeColors(graph.types);
  const keys = new Set(graph.nodes.map((n) => n.key));
  const lines: string[] = [
    `digraph ${quote(options.name ?? 'wiki')} {`,
    `  graph [rankdir=LR, overlap=false, splines=true, fontname="Helvetica", fontsize=11, labelloc=b, label=<${legend(graph, colors)}>];`,
    '  node [shape=box, style="rounded,filled", fontname="Helvetica", fontsize=10, penwidth=1.2];',
    '  edge [color="#777777", arrowsize=0.6];',
  ];

  for (const type of graph.types) {
    const members = graph.nodes.filter((n) => n.type === type);
    if (members.length === 0) continue;
    lines.push('', `  // ${sanitizeComment(type)} (${members.length})`);
    for (const node of members) lines.push(`  ${quote(node.key)} [${nodeAttributes(node, colorFor(colors, type))}];`);
  }

  const pairs = new Map<string, { source: string; target: string; ref: boolean }>();
  for (const edge of graph.edges) {
    const id = `${edge.source}\u0000${edge.target}`;
    const pair = pairs.get(id) ?? { source: edge.source, target: edge.target, ref: false };
    if (edge.kind === 'ref') pair.ref = true;
    pairs.set(id, pair);
  }
  if (pairs.size > 0) lines.push('', '  // links: solid = refs (frontmatter), dashed = inline [[links]] only');
  for (const pair of pairs.values()) {
    lines.push(`  ${quote(pair.source)} -> ${quote(pair.target)}${pair.ref ? '' : ' [style=dashed]'};`);
  }

  if (graph.missing.length > 0) {
    lines.push('', '  // links to pages that do not exist');
    const missingIds = new Map<string, string>();
    for (const target of new Set(graph.missing.map((m) => m.target))) {
      let id = `missing:${target}`;
      while (keys.has(id)) id = `${id}'`;
      missingIds.set(target, id);
      lines.push(
        `  ${quote(id)} [label=${quote(`${truncate(target)}?`)}, shape=plaintext, style="", fontcolor="${MISSING_COLOR}", tooltip=${quote(`missing page: ${target}`)}];`,
      );
    }
    for (const link of graph.missing) {
      const id = missingIds.get(link.target) ?? link.target;
      lines.push(`  ${quote(link.source)} -> ${quote(id)} [color="${MISSING_COLOR}", style=dashed];`);
    }
  }
  lines.push('}');
  return `${lines.join('\n')}\n`;
}

function nodeAttributes(node: GraphNode, color: string): string {
  const attributes = [
    `label=${quote(truncate(node.title))}`,
    `fillcolor="${color}40"`,
    `color="${node.orphan ? ORPHAN_BORDER : color}"`,
    `tooltip=${quote(node.summary ? `${node.key}: ${node.summary}` : node.key)}`,
  ];
  if (node.orphan) attributes.push('style="rounded,filled,dashed"', 'penwidth=2');
  if (node.archived) attributes.push('fontcolor="#888888"');
  return attributes.join(', ');
}

function legend(graph: PageGraph, colors: Record<string, string>): string {
  const parts = graph.types.map(
    (type) => `<font color="${colorFor(colors, type)}">&#9632;</font> ${escapeHtml(type)} (${graph.stats.byType[type] ?? 0})`,
  );
  parts.push(`<font color="${ORPHAN_BORDER}">&#9633;</font> orphan (dashed red border)`);
  if (graph.missing.length > 0) parts.push(`<font color="${MISSING_COLOR}">missing?</font> link to no page`);
  return parts.join(' &nbsp; ');
}

/** A DOT double-quoted string: only `"` and `\` need escaping; newlines become `\n` escapes. */
export function quote(text: string): string {
  const cleaned = text
    .replace(/\\/g, '\\\\')
    .replace(/"/g, '\\"')
    .replace(/\r?\n/g, '\\n')
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '');
  return `"${cleaned}"`;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function sanitizeComment(text: string): string {
  return text.replace(/[\r\n]/g, ' ');
}

function truncate(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_LABEL ? `${flat.slice(0, MAX_LABEL - 1)}…` : flat;
}
