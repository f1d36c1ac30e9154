import type { SearchResponse } from '../search/index.js';
import { LANES } from '../search/types.js';
import type { Colors } from './output.js';

/** Human rendering of `wiki search`: ranked pages, with lane detail under --explain. */
export function renderSearch(response: SearchResponse, c: Colors, explain: boolean): string {
  const lines: string[] = [];
  const laneLine = LANES.map((lane) => `${lane} ${response.lanes[lane]}`).join(' · ');
  const degraded = LANES.some((lane) => response.lanes[lane] !== 'ok' && !response.lanes[lane].endsWith('weight is 0'));
  if (response.results.length === 0) lines.push(`No pages match “${response.query}”.`);
  response.results.forEach((result, i) => {
    const rank = `${i + 1}.`.padStart(3);
    lines.push(`${rank} ${c.bold(result.title)} ${c.dim(`[[${result.key}]]`)}  ${c.dim(result.score.toFixed(4))}`);
    lines.push(`    ${c.cyan(result.path)}`);
    if (result.summary) lines.push(`    ${result.summary}`);
    if (result.snippet && result.snippet !== result.summary) lines.push(`    ${c.dim(`“${result.snippet}”`)}`);
    const graph = [
      result.links.length ? `links: ${result.links.join(', ')}` : '',
      result.backlinks.length ? `linked from: ${result.backlinks.join(', ')}` : '',
    ].filter(Boolean);
    if (graph.length) lines.push(`    ${c.dim(graph.join(' · '))}`);
    if (explain) {
      const parts = LANES.filter((lane) => result.lanes[lane] !== undefined).map(
        (lane) => `${lane} #${result.lanes[lane]} +${(result.contributions?.[lane] ?? 0).toFixed(4)}`,
      );
      lines.push(`    ${c.magenta(parts.join(' · '))}`);
    }
  });
  if (explain || degraded) {
    lines.push('');
    lines.push(degraded ? c.yellow(`lanes: ${laneLine}`) : c.dim(`lanes: ${laneLine}`));
  }
  return lines.join('\n');
}
