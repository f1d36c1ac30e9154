import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { buildGraph, type PageGraph } from '../../graph/build.js';
import { toDot } from '../../graph/dot.js';
import { toHtml } from '../../graph/html.js';
import { toJson } from '../../graph/json.js';
import { isSpecialPage, type Schema } from '../../wiki/contract.js';
import { loadPages } from '../../wiki/pages.js';
import { PageIndex } from '../../wiki/page-index.js';
import type { Viewer } from '../../wiki/access.js';
import { ServedPages, servedBody } from '../../wiki/served-pages.js';
import { stateDir } from '../../wiki/workspace.js';
import { InputError } from '../../errors.js';
import { displayPath } from '../../util/display-path.js';
import { fileInTheWay, writeFileAtomic } from '../../util/fs.js';
import { packageRoot } from '../../util/package-root.js';
import type { GraphFormat } from '../../graph/formats.js';

export { GRAPH_FORMATS, type GraphFormat } from '../../graph/formats.js';

export interface GraphOptions {
  format: GraphFormat;
  /** Absolute file path; undefined means the format's default place (see defaultGraphOut). */
  out?: string;
  /** Write to stdout instead of a file: the caller prints `document`. */
  stdout?: boolean;
  /**
   * Who the graph is for (wiki/access.ts): a graph is a file that leaves the workspace, like
   * an answer of `wiki mcp`, so it holds what `wiki mcp` would serve this user: no `never`
   * page, no other user's scratch page, nothing above the cap (mcp.maxVisibility).
   */
  viewer: Viewer;
}

export interface GraphSummary {
  format: GraphFormat;
  nodes: number;
  edges: number;
  orphans: number;
  missing: number;
  /** Absolute path written, or null when the document goes to stdout. */
  out: string | null;
}

export interface GraphResult {
  summary: GraphSummary;
  graph: PageGraph;
  /** The rendered document; the caller prints it when `summary.out` is null. */
  document: string;
}

/**
 * Where a format goes when no --out is given: the HTML view is a file to open in a
 * browser, kept with the machine state (git-ignored); JSON and DOT are for pipes.
 */
export function defaultGraphOut(root: string, format: GraphFormat): string | undefined {
  return format === 'html' ? path.join(stateDir(root), 'graph.html') : undefined;
}

export async function graphWorkspace(root: string, schema: Schema, options: GraphOptions): Promise<GraphResult> {
  const all = await loadPages(root, schema.contract);
  const served = new ServedPages(PageIndex.fromPages(all, schema.contract), schema.contract, options.viewer);
  const visible = all.filter((page) => served.serves(page));
  // A link to a withheld page is no edge and no missing link: its key is not shown either.
  const pages = visible.map((page) => ({ ...page, links: page.links.filter((link) => !served.exists(link.target) || served.has(link.target)) }));
  const graph = buildGraph(pages, schema.contract);
  const name = path.basename(root);
  let document: string;
  if (options.format === 'html') {
    const template = await readFile(path.join(packageRoot(), 'templates', 'graph.html'), 'utf8');
    const texts = new Map<string, string>();
    // Each page's text without the lines linking to a withheld page, judged on the page as
    // written (its links all there), not on the edges left for the graph.
    for (const page of visible) {
      if (!isSpecialPage(schema.contract, page.path) && !texts.has(page.key)) texts.set(page.key, servedBody(page, served));
    }
    document = toHtml(graph, { template, title: `${name} · wiki graph`, texts });
  } else if (options.format === 'dot') {
    document = toDot(graph, { name });
  } else {
    document = toJson(graph);
  }
  const out = options.stdout ? undefined : (options.out ?? defaultGraphOut(root, options.format));
  if (out) {
    const file = await fileInTheWay(path.dirname(out));
    if (file !== undefined) throw new InputError(`${displayPath(file)} is a file`, 'give --out a path in a folder, e.g. --out graph.html');
    await writeFileAtomic(out, document);
  }
  return {
    graph,
    document,
    summary: {
      format: options.format,
      nodes: graph.stats.nodes,
      edges: graph.stats.edges,
      orphans: graph.stats.orphans,
      missing: graph.stats.missing,
      out: out ?? null,
    },
  };
}
