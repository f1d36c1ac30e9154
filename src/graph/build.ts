import { isSpecialPage, type Contract } from '../wiki/contract.js';
import { keyFromPath } from '../wiki/keys.js';
import { stringField, tagsOf, type Page } from '../wiki/page.js';

export type EdgeKind = 'ref' | 'inline';

export interface GraphNode {
  key: string;
  path: string;
  title: string;
  /** Page type, or `untyped` when neither the frontmatter nor the folder says. */
  type: string;
  summary: string;
  tags: string[];
  /** Distinct other pages linking here. */
  inDegree: number;
  /** Distinct other existing pages this page links to. */
  outDegree: number;
  /** No other content page links here. */
  orphan: boolean;
  archived: boolean;
}

export interface GraphEdge {
  source: string;
  target: string;
  kind: EdgeKind;
}

/** A link whose target key is no page: kept apart so views can flag it instead of inventing a node. */
export type MissingLink = GraphEdge;

export interface GraphStats {
  nodes: number;
  edges: number;
  orphans: number;
  missing: number;
  archived: number;
  byType: Record<string, number>;
  /** Keys held by more than one file; only the first path (sorted) becomes a node. */
  duplicateKeys: string[];
}

export interface PageGraph {
  /** Types in legend order: the contract's types first, then others found, `untyped` last. */
  types: string[];
  nodes: GraphNode[];
  edges: GraphEdge[];
  missing: MissingLink[];
  stats: GraphStats;
}

export const UNTYPED = 'untyped';

/**
 * The page graph of a wiki. Index, log and hub pages are catalogs, not content, so they
 * are neither nodes nor edge ends (a link to them is not "missing" either). Self-links
 * carry no structure and are dropped; edges are de-duplicated per (source, target, kind).
 */
export function buildGraph(pages: readonly Page[], contract: Contract): PageGraph {
  const specialKeys = new Set<string>([keyFromPath(contract.index), keyFromPath(contract.log)]);
  const content: Page[] = [];
  const duplicateKeys = new Set<string>();
  const seen = new Set<string>();
  for (const page of [...pages].sort((a, b) => compare(a.path, b.path))) {
    if (isSpecialPage(contract, page.path)) {
      specialKeys.add(page.key);
      continue;
    }
    if (seen.has(page.key)) {
      duplicateKeys.add(page.key);
      continue;
    }
    seen.add(page.key);
    content.push(page);
  }

  const edges = new Map<string, GraphEdge>();
  const missing = new Map<string, MissingLink>();
  for (const page of content) {
    for (const link of page.links) {
      if (link.target === page.key || specialKeys.has(link.target)) continue;
      const edge: GraphEdge = { source: page.key, target: link.target, kind: link.kind };
      const id = `${edge.source}\u0000${edge.target}\u0000${edge.kind}`;
      (seen.has(link.target) ? edges : missing).set(id, edge);
    }
  }

  const linkedFrom = new Map<string, Set<string>>();
  const linksTo = new Map<string, Set<string>>();
  for (const edge of edges.values()) {
    addTo(linkedFrom, edge.target, edge.source);
    addTo(linksTo, edge.source, edge.target);
  }

  const nodes = content
    .map((page): GraphNode => {
      const inDegree = linkedFrom.get(page.key)?.size ?? 0;
      return {
        key: page.key,
        path: page.path,
        title: stringField(page.frontmatter, 'title')?.trim() || page.key,
        type: page.type ?? UNTYPED,
        summary: stringField(page.frontmatter, 'summary')?.trim() ?? '',
        tags: tagsOf(page.frontmatter),
        inDegree,
        outDegree: linksTo.get(page.key)?.size ?? 0,
        orphan: inDegree === 0,
        archived: stringField(page.frontmatter, 'archived_since') !== undefined,
      };
    })
    .sort((a, b) => compare(a.key, b.key));

  const byType: Record<string, number> = Object.fromEntries(Object.keys(contract.types).map((t) => [t, 0]));
  for (const node of nodes) byType[node.type] = (byType[node.type] ?? 0) + 1;

  const sortedEdges = [...edges.values()].sort(compareEdges);
  const sortedMissing = [...missing.values()].sort(compareEdges);
  return {
    types: legendOrder(Object.keys(contract.types), Object.keys(byType)),
    nodes,
    edges: sortedEdges,
    missing: sortedMissing,
    stats: {
      nodes: nodes.length,
      edges: sortedEdges.length,
      orphans: nodes.filter((n) => n.orphan).length,
      missing: sortedMissing.length,
      archived: nodes.filter((n) => n.archived).length,
      byType,
      duplicateKeys: [...duplicateKeys].sort(compare),
    },
  };
}

function legendOrder(contractTypes: string[], found: string[]): string[] {
  const extra = found.filter((t) => !contractTypes.includes(t) && t !== UNTYPED).sort(compare);
  return [...contractTypes, ...extra, ...(found.includes(UNTYPED) ? [UNTYPED] : [])];
}

function addTo(map: Map<string, Set<string>>, key: string, value: string): void {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  set.add(value);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareEdges(a: GraphEdge, b: GraphEdge): number {
  return compare(a.source, b.source) || compare(a.target, b.target) || compare(a.kind, b.kind);
}
