import type { Page } from '../page.js';
import { sourcesOf } from '../page.js';
import { citationsOf } from './citation-rules.js';
import { finding, type Finding } from './finding.js';
import { sourceFilePath } from './page-rules.js';

/** What lint knows of a raw source's last ingest (from the manifest), or undefined when none / deleted. */
export type SourceIngest = (rawPath: string) => { ingestedAt: string } | undefined;

export interface StalePage {
  path: string;
  /** The `stale_since` date. */
  since: string;
  /** The page's sources that changed (re-ingested on or after that date) or are gone; all its sources when none is known. */
  sources: string[];
}

/** Pages carrying `stale_since` (a source of theirs changed and the ingest did not rewrite them), with the sources that changed. */
export function stalePages(pages: readonly Page[], ingest: SourceIngest, exists: (rawPath: string) => boolean): StalePage[] {
  const stale: StalePage[] = [];
  for (const page of pages) {
    const mark = page.frontmatter.stale_since;
    if (mark === undefined || mark === null || mark === '') continue;
    const since = mark instanceof Date ? mark.toISOString().slice(0, 10) : String(mark);
    const sources = [...new Set([...sourcesOf(page.frontmatter), ...citationsOf(page).map((c) => c.file)].map(sourceFilePath).filter((s): s is string => s !== undefined && s.startsWith('raw/')))].sort();
    const changed = sources.filter((source) => !exists(source) || (ingest(source)?.ingestedAt.slice(0, 10) ?? '') >= since.slice(0, 10));
    stale.push({ path: page.path, since, sources: changed.length > 0 ? changed : sources });
  }
  return stale;
}

/** One `stale-page` warning per stale page, naming what changed and since when. */
export function staleFindings(stale: readonly StalePage[], exists: (rawPath: string) => boolean): Finding[] {
  return stale.map((page) => {
    const what = page.sources.length === 0 ? 'a source of it changed' : page.sources.map((s) => `${s} ${exists(s) ? 'changed' : 'was deleted'}`).join(', ');
    return finding('stale-page', page.path, `stale since ${page.since}: ${what}, and the page was not rewritten from it`, {
      fix: '`wiki lint --fix` (with a model) updates it from the changed lines and clears the mark; or check it by hand and remove `stale_since`',
    });
  });
}

/** A sentence whose cited lines changed in its source (state/stale-claims.ts), as lint lists it. */
export interface StaleClaimView {
  page: string;
  line: number;
  sentence: string;
  source: string;
  first: number;
  last: number;
  was: string;
  now: string;
}

const EXCERPT = 240;
const excerpt = (text: string): string => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > EXCERPT ? `${flat.slice(0, EXCERPT)}…` : flat;
};

/** One `stale-claim` warning per sentence citing changed lines: the page, its line, the old and the new cited text. */
export function staleClaimFindings(claims: readonly StaleClaimView[]): Finding[] {
  return claims.map((claim) =>
    finding(
      'stale-claim',
      claim.page,
      `"${excerpt(claim.sentence)}" cites ${claim.source}#L${claim.first}-${claim.last}, which changed: was "${excerpt(claim.was)}", now ${claim.now.trim() ? `"${excerpt(claim.now)}"` : 'removed'}`,
      { line: claim.line, fix: `rewrite it from the new lines (or re-cite it to them if they still say it), or remove it; \`wiki ingest ${claim.source} --force\` hands it to the model` },
    ),
  );
}

/** A source changed since its last ingest (operations/sources/source-changes.ts), as lint reports it. */
export interface ChangedSourceView {
  source: string;
  /** Its citations still number an earlier version's lines; false once `wiki lint --fix` moved them to the current one. */
  behind: boolean;
  citations: number;
  pages: number;
  /** Findings about those citations that compared them with the current text, held back. */
  heldBack: number;
}

/** One `changed-source` warning per changed source: what its citations number, and the fix that never renumbers by hand. */
export function changedSourceFindings(changes: readonly ChangedSourceView[]): Finding[] {
  return changes.map((change) => {
    if (!change.behind) {
      return finding('changed-source', change.source, `${change.source} changed since its last ingest; its citations follow the new lines (moved by \`wiki lint --fix\`), and what the new lines say waits for a model`, {
        fix: `\`wiki ingest ${change.source}\` hands the model the new lines and the stale sentences`,
      });
    }
    if (change.citations === 0) {
      return finding('changed-source', change.source, `${change.source} changed since its last ingest; no page cites its lines by number`, {
        fix: `\`wiki ingest ${change.source}\` (with a model), or \`wiki lint --fix\` (marks the pages drawing on it stale, without a model)`,
      });
    }
    const held = change.heldBack > 0 ? `; ${change.heldBack} finding(s) that check them against the new text are held back until they follow it` : '';
    return finding('changed-source', change.source, `${change.source} changed since its last ingest: ${change.citations} citation(s) on ${change.pages} page(s) still number the lines it had${held}`, {
      fix: `\`wiki ingest ${change.source}\` (with a model), or \`wiki lint --fix\` (moves the citations without a model); never renumber them by hand — the next ingest would move them again`,
    });
  });
}
