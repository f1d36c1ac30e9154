import { WikiError } from '../../errors.js';
import { claimsOf } from '../../facts/claims.js';
import { loadManifest } from '../../state/manifest.js';
import type { Page } from '../../wiki/page.js';
import { citationsOf } from '../../wiki/validate/citation-rules.js';
import type { Finding } from '../../wiki/validate/finding.js';
import { sourceFilePath } from '../../wiki/validate/page-rules.js';
import { GROUNDING_RULES } from '../../wiki/validate/rules/index.js';
import { changedSourceFindings, type ChangedSourceView } from '../../wiki/validate/stale-rules.js';
import { earlierSourceText } from '../sources/earlier-text.js';
import { citationsBehind, sourceChanges } from '../sources/source-changes.js';

/**
 * A source that changed since its last ingest, told truthfully: one `changed-source` finding
 * for it, and — while its citations still number the lines it had — the findings that judge
 * those citations against the new text (a range past its end, a sentence its "cited lines"
 * no longer support) are held back and counted in that finding: the page is not wrong, the
 * numbering is old, and a person renumbering by hand would have the next ingest move it
 * again. Only a source whose earlier text is known (so the citations can be moved) is told
 * so; another is checked as before.
 */
export async function withChangedSources(
  root: string,
  pages: readonly Page[],
  findings: readonly Finding[],
  followedNow: ReadonlyMap<string, string> = new Map(),
): Promise<{ findings: Finding[]; followable: number }> {
  let manifest;
  try {
    manifest = await loadManifest(root, { migrate: false });
  } catch (error) {
    // A record the reader refuses is the `source-record` finding.
    if (error instanceof WikiError) return { findings: [...findings], followable: 0 };
    throw error;
  }
  const views: ChangedSourceView[] = [];
  let kept = [...findings];
  for (const found of await sourceChanges(root, manifest)) {
    // A dry run's follow: the citations would number the current version.
    const change = followedNow.has(found.source) ? { ...found, numbered: found.current } : found;
    if (!citationsBehind(change)) {
      views.push({ source: change.source, behind: false, citations: 0, pages: 0, heldBack: 0 });
      continue;
    }
    if ((await earlierSourceText(root, change.source, change.numbered)) === undefined) continue;
    const citing = citingPages(pages, change.source);
    const before = kept.length;
    kept = kept.filter((f) => !judgesCitationOf(f, change.source, citing.sentences));
    views.push({ source: change.source, behind: true, citations: citing.citations, pages: citing.pages, heldBack: before - kept.length });
  }
  // Each source whose citations `wiki lint --fix` would move is one repair it can make.
  return { findings: [...kept, ...changedSourceFindings(views)], followable: views.filter((view) => view.behind).length };
}

/** How many line citations of `source` the pages hold, on how many pages, and the `path:line` of each sentence citing it. */
function citingPages(pages: readonly Page[], source: string): { citations: number; pages: number; sentences: Set<string> } {
  const result = { citations: 0, pages: 0, sentences: new Set<string>() };
  for (const page of pages) {
    const count = citationsOf(page).filter((c) => c.first !== undefined && sourceFilePath(c.file) === source).length;
    if (count === 0) continue;
    result.citations += count;
    result.pages++;
    for (const claim of claimsOf(page.body)) {
      if (claim.citations.some((c) => c.first !== undefined && sourceFilePath(c.file) === source)) result.sentences.add(`${page.path}:${page.bodyLine + claim.line - 1}`);
    }
  }
  return result;
}

/** A finding that compares a citation of `source` (or its coverage) with the source's current text. */
function judgesCitationOf(f: Finding, source: string, sentences: ReadonlySet<string>): boolean {
  if (f.rule === 'bad-citation') {
    const cited = /^<!-- from: (\S+?)#L\d/.exec(f.message)?.[1];
    return cited !== undefined && sourceFilePath(cited) === source;
  }
  if (GROUNDING_RULES.has(f.rule)) return sentences.has(`${f.path}:${f.line ?? 0}`);
  return f.rule === 'low-coverage' && f.path === source;
}
