import path from 'node:path';
import type { GraphSummary } from '../operations/graph.js';

export function renderGraphSummary(summary: GraphSummary, where: string): string {
  const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
  return `Wrote the ${summary.format} graph of ${plural(summary.nodes, 'page')} and ${plural(summary.edges, 'link')} (${plural(summary.orphans, 'orphan')}, ${summary.missing} missing) to ${where}`;
}

export function displayPath(absolute: string): string {
  const relative = path.relative(process.cwd(), absolute);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : absolute;
}
