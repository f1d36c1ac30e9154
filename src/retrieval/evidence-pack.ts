import { stringField, type Page } from '../wiki/page.js';
import { bestPassages, matchesQuestion, questionTerms } from './passages.js';

/**
 * The evidence pack: what a question's answer is built from, gathered before any model
 * call. The best search hits are the seeds; their refs and [[links]] are followed one
 * hop, then a second from the pages that reached — a linked page only when it matches the
 * question (a played pack spent 8 KB of 17 on linked pages that had nothing to do with
 * it) — and the pages found that way come with
 * the edges that led to them (the evidence chain) and their passages best matching the
 * question, all within one character budget. `wiki query` gives it to the model as its
 * first message; MCP's `ask_wiki` returns it to the calling agent.
 */

/** A search hit the asker may see, best first. */
export interface PackHit {
  key: string;
}

/** The wiki as the asker sees it. */
export interface PackView {
  /** The page with `key` the asker may see; undefined when hidden, missing or a catalog page (index, log, hubs). */
  page(key: string): Page | undefined;
  /** The page's body as the asker may see it. */
  body(page: Page): string;
}

export interface PackLimits {
  /** How many of the best hits seed the pack. */
  seeds: number;
  /** Link hops followed from the seeds: 0, 1 or 2. */
  hops: number;
  /** The most pages in the pack; the seeds are always kept, even past it. */
  maxPages: number;
  /** Characters of the whole pack as rendered for a model (headers, chain and passages). */
  maxChars: number;
}

export type EdgeKind = 'refs' | 'links';

export interface EvidenceEdge {
  from: string;
  to: string;
  /** `refs` from the frontmatter list, `links` from a [[link]] in the body. */
  kind: EdgeKind;
}

export interface EvidencePage {
  key: string;
  path: string;
  title: string | null;
  summary: string | null;
  /** 0 for a search hit (a seed), 1 or 2 for a page reached through that many links. */
  depth: number;
  /** For a page reached through links: the edge that first reached it, as a chain line. */
  via?: string;
  /** The page's paragraphs best matching the question, in page order. */
  passages: string[];
}

export interface EvidencePack {
  question: string;
  /** False when no page matched: there is nothing in the wiki about this. */
  found: boolean;
  /** Seeds in rank order, then depth-1 pages, then depth-2 pages. */
  pages: EvidencePage[];
  /** The links followed from the seeds: for each page reached through a link, the one that first reached it. */
  edges: EvidenceEdge[];
  /** The first MAX_CHAIN_LINES of those edges as lines: `attention --refs--> transformer`. */
  chain: string[];
  /** Characters of the pack as rendered by `renderEvidencePack`. */
  chars: number;
}

/** `attention --refs--> transformer`. */
export function chainLine(edge: EvidenceEdge): string {
  return `${edge.from} --${edge.kind}--> ${edge.to}`;
}

interface Node {
  page: Page;
  depth: number;
  /** The edge that first reached the page (none for a seed). */
  via?: EvidenceEdge;
}

export function buildEvidencePack(question: string, hits: readonly PackHit[], view: PackView, limits: PackLimits): EvidencePack {
  const terms = questionTerms(question);
  const kept = fitHeaders(expand(hits, view, limits, terms), limits.maxChars);
  // The chain is the path followed: the edge that first reached each page, not every link among the pages.
  const keptEdges = followedEdges(kept);
  const chain = keptEdges.slice(0, MAX_CHAIN_LINES).map(chainLine);
  let left = limits.maxChars - fixedChars(kept, chain);
  const pages: EvidencePage[] = [];
  kept.forEach((node, index) => {
    const weightLeft = kept.slice(index).reduce((sum, other) => sum + weightOf(other), 0);
    // On a tight budget the better-ranked pages still get a useful passage; the rest get what is left.
    const share = Math.max(Math.floor((left * weightOf(node)) / weightLeft), Math.min(left, MIN_SHARE));
    const passages = bestPassages(view.body(node.page), terms, share);
    left -= passagesChars(passages);
    pages.push(evidencePage(node, passages));
  });
  const pack: EvidencePack = { question, found: pages.length > 0, pages, edges: keptEdges, chain, chars: 0 };
  pack.chars = renderEvidencePack(pack).length;
  return pack;
}

/**
 * The most lines of the evidence chain: past it, each page's header still says which link
 * reached it. Ten lines are a path a model can follow; the old list of every link among
 * a dozen pages ran to 87.
 */
export const MAX_CHAIN_LINES = 10;

/** A page's link as the pack reads it: `ref` from the frontmatter, anything else from the body. */
export interface EvidenceLink {
  target: string;
  kind: string;
}

function edgeKind(link: EvidenceLink): EdgeKind {
  return link.kind === 'ref' ? 'refs' : 'links';
}

/**
 * The links among `keys` (the pages an answer cites), as chain lines: in the order of
 * `keys`, each page's links to a page of `keys` not yet reached, the first link to each
 * page only, at most `limit`. Empty when no cited page links to another.
 */
export function chainAmong(keys: readonly string[], linksOf: (key: string) => readonly EvidenceLink[], limit = MAX_CHAIN_LINES): string[] {
  const wanted = new Set(keys);
  const reached = new Set<string>();
  const lines: string[] = [];
  for (const from of keys) {
    for (const link of linksOf(from)) {
      if (link.target === from || !wanted.has(link.target) || reached.has(link.target)) continue;
      reached.add(link.target);
      lines.push(chainLine({ from, to: link.target, kind: edgeKind(link) }));
      if (lines.length >= limit) return lines;
    }
  }
  return lines;
}

