import path from 'node:path';
import { factsDbFile } from '../../facts/extract.js';
import { GroundingCache, groundPage, type CandidateFact, type SentenceGrounding, type SourceLinesReader } from '../../facts/grounding.js';
import type { ClaimCitation } from '../../facts/claims.js';
import { citeLines, FactStore } from '../../facts/store.js';
import { extractText } from '../../sources/extract.js';
import { ConfinedIo } from '../../tools/confined-io.js';
import { LINE_MARK } from '../../tools/text-window.js';
import { citationsOf } from '../../wiki/validate/citation-rules.js';
import { finding, type Finding } from '../../wiki/validate/finding.js';
import { sourcesOf, type Page } from '../../wiki/page.js';
import { sourceFilePath } from '../../wiki/validate/page-rules.js';

/** How many of a flagged sentence's closest facts a repair is handed. */
const REPAIR_FACTS = 3;

export interface PageScore {
  path: string;
  /** Share of the page's claim sentences its sources' facts support. */
  score: number;
  sentences: number;
  /** Claim sentences flagged (each a `ungrounded`, `miscited` or `unsupported-number` finding of lint). */
  flagged: number;
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
    if (!facts) bySources.set(key, (facts = store.factPlacesOfSources([...new Set(sources)].sort())));
    return facts;
  };
  const sourceLines = await readCitedSources(root, pages);
  try {
    for (const page of pages) {
      // The sources it lists and the files its citations name: a citation is checked against its own file.
      const sources = [...sourcesOf(page.frontmatter), ...citationsOf(page).map((citation) => citation.file)]
        .map(sourceFilePath)
        .filter((s): s is string => s !== undefined && s.startsWith('raw/'));
      if (sources.length === 0) continue;
      const readLines: SourceLinesReader = (file) => sourceLines.get(file);
      const grounding = groundPage(page.body, factsOf(sources), cache, typeof page.frontmatter.title === 'string' ? page.frontmatter.title : '', readLines);
      report.pages.push({ path: page.path, score: round(grounding.score), sentences: grounding.sentences.length, flagged: grounding.sentences.filter((s) => s.problem).length });
      for (const sentence of grounding.sentences) {
        if (!sentence.problem) continue;
        const line = page.bodyLine + sentence.line - 1;
        report.findings.push(finding(sentence.problem.kind, page.path, problemMessage(sentence, readLines), { line, fix: problemFix(sentence) }));
        // Only for a repair: on a large wiki this is one key per finding.
        if (options.evidence && sentence.candidates.length > 0) report.closest[`${page.path}:${line}`] = sentence.candidates.slice(0, REPAIR_FACTS);
      }
    }
  } finally {
    store.close();
  }
  return report;
}

/**
 * The text lines of every raw file a page cites by line range, numbered as read_file numbers
 * them. Read as fact extraction reads sources: never through a link, never a hard link
 * (their lines are quoted in findings and handed to the model); such a file is left out and
 * its citations are checked against its facts.
 */
async function readCitedSources(root: string, pages: readonly Page[]): Promise<Map<string, readonly string[]>> {
  const files = new Set<string>();
  for (const page of pages) for (const citation of citationsOf(page)) {
    const file = sourceFilePath(citation.file);
    if (file?.startsWith('raw/') && citation.first !== undefined) files.add(file);
  }
  const io = new ConfinedIo(root);
  const lines = new Map<string, readonly string[]>();
  for (const file of files) {
    try {
      const text = (await extractText(file, await io.readBytes(path.join(root, file)))).text;
      lines.set(file, text.split(/\r?\n/));
    } catch {
      // unreadable, refused or gone: the citation rules report what matters
    }
  }
  return lines;
}

/** Longest quote of evidence a message carries. */
const QUOTE_CHARS = 320;

