import { factsDbFile, hasFactsStore } from '../facts/extract.js';
import { groundPage, type CandidateFact, type TokenCache } from '../facts/grounding.js';
import { FactStore } from '../facts/store.js';
import { finding, type Finding } from '../wiki/validate/finding.js';
import { sourcesOf, type Page } from '../wiki/page.js';
import { sourceFilePath } from '../wiki/validate/page-rules.js';

export interface PageScore {
  path: string;
  /** Share of the page's claim sentences its sources' facts support. */
  score: number;
  sentences: number;
}

export interface GroundingReport {
  findings: Finding[];
  pages: PageScore[];
  /** The closest fact of each flagged sentence, keyed `path:line`, for a model asked to repair it. */
  closest: Record<string, CandidateFact>;
}

/**
 * Check every page that cites raw/ sources against those sources' facts. Reads
 * `.wiki/facts.db` only when it exists (ingest and `wiki facts` keep it in step); without
 * it there is nothing to check against and the report is empty.
 */
export async function groundPages(root: string, pages: readonly Page[]): Promise<GroundingReport | undefined> {
  if (!hasFactsStore(root)) return undefined;
  const store = await FactStore.open(factsDbFile(root), { readonly: true });
  const report: GroundingReport = { findings: [], pages: [], closest: {} };
  const tokens: TokenCache = new Map();
  try {
    for (const page of pages) {
      const sources = sourcesOf(page.frontmatter)
        .map(sourceFilePath)
        .filter((s): s is string => s !== undefined && s.startsWith('raw/'));
      if (sources.length === 0) continue;
      const grounding = groundPage(page.body, store.factTextsOfSources(sources), tokens);
      report.pages.push({ path: page.path, score: round(grounding.score), sentences: grounding.sentences.length });
      for (const sentence of grounding.sentences) {
        if (!sentence.problem) continue;
        const line = page.bodyLine + sentence.line - 1;
        const closest = sentence.closest ? ` (closest fact ${sentence.closest.id}: "${sentence.closest.text}")` : '';
        const message =
          sentence.problem.kind === 'unsupported-number'
            ? `"${sentence.text}": ${sentence.problem.numbers.join(', ')} appear${sentence.problem.numbers.length === 1 ? 's' : ''} in none of its sources' closest facts${closest}`
            : `"${sentence.text}": ${sentence.problem.reason}${closest}`;
        report.findings.push(finding(sentence.problem.kind, page.path, message, { line, fix: 'make the sentence say what its source says, or cite the source that says it' }));
        if (sentence.closest) report.closest[`${page.path}:${line}`] = sentence.closest;
      }
    }
  } finally {
    store.close();
  }
  return report;
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
