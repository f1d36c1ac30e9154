import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { staleClaimsOf } from '../../src/operations/sources/stale-claims-of.js';
import { mapLines } from '../../src/sources/line-map.js';
import { moveCitations } from '../../src/sources/citation-moves.js';

export interface SourceChangeFigures {
  pagesDrawingOnIt: number;
  citations: number;
  citationsMoved: number;
  staleSentences: number;
  stalePages: number;
  /** Pages with no line citation of the source: stale as a whole. */
  uncitedPages: number;
}

/** What a change of one source does to the pages drawing on it: the same steps an ingest of the new version takes before the model runs. */
export function measureSourceChange(folder: string, source: string): SourceChangeFigures {
  const earlier = readFileSync(path.join(folder, 'v1.md'), 'utf8');
  const current = readFileSync(path.join(folder, 'v2.md'), 'utf8');
  const map = mapLines(earlier, current);
  const figures: SourceChangeFigures = { pagesDrawingOnIt: 0, citations: 0, citationsMoved: 0, staleSentences: 0, stalePages: 0, uncitedPages: 0 };
  for (const name of readdirSync(path.join(folder, 'pages')).filter((file) => file.endsWith('.md')).sort()) {
    const text = readFileSync(path.join(folder, 'pages', name), 'utf8');
    figures.pagesDrawingOnIt++;
    const moves = moveCitations(text, source, map);
    const cited = moves.moved + moves.unmoved + moves.changed.length;
    figures.citations += cited;
    figures.citationsMoved += moves.moved;
    if (cited === 0) {
      figures.uncitedPages++;
      continue;
    }
    const stale = staleClaimsOf(`wiki/concepts/${name}`, text, source, earlier, current, map, '2026-12-01');
    figures.staleSentences += stale.length;
    if (stale.length > 0) figures.stalePages++;
  }
  return figures;
}

export function formatSourceChange(label: string, figures: SourceChangeFigures): string {
  return [
    `Source change (${label}):`,
    `  citations moved: ${figures.citationsMoved} of ${figures.citations} · sentences stale: ${figures.staleSentences}`,
    `  pages stale: ${figures.stalePages + figures.uncitedPages} of ${figures.pagesDrawingOnIt} (${figures.stalePages} holding stale sentences, ${figures.uncitedPages} without line citations of it) — before: all ${figures.pagesDrawingOnIt}`,
  ].join('\n');
}