function problemMessage(sentence: SentenceGrounding, read: SourceLinesReader): string {
  const problem = sentence.problem;
  if (!problem) return '';
  const cited = sentence.againstCitedLines;
  const where = sentence.citations.map((c) => `${c.file}${c.first !== undefined ? `#L${c.first}${c.last !== c.first ? `-${c.last}` : ''}` : ''}`).join(', ');
  const evidence = cited
    ? ` (${where} say: "${citedExcerpt(sentence.citations, read) ?? quote(inCitedRange(sentence.candidates, sentence.citations).map((fact) => fact.text).join(' '))}")`
    : sentence.closest
      ? ` (closest fact ${sentence.closest.id}: "${quote(sentence.closest.text)}")`
      : '';
  if (problem.kind === 'unsupported-number') {
    const plural = problem.numbers.length === 1 ? 's' : '';
    return `"${sentence.text}": ${problem.numbers.join(', ')} appear${plural} ${cited ? 'nowhere in its cited lines' : "in none of its sources' closest facts"}${evidence}`;
  }
  return `"${sentence.text}": ${problem.reason}${evidence}`;
}

/**
 * The lines a sentence cites, as written and numbered like read_file's windows
 * (`17│The old RFC …`), bounded to QUOTE_CHARS: the slack either side that matching allows
 * is not quoted, so the quote starts at the first cited line. undefined when none can be read.
 */
export function citedExcerpt(citations: readonly ClaimCitation[], read: SourceLinesReader): string | undefined {
  const parts: string[] = [];
  let length = 0;
  for (const citation of citations) {
    if (citation.first === undefined) continue;
    const lines = read(citation.file.replace(/^\.\//, ''));
    if (!lines) continue;
    const last = Math.min(lines.length, citation.last ?? citation.first);
    for (let line = citation.first; line <= last && length <= QUOTE_CHARS; line++) {
      const text = (lines[line - 1] ?? '').replace(/\s+/g, ' ').trim();
      if (text === '') continue;
      parts.push(`${line}${LINE_MARK}${text}`);
      length += text.length + 8;
    }
  }
  return parts.length === 0 ? undefined : quote(parts.join(' '));
}

/** The facts stated on the cited lines themselves (not in the slack around them), or all of them when none is. */
function inCitedRange(facts: readonly CandidateFact[], citations: readonly ClaimCitation[]): readonly CandidateFact[] {
  const within = facts.filter((fact) =>
    citations.some((c) => c.first !== undefined && fact.source === c.file.replace(/^\.\//, '') && (fact.lineEnd ?? fact.lineStart ?? 0) >= c.first && (fact.lineStart ?? 0) <= (c.last ?? c.first)),
  );
  return within.length > 0 ? within : facts;
}

function problemFix(sentence: SentenceGrounding): string {
  return sentence.againstCitedLines
    ? 'make the sentence say what its cited lines say, or cite the lines that say it'
    : 'make the sentence say what its source says, or cite the source that says it';
}

function quote(text: string): string {
  return text.length <= QUOTE_CHARS ? text : `${text.slice(0, QUOTE_CHARS - 1)}…`;
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
  const flagged = findings.filter((f) => f.rule === 'ungrounded' || f.rule === 'unsupported-number' || f.rule === 'miscited');
  if (flagged.length === 0) return '';
  // A miscited sentence's finding quotes its cited lines already; an uncited one gets its closest facts.
  const uncited = flagged.filter((f) => f.rule !== 'miscited' && !f.message.includes('its cited lines') && evidence[`${f.path}:${f.line}`]);
  const ids = [...new Set(uncited.flatMap((f) => (evidence[`${f.path}:${f.line}`] ?? []).map((fact) => fact.id)))];
  const places = await factPlaces(root, ids);
  const lines = [
    'Sentences the checks could not match with their evidence. Read the cited lines (read_file) for each: if the sentence says something they do not, correct it and keep its <!-- from: … --> citation accurate; ' +
      'if it is right (a paraphrase the check missed), leave it and give a KEEP line for it. The closest facts of an uncited sentence:',
  ];
  for (const f of uncited) {
    lines.push(`- ${f.path}:${f.line}`);
    for (const fact of evidence[`${f.path}:${f.line}`] ?? []) {
      lines.push(`  - "${fact.text}" (${(places.get(fact.id) ?? []).join(', ') || 'no live provenance'})`);
    }
  }
  if (uncited.length === 0) lines.push('(none: every flagged sentence cites its lines)');
  return lines.join('\n');
}
