import type { PageGraph } from './build.js';

/** The graph as a stable JSON document (sorted nodes and edges, so diffs stay small). */
export function toJson(graph: PageGraph): string {
  return `${JSON.stringify({ version: 1, ...graph }, null, 2)}\n`;
}
