import { factsDbFile } from '../../facts/extract.js';
import { GroundingCache, groundPage, type TermAnalyses, type CandidateFact, type LinkedFacts, type PageGrounding, type SentenceGrounding, type SourceLinesReader } from '../../facts/grounding.js';
import { pageLanguage, type GroundingLanguage } from '../../facts/grounding-language.js';
import { scopeOf } from '../../wiki/access.js';
import { linkedPages } from './grounding-linked.js';
import { flaggedFix, flaggedMessage } from './grounding-message.js';
import { citedWindowLines, placeRanges, readSourceText, windowLines } from './cited-windows.js';
import { checkerVersion, factsHash, GroundingResultCache, hashOf, pageKey, type FlaggedSentence, type PageResult } from './grounding-cache.js';
import type { ClaimCitation } from '../../facts/claims.js';
import { citeLines, FactStore } from '../../facts/store.js';
import { ConfinedIo } from '../../confine/confined-io.js';
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
  /** Claim sentences flagged: a warning (an `ungrounded`, `miscited` or `unsupported-number` finding the check is sure of); those it asks about are findings with severity `question`. */
  flagged: number;
}

export interface GroundingReport {
  findings: Finding[];
  pages: PageScore[];
  /** With `evidence`: the closest facts of each flagged sentence (best first), keyed `path:line`, for a model asked to repair it. */
  closest: Record<string, CandidateFact[]>;
  /** Pages whose result came from the last lint's (unchanged page, facts, cited files and checker). */
  reusedPages: number;
}

/**
 * Check every page that cites raw/ sources against those sources' facts. Reads
 * `.wiki/facts.db` only when it exists (ingest and `wiki facts` keep it in step); without
 * it there is nothing to check against and the report is empty. A page whose text,
 * sources' facts and cited files are those of the last lint is not analysed again: its
 * result comes from `.wiki/cache/grounding.json` (`grounding-cache.ts`), saved unless
 * `saveCache` is false (a dry run).
 */
