import type { GraphSummary } from '../operations/inspect/graph.js';
import { plural } from '../progress/format.js';

export function renderGraphSummary(summary: GraphSummary, where: string): string {
  return `Wrote the ${summary.format} graph of ${plural(summary.nodes, 'page')} and ${plural(summary.edges, 'link')} (${plural(summary.orphans, 'orphan')}, ${summary.missing} missing) to ${where}`;
}

export { displayPath } from '../util/display-path.js';