/** For each page reached through a link, that link, in pack order. */
function followedEdges(nodes: readonly Node[]): EvidenceEdge[] {
  return nodes.flatMap((node) => (node.via ? [node.via] : []));
}

/** The least passage room a page is given while the budget lasts. */
const MIN_SHARE = 240;

/** Seeds weigh twice a linked page when the passage budget is shared out. */
function weightOf(node: Node): number {
  return node.depth === 0 ? 2 : 1;
}

/** Breadth first from the seeds: every depth-1 page before any depth-2 page, up to `maxPages`; a linked page only when it matches the question. */
function expand(hits: readonly PackHit[], view: PackView, limits: PackLimits, terms: ReadonlySet<string>): Node[] {
  const nodes: Node[] = [];
  const byKey = new Map<string, Node>();
  for (const hit of hits.slice(0, limits.seeds)) {
    const page = view.page(hit.key);
    if (!page || byKey.has(page.key)) continue;
    const node = { page, depth: 0 };
    nodes.push(node);
    byKey.set(page.key, node);
  }
  for (let depth = 0; depth < Math.min(limits.hops, 2); depth++) {
    for (const node of nodes.filter((candidate) => candidate.depth === depth)) {
      for (const link of node.page.links) {
        if (link.target === node.page.key || byKey.has(link.target) || nodes.length >= limits.maxPages) continue;
        const page = view.page(link.target);
        if (!page || byKey.has(page.key) || !matchesQuestion(page, view.body(page), terms)) continue;
        const edge: EvidenceEdge = { from: node.page.key, to: page.key, kind: edgeKind(link) };
        const target = { page, depth: depth + 1, via: edge };
        nodes.push(target);
        byKey.set(page.key, target);
      }
    }
  }
  return nodes;
}

/**
 * The pages whose headers fit the budget, in order. The best seed always comes; every other
 * page only while its header leaves room for a passage of the best one (MIN_SHARE): on a
 * tight budget five bare headers tell the model less than one page with its best passage.
 */
function fitHeaders(nodes: readonly Node[], maxChars: number): Node[] {
  const kept: Node[] = [];
  const keptKeys = new Set<string>();
  let used = PREAMBLE.length + CHAIN_TITLE.length;
  for (const node of nodes) {
    const followed = node.via && kept.filter((other) => other.via).length < MAX_CHAIN_LINES ? chainLine(node.via).length + 3 : 0;
    const cost = headerOf(evidencePage(node, [])).length + followed;
    const fits = kept.length === 0 || used + cost + MIN_SHARE <= maxChars;
    // A linked page comes only with the page that led to it.
    if (!fits || (node.depth > 0 && !keptKeys.has(node.via?.from ?? ''))) continue;
    kept.push(node);
    keptKeys.add(node.page.key);
    used += cost;
  }
  return kept;
}

/** Characters of the rendered pack other than passages. */
function fixedChars(nodes: readonly Node[], chain: readonly string[]): number {
  const headers = nodes.reduce((sum, node) => sum + headerOf(evidencePage(node, [])).length, 0);
  const chainChars = chain.length === 0 ? 0 : CHAIN_TITLE.length + chain.reduce((sum, line) => sum + line.length + 3, 0);
  return PREAMBLE.length + chainChars + headers;
}

function passagesChars(passages: readonly string[]): number {
  return passages.reduce((sum, passage) => sum + passage.length + 2, 0);
}

function evidencePage(node: Node, passages: string[]): EvidencePage {
  const page: EvidencePage = {
    key: node.page.key,
    path: node.page.path,
    title: stringField(node.page.frontmatter, 'title') ?? null,
    summary: stringField(node.page.frontmatter, 'summary') ?? null,
    depth: node.depth,
    passages,
  };
  if (node.via) page.via = chainLine(node.via);
  return page;
}

const PREAMBLE =
  '# Evidence from the wiki\n\n' +
  'Retrieved for this question before you were called: the best-matching pages (depth 0), the pages their refs and ' +
  '[[links]] lead to that match it (depth 1 and 2), and each page\'s passages that best match it, <!-- from: --> citations kept. ' +
  'Answer from this evidence when it suffices, citing every page you use as [[key]]; read a page with read_file only ' +
  'when the evidence lacks what the question needs.\n';
const CHAIN_TITLE = '\n## Evidence chain (links followed from the search matches)\n\n';

function headerOf(page: EvidencePage): string {
  const where = page.depth === 0 ? 'search match' : `depth ${page.depth}, via ${page.via ?? ''}`;
  const lines = [`## [[${page.key}]]${page.title ? ` ${page.title}` : ''} (${page.path}; ${where})`];
  if (page.summary) lines.push(`Summary: ${page.summary}`);
  return `\n${lines.join('\n')}\n`;
}

/** The pack as the text a model reads: preamble, evidence chain, then each page's header and passages. */
export function renderEvidencePack(pack: EvidencePack): string {
  const parts = [PREAMBLE];
  if (pack.chain.length > 0) parts.push(CHAIN_TITLE, pack.chain.map((line) => `- ${line}`).join('\n'), '\n');
  for (const page of pack.pages) {
    parts.push(headerOf(page));
    if (page.passages.length > 0) parts.push('\n', page.passages.join('\n\n'), '\n');
  }
  return parts.join('');
}