export async function groundPages(
  root: string,
  pages: readonly Page[],
  options: { evidence?: boolean; saveCache?: boolean; checker?: string; linkedFrom?: readonly Page[]; terms?: TermAnalyses } = {},
): Promise<GroundingReport | undefined> {
  const store = await FactStore.openExisting(factsDbFile(root));
  if (!store) return undefined;
  const report: GroundingReport = { findings: [], pages: [], closest: {}, reusedPages: 0 };
  // One cache per page language: a text is read in the language of the page citing it (facts/grounding-language.ts).
  // `terms`: the texts' analyses in English, kept by a caller that checks page after page (the grounding measurement).
  const caches = new Map<string, GroundingCache>();
  const cacheFor = (language: GroundingLanguage | undefined): GroundingCache => {
    const tag = language?.tag ?? '';
    let cache = caches.get(tag);
    if (!cache) caches.set(tag, (cache = language === undefined ? new GroundingCache(undefined, options.terms) : new GroundingCache(language)));
    return cache;
  };
  // Many pages cite the same sources: one query per set of sources, not one per page.
  const bySources = new Map<string, { facts: CandidateFact[]; hash?: string; byId?: Map<string, CandidateFact> }>();
  const setOf = (sources: readonly string[]): { facts: CandidateFact[]; hash?: string; byId?: Map<string, CandidateFact> } => {
    const key = sources.join('\n');
    let set = bySources.get(key);
    if (!set) bySources.set(key, (set = { facts: store.factPlacesOfSources([...sources]) }));
    return set;
  };
  const sourceLines = await readCitedSources(root, pages);
  const readLines: SourceLinesReader = (file) => sourceLines.get(file);
  const fileHashes = new Map<string, string>();
  const fileHash = (file: string): string => {
    let hash = fileHashes.get(file);
    if (hash === undefined) {
      const lines = sourceLines.get(file);
      fileHashes.set(file, (hash = lines === undefined ? 'unreadable' : hashOf(lines)));
    }
    return hash;
  };
  // The wiki the checked pages link into: all of it, when only some pages are checked.
  const linked = linkedPages(options.linkedFrom ?? pages);
  const checker = options.checker ?? (await checkerVersion());
  const results = await GroundingResultCache.open(root, pages.length, checker);
  try {
    for (const page of pages) {
      // The sources it lists and the files its citations name: a citation is checked against its own file.
      const citations = citationsOf(page);
      const sources = [...new Set([...sourcesOf(page.frontmatter), ...citations.map((citation) => citation.file)].map(sourceFilePath).filter((s): s is string => s !== undefined && s.startsWith('raw/')))].sort();
      if (sources.length === 0) continue;
      const set = setOf(sources);
      const title = typeof page.frontmatter.title === 'string' ? page.frontmatter.title : '';
      const language = pageLanguage(page.frontmatter.lang, page.body);
      // The raw files its check may read: those it cites by line, and its sources' heads (a claim dated by its source's own date).
      const cited = [...new Set([...citations.filter((c) => c.first !== undefined).map((c) => sourceFilePath(c.file)).filter((f): f is string => f !== undefined), ...sources.filter((file) => sourceLines.has(file))])].sort();
      const key =
        checker === undefined
          ? undefined
          : pageKey({ checker, title, body: page.body, facts: (set.hash ??= factsHash(set.facts)), citedFiles: cited.map((file) => `${file}:${fileHash(file)}`), ...(language ? { lang: language.tag } : {}) });
      const evidenceOf = (flag: FlaggedSentence): CandidateFact[] | undefined => evidenceFacts(flag.evidence, (set.byId ??= new Map(set.facts.map((fact) => [fact.id, fact]))), readLines);
      let result = key === undefined ? undefined : results.get(page.path, key);
      const reused = result !== undefined && result.flagged.every((flag) => evidenceOf(flag) !== undefined) && (result.linked === undefined || linked.hashOf(result.linked.keys, scopeOf(page.path)) === result.linked.hash);
      // A result is kept only when every file the check read is one its key covers.
      let keyed = true;
      const readKeyed: SourceLinesReader = (file) => {
        // A file not read (cited by no page) gave the check nothing: it does not spoil the key.
        if (!cited.includes(file) && sourceLines.has(file)) keyed = false;
        return readLines(file);
      };
      if (!reused) {
        // The linked pages the check reads are recorded with the result: an edit of one of them invalidates it.
        const consulted = new Set<string>();
        const linkedFacts: LinkedFacts = (keys) => {
          for (const key of keys) consulted.add(key);
          return linked.facts(keys, scopeOf(page.path));
        };
        result = pageResult(groundPage(page.body, set.facts, cacheFor(language), title, readKeyed, linkedFacts));
        const keys = [...consulted].sort();
        if (keys.length > 0) result.linked = { keys, hash: linked.hashOf(keys, scopeOf(page.path)) };
      }
      if (!result) continue;
      if (key !== undefined && keyed) results.keep(page.path, key, result, reused);
      const sure = result.flagged.filter((flag) => flag.sure).length;
      report.pages.push({ path: page.path, score: round(result.score), sentences: result.sentences, flagged: sure });
      for (const flag of result.flagged) {
        const line = page.bodyLine + flag.line - 1;
        const evidence = evidenceOf(flag) ?? [];
        // What the check is sure of is a warning; the rest a question a reader or a model answers (issue 36).
        report.findings.push(finding(flag.kind, page.path, flaggedMessage(flag, evidence, readLines), { line, fix: flaggedFix(flag), severity: flag.sure ? 'warning' : 'question' }));
        // Only for a repair: on a large wiki this is one key per finding.
        if (options.evidence && evidence.length > 0) report.closest[`${page.path}:${line}`] = evidence;
      }
    }
  } finally {
    store.close();
  }
  report.reusedPages = results.reusedPages;
  if (options.saveCache !== false) await results.save();
  return report;
}

