import type { SearchAnswer } from '../operations/inspect/search.js';
import type { SearchIndexState } from '../search/live/state.js';
import { hardLinkedPagesNotice } from '../search/live/read-page.js';
import { LANES } from '../search/types.js';
import type { Colors } from './output.js';
import { phraseNotFoundLine } from '../tools/search-hits.js';

/** Human rendering of `wiki search`: ranked pages, with lane detail under --explain. */
export function renderSearch(response: SearchAnswer, c: Colors, explain: boolean): string {
  const lines: string[] = response.warnings.map((warning) => c.yellow(`warning: ${warning.message}`));
  if (response.hardLinked.length > 0) lines.push(c.yellow(`warning: ${hardLinkedPagesNotice(response.hardLinked)}`));
  const laneLine = LANES.map((lane) => `${lane} ${response.lanes[lane]}`).join(' · ');
  const degraded = LANES.some((lane) => response.lanes[lane] !== 'ok' && !response.lanes[lane].endsWith('weight is 0'));
  if (response.phrasesNotFound && response.found) lines.push(c.yellow(phraseNotFoundLine(response.phrasesNotFound)));
  if (!response.found) lines.push(`No pages match “${response.query}” (found: false).`);
  else if (!response.strong) lines.push(c.yellow(`No page is strongly about “${response.query}”; the closest pages, all weak:`));
  response.results.forEach((result, i) => {
    const rank = `${i + 1}.`.padStart(3);
    const strength = result.strength === undefined ? '' : `  ${result.strength === 'strong' ? c.green('strong') : c.dim('weak')}`;
    lines.push(`${rank} ${c.bold(result.title)} ${c.dim(`[[${result.key}]]`)}  ${c.dim(result.score.toFixed(4))}${strength}`);
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
  if (explain) lines.push(c.dim(`weights: ${weightsLine(response.weights, response.semanticWeightFactor)}`));
  return lines.join('\n');
}

const STRENGTH_REASON = "from how well the lane finds this wiki's pages and, under 50 pages, the wiki's size";

/** The weights fusion used, saying so when the semantic one is not as configured. */
function weightsLine(weights: SearchAnswer['weights'], semanticFactor: number): string {
  const line = LANES.map((lane) => `${lane} ${round(weights[lane])}`).join(' · ');
  if (semanticFactor === 1) return line;
  return `${line} (semantic: the configured weight × ${round(semanticFactor)}, ${STRENGTH_REASON})`;
}

function round(value: number): string {
  return String(Number(value.toFixed(3)));
}

/** `wiki search --files`: the result paths, one per line. */
export function renderSearchFiles(response: SearchAnswer): string {
  return response.results.map((result) => result.path).join('\n');
}

/** `wiki search --full`: each result page whole, under a line naming it. */
export function renderSearchFull(response: SearchAnswer, c: Colors): string {
  const warnings = response.warnings.map((warning) => c.yellow(`warning: ${warning.message}`));
  if (!response.found) return [...warnings, `No pages match “${response.query}” (found: false).`].join('\n');
  if (response.phrasesNotFound) warnings.push(c.yellow(phraseNotFoundLine(response.phrasesNotFound)));
  const pages = response.results.map(
    (result, i) => `${c.bold(`${i + 1}. ${result.path}`)}  ${c.dim(result.score.toFixed(4))}\n${(result.content ?? '').trimEnd()}`,
  );
  return [...warnings, ...pages].join('\n\n');
}

/** The `Search:` line of `wiki status`. */
export function renderSearchState(state: SearchIndexState, c: Colors): string {
  const lanes = LANES.map((lane) => `${lane} ${state.lanes[lane]}`).join(' · ');
  const embedder = state.embedder ? `; embedder ${state.embedder}` : '';
  if (!state.built) {
    const why = state.problem ? c.yellow(`index ${state.problem}`) : 'no index yet (built by the first search)';
    return `${why}; lanes ${lanes}${embedder}`;
  }
  const when = state.updatedAt ? `, updated ${state.updatedAt.replace('T', ' ').slice(0, 16)}` : '';
  const factor = state.semanticWeightFactor === undefined ? '' : `; semantic weight × ${round(state.semanticWeightFactor)} (${STRENGTH_REASON})`;
  return `${state.pages ?? '?'} pages indexed in ${state.file}${when}; lanes ${lanes}${embedder}${factor}`;
}
