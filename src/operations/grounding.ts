import { factsDbFile } from '../facts/extract.js';
import { GroundingCache, groundPage, type CandidateFact } from '../facts/grounding.js';
import { citeLines, FactStore } from '../facts/store.js';
import { finding, type Finding } from '../wiki/validate/finding.js';
import { sourcesOf, type Page } from '../wiki/page.js';
import { sourceFilePath } from '../wiki/validate/page-rules.js';

/** How many of a flagged sentence's closest facts a repair is handed. */
const REPAIR_FACTS = 3;

export interface PageScore {
  path: string;
  /** Share of the page's claim sentences its sources' facts support. */
  score: number;
  sentences: number;
}

export interface GroundingReport {
  findings: Finding[];
  pages: PageScore[];
  /** With `evidence`: the closest facts of each flagged sentence (best first), keyed `path:line`, for a model asked to repair it. */
  closest: Record<string, CandidateFact[]>;
}

/**
 * Check every page that cites raw/ sources against those sources' facts. Reads
 * `.wiki/facts.db` only when it exists (ingest and `wiki facts` keep it in step); without
 * it there is nothing to check against and the report is empty.
 */
export async function groundPages(root: string, pages: readonly Page[], options: { evidence?: boolean } = {}): Promise<GroundingReport | undefined> {
  const store = await FactStore.openExisting(factsDbFile(root));
  if (!store) return undefined;
  const report: GroundingReport = { findings: [], pages: [], closest: {} };
  const cache = new GroundingCache();
  // Many pages cite the same sources: one query per set of sources, not one per page.
  const bySources = new Map<string, CandidateFact[]>();
  const factsOf = (sources: string[]): CandidateFact[] => {
    const key = [...new Set(sources)].sort().join('\n');
    let facts = bySources.get(key);
    if (!facts) bySources.set(key, (facts = store.factTextsOfSources(sources)));
    return facts;
  };
  try {
    for (const page of pages) {
      const sources = sourcesOf(page.frontmatter)
        .map(sourceFilePath)
        .filter((s): s is string => s !== undefined && s.startsWith('raw/'));
      if (sources.length === 0) continue;
      const grounding = groundPage(page.body, factsOf(sources), cache);
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
        // Only for a repair: on a large wiki this is one key per finding.
        if (options.evidence && sentence.candidates.length > 0) report.closest[`${page.path}:${line}`] = sentence.candidates.slice(0, REPAIR_FACTS);
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

/** Where each fact is stated (`raw/x.md#L4`, `raw/x.md#L4-5`), for a model asked to repair a sentence. */
export async function factPlaces(root: string, ids: readonly string[]): Promise<Map<string, string[]>> {
  const store = ids.length === 0 ? undefined : await FactStore.openExisting(factsDbFile(root));
  if (!store) return new Map();
  try {
    return new Map(
      ids.map((id) => [
        id,
        (store.get(id)?.provenance ?? []).map((p) => citeLines(p.source, p.lineStart, p.lineEnd)),
      ]),
    );
  } finally {
    store.close();
  }
}

/**
 * The part of a `lint --fix` request that hands the model each grounding finding with its
 * sources' closest facts (id, text, where stated), so it can make the sentence say what a
 * fact says — or drop it — and cite the fact. Empty when there is nothing to repair.
 */
export async function groundingRepairRequest(root: string, findings: readonly Finding[], evidence: Record<string, CandidateFact[]>): Promise<string> {
  const flagged = findings.filter((f) => (f.rule === 'ungrounded' || f.rule === 'unsupported-number') && evidence[`${f.path}:${f.line}`]);
  if (flagged.length === 0) return '';
  const ids = [...new Set(flagged.flatMap((f) => (evidence[`${f.path}:${f.line}`] ?? []).map((fact) => fact.id)))];
  const places = await factPlaces(root, ids);
  const lines = [
    'Sentences their sources do not support, each with the closest facts of those sources (best first). Rewrite each so it says what a fact says, with a <!-- from: … --> comment giving the fact\'s place, or remove it:',
  ];
  for (const f of flagged) {
    lines.push(`- ${f.path}:${f.line} [${f.rule}] ${f.message}`);
    for (const fact of evidence[`${f.path}:${f.line}`] ?? []) {
      lines.push(`  - [^${fact.id}] "${fact.text}" (${(places.get(fact.id) ?? []).join(', ') || 'no live provenance'})`);
    }
  }
  return lines.join('\n');
}