/** What lint keeps of a page's grounding: its score and its flagged sentences, each with at most REPAIR_FACTS pieces of evidence. */
function pageResult(grounding: PageGrounding): PageResult {
  const flagged: FlaggedSentence[] = [];
  for (const sentence of grounding.sentences) {
    const problem = sentence.problem;
    if (!problem) continue;
    // A cited sentence's evidence is what its cited lines themselves state (quoted when the file cannot be read); an uncited one's, its closest facts.
    const pieces = (sentence.againstCitedLines ? inCitedRange(sentence.candidates, sentence.citations) : sentence.candidates).map((fact) => fact.id);
    // The cited line that matched the sentence's words best comes first: the finding quotes from it
    // (a number's finding quotes the range from its start, where the figures the sentence differs from may be).
    const best = sentence.againstCitedLines && problem.kind !== 'unsupported-number' ? bestCitedLine(sentence) : undefined;
    const evidence = (best === undefined ? pieces : [best, ...pieces.filter((id) => id !== best)]).slice(0, REPAIR_FACTS);
    const base = { line: sentence.line, text: sentence.text, kind: problem.kind, sure: problem.sure, cited: sentence.againstCitedLines, citations: sentence.citations, evidence };
    flagged.push(problem.kind === 'unsupported-number' ? { ...base, numbers: problem.numbers } : { ...base, reason: problem.reason });
  }
  return { score: grounding.score, sentences: grounding.sentences.length, flagged };
}

/** The id (`raw/x.md#L17`) of the cited line its best-matching evidence starts on, when that is inside a cited range. */
function bestCitedLine(sentence: SentenceGrounding): string | undefined {
  const [, file = '', line = ''] = /^(.+)#L(\d+)$/.exec(sentence.closest?.id ?? '') ?? [];
  const at = Number(line);
  const inside = sentence.citations.some((c) => c.first !== undefined && sourceFilePath(c.file) === file && at >= c.first && at <= (c.last ?? c.first));
  return inside ? `${file}#L${at}` : undefined;
}

/** The facts or cited lines `ids` name; undefined when one of them is not there (a cache entry that does not fit is recomputed). */
function evidenceFacts(ids: readonly string[], facts: ReadonlyMap<string, CandidateFact>, read: SourceLinesReader): CandidateFact[] | undefined {
  const found: CandidateFact[] = [];
  for (const id of ids) {
    const fact = facts.get(id);
    if (fact) {
      found.push(fact);
      continue;
    }
    const [, file = '', line = ''] = /^(.+)#L(\d+)$/.exec(id) ?? [];
    const text = read(file)?.[Number(line) - 1]?.trim();
    if (!text) return undefined;
    found.push({ id, text, source: file, lineStart: Number(line), lineEnd: Number(line) });
  }
  return found;
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
    // Unreadable, refused or gone: the citation rules report what matters.
    const text = await readSourceText(io, root, file);
    if (text !== undefined) lines.set(file, text.split(/\r?\n/));
  }
  return lines;
}

/** The facts stated on the cited lines themselves (not in the slack around them), or all of them when none is. */
function inCitedRange(facts: readonly CandidateFact[], citations: readonly ClaimCitation[]): readonly CandidateFact[] {
  const within = facts.filter((fact) =>
    citations.some((c) => c.first !== undefined && fact.source === c.file.replace(/^\.\//, '') && (fact.lineEnd ?? fact.lineStart ?? 0) >= c.first && (fact.lineStart ?? 0) <= (c.last ?? c.first)),
  );
  return within.length > 0 ? within : facts;
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
  // The closest facts' places too: a played review guessed offsets to read them.
  const factWindows = await windowLines(
    root,
    uncited.flatMap((f) => (evidence[`${f.path}:${f.line}`] ?? []).map((fact) => ({ label: `${f.path}:${f.line} "${fact.text.slice(0, 40)}…"`, ranges: placeRanges(places.get(fact.id) ?? []).slice(0, 1) }))),
  );
  const windows = [...(await citedWindowLines(root, flagged)), ...factWindows];
  if (windows.length > 0) lines.push('', 'Where each flagged sentence\'s cited lines, or its closest facts, are (with the slack the check allowed), to read just them:', ...windows);
  return lines.join('\n');
}
