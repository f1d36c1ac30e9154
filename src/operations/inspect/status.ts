import { stat } from 'node:fs/promises';
import path from 'node:path';
import { chooseProvider, type ProviderChoice } from '../../config/provider-choice.js';
import { localServerNote } from '../../providers/local-server.js';
import type { EffectiveConfig } from '../../config/load.js';
import { readSearchIndexState, type SearchIndexState } from '../../search/live/state.js';
import { storeState, type StoreState } from '../workspace/store.js';
import { sumTranscriptUsage, type UsageTotals } from '../../usage/transcripts.js';
import { isSpecialPage, type Schema } from '../../wiki/contract.js';
import { inScopeOf } from '../../wiki/access.js';
import { listPageFiles } from '../../wiki/page-files.js';
import { parseLogEntries, type LogEntry } from '../../wiki/log.js';
import { listRuns } from '../../state/history.js';
import { classifySource, deletedSources, entryStamp, hashFile, loadManifest } from '../../state/manifest.js';
import { detectRenames } from '../sources/rename-source.js';
import { unchangedSince } from '../../util/file-stamp.js';
import { sourcesOf } from '../../wiki/page.js';
import { loadPages } from '../../wiki/pages.js';
import { readPage } from '../../wiki/page-read.js';
import { listRawSources } from '../../sources/raw-files.js';
import { splitRawFiles } from '../../sources/source-kinds.js';
import { hasFactsStore } from '../../facts/extract.js';
import { sqliteProblem } from '../../facts/sqlite.js';
import type { PageScore } from '../lint/grounding.js';
import { flaggedAsWarned, lintWorkspace } from '../lint/lint.js';
import { loadKept } from '../lint/lint-batch.js';
import { markReviewed } from '../lint/lint-questions.js';
import { lintAccount, type Finding, type LintAccount } from '../../wiki/validate/finding.js';
import { GROUNDING_RULES } from '../../wiki/validate/rules/index.js';
import { stalePages, type StalePage } from '../../wiki/validate/stale-rules.js';
import { openStaleClaims } from '../sources/stale-claims-of.js';
import { rawContentLines } from '../../sources/line-count.js';
import { lowCoverageFindings, measureCoverage, type SourceCoverage } from '../../wiki/validate/coverage.js';

export interface StatusReport {
  root: string;
  pages: { total: number; byType: Record<string, number> };
  raw: {
    total: number;
    uncited: string[];
    /** Not ingested yet (or whose last ingest did not finish its job). */
    pending: string[];
    /** Changed since their last ingest (by sha256). */
    changed: string[];
    /** Of those, the ones whose citations `wiki lint --fix` already moved to the version in raw/ (not ingested yet: the new lines wait for a model). */
    followed: string[];
    /** Ingested once, gone from raw/ now. */
    deleted: string[];
    /** Sources found under a new path with the same content (not in pending or deleted): `wiki ingest` follows them with no model. */
    moved: Array<{ from: string; to: string }>;
    /** Sources the committed ingest record lists (ingested on any clone). */
    ingested: number;
    /** Files under raw/ that are not sources (an image, an archive…), with why: skipped, never pending. */
    unsupported: Array<{ path: string; reason: string }>;
  };
  /** The latest log entries, leaving out any that name a page in a scratch scope the reader cannot see. */
  recentLog: LogEntry[];
  provider: ProviderChoice & { model: string | undefined };
  /** With a local server: the model asked for and that no price is known. */
  localServer?: string;
  /** Cumulative model usage and estimated cost over the run transcripts in .wiki/runs/. */
  usage: UsageTotals;
  /**
   * The same over this clone's ingest runs of sources alone (run history op `ingest`); `runs` is
   * the number of source ingests that used the model (a run that failed before spending a token
   * is left out of the mean). A teammate's ingests are in the record (`raw.ingested`), not here.
   */
  ingestUsage: UsageTotals;
  /** The persisted search index: built or not, pages, lanes and embedder, last update. */
  search: SearchIndexState;
  /** With `store.kind: postgres`: the database, its pages and its last write (instead of the file index's state). */
  store?: StoreState;
  /** Set when pages changed after the index was last updated (a pull, a merge, an edit): the next search brings it up to date. */
  searchBehind?: { pagesNow: number };
  /** Grounding of pages citing raw/ sources against their facts (absent without .wiki/facts.db); `mean` null over no page. */
  grounding?: {
    pages: number;
    /** Claim sentences checked (as `wiki lint` counts them) and how many of them carry a grounding warning (questions apart). */
    claims: number;
    flagged: number;
    /** Share of claim sentences supported, over all pages (what `Grounded:` shows); null with no claim sentence (n/a). */
    share: number | null;
    /** Mean of the pages' shares (kept for scripts that read it). */
    mean: number | null;
    lowest: PageScore[];
  };
  /** Pages marked `stale_since` (a source changed and the ingest did not rewrite them), with the sources that changed. */
  stale: StalePage[];
  /** Sentences whose cited lines changed in their source and that their pages still hold (`wiki lint` lists them). */
  staleClaims: number;
  /**
   * Source coverage (absent when no page cites line ranges): per raw source the share of its
   * text lines inside some from-range, lowest first; `low` those below `threshold`.
   */
  coverage?: { threshold: number; sources: SourceCoverage[]; low: string[]; unmeasured: string[] };
  /** The deterministic lint's account, as `wiki lint` gives it (absent when grounding is unavailable: lint cannot run then). */
  lint?: LintAccount;
  /** Why grounding is not shown: `.wiki/facts.db` exists but SQLite cannot be loaded. */
  factsUnavailable?: string;
}

/** Each raw source against the manifest: pending, changed since its ingest, or deleted. */
export async function sourceStates(root: string, raw: readonly string[]): Promise<Pick<StatusReport['raw'], 'pending' | 'changed' | 'followed' | 'deleted' | 'moved'>> {
  const manifest = await loadManifest(root);
  const pending: string[] = [];
  const changed: string[] = [];
  const followed: string[] = [];
  for (const file of raw) {
    const entry = manifest.sources[file];
    if (!entry) {
      pending.push(file);
      continue;
    }
    // Hash only what the stamp cannot vouch for: on a large raw/ most sources are unchanged.
    const absolute = path.join(root, file);
    if (unchangedSince(entryStamp(entry), await stat(absolute))) continue;
    const sha256 = await hashFile(absolute);
    if (classifySource(manifest, file, sha256) !== 'changed') continue;
    changed.push(file);
    if (entry.followed === sha256) followed.push(file);
  }
  const deleted = deletedSources(manifest, raw);
  if (deleted.length === 0 || pending.length === 0) return { pending, changed, followed, deleted, moved: [] };
  // A new path holding a deleted source's content is that source, moved (a user read "1 not ingested, 1 deleted" for a rename).
  const fresh = await Promise.all(pending.map(async (file) => ({ rawPath: file, sha256: await hashFile(path.join(root, file)) })));
  const moved = detectRenames(manifest, fresh, raw);
  const from = new Set(moved.map((move) => move.from));
  const to = new Set(moved.map((move) => move.to));
  return { pending: pending.filter((file) => !to.has(file)), changed, followed, deleted: deleted.filter((file) => !from.has(file)), moved };
}

/** `user`: whose scratch scope is seen (`--user`); without one no page of any scratch scope is counted or named. */
export async function workspaceStatus(root: string, schema: Schema, config: EffectiveConfig, user?: string): Promise<StatusReport> {
  const pages = (await loadPages(root, schema.contract)).filter((p) => !isSpecialPage(schema.contract, p.path) && inScopeOf(p.path, user));
  const byType: Record<string, number> = Object.fromEntries(Object.keys(schema.contract.types).map((t) => [t, 0]));
  const cited = new Set<string>();
  for (const page of pages) {
    const type = page.type ?? 'untyped';
    byType[type] = (byType[type] ?? 0) + 1;
    for (const source of sourcesOf(page.frontmatter)) cited.add(source.replace(/^\.\//, '').split('#')[0] ?? source);
  }
  const { sources: raw, unsupported } = splitRawFiles(await listRawSources(root));
  const manifest = await loadManifest(root);
  const rawSet = new Set(raw);
  const stale = stalePages(pages, (source) => manifest.sources[source], (source) => rawSet.has(source));
  // Through the one page reader: a log that is a link (or behind one) shows as empty, never another file's lines.
  const logText = readPage(root, schema.contract.log) ?? '';
  // Status needs no facts: a store SQLite cannot open is reported, not fatal.
  const factsUnavailable = hasFactsStore(root) ? await sqliteProblem() : undefined;
  // The same findings, kept and answered the same way, as `wiki lint` reports: one account.
  const lint = factsUnavailable ? undefined : await lintWorkspace(root, schema, config.config, { fix: false, saveGroundingCache: false });
  const findings = lint ? await markReviewed(root, lint.findings, await loadKept(root)) : [];
  const coverage = measureCoverage(pages, schema.contract, rawContentLines(root));
  const threshold = config.config.coverage.warnBelow;
  const search = await readSearchIndexState(root, config.config);
  // The database is the index then: unreachable, it is an error (exit 2), never the files' state instead.
  const store = config.config.store.kind === 'postgres' ? await storeState({ root, contract: schema.contract, config: config.config }) : undefined;
  const searchBehind = store ? undefined : indexBehind(search, root, schema.contract);
  return {
    // Scratch pages of a scope not the reader's are neither counted nor named.
    grounding: lint?.grounding
      ? groundingSummary(
          flaggedAsWarned(lint.grounding, findings).filter((page) => inScopeOf(page.path, user)),
          findings.filter((f) => inScopeOf(f.path, user)),
        )
      : undefined,
    lint: lint ? lintAccount(findings) : undefined,
    stale,
    staleClaims: (await openStaleClaims(root)).length,
    factsUnavailable,
    coverage:
      coverage.sources.length > 0
        ? { threshold, ...coverage, low: lowCoverageFindings(coverage.sources, threshold).map((finding) => finding.path) }
        : undefined,
    root,
    pages: { total: pages.length, byType },
    raw: { total: raw.length, uncited: raw.filter((file) => !cited.has(file)), ...(await sourceStates(root, raw)), ingested: Object.keys(manifest.sources).length, unsupported },
    recentLog: parseLogEntries(logText).filter((entry) => namesOnlyScopesOf(entry.title, user)).slice(-5).reverse(),
    provider: { ...chooseProvider(config), model: config.config.model },
    localServer: localServerNote(chooseProvider(config), config.config.model),
    usage: await sumTranscriptUsage(root),
    ingestUsage: await sumTranscriptUsage(root, new Set((await listRuns(root)).filter((run) => run.op === 'ingest').map((run) => run.runId)), { skipEmptyRuns: true }),
    search,
    ...(store ? { store } : {}),
    ...(searchBehind ? { searchBehind } : {}),
  };
}

/** Whether `text` names no page of a scratch scope other than `user`'s. */
function namesOnlyScopesOf(text: string, user: string | undefined): boolean {
  return [...text.matchAll(/wiki\/user\/([^/\s)]+)\//g)].every((match) => match[1] === user);
}

/**
 * Whether the persisted index lags the pages: it holds another number of pages than wiki/ does,
 * or a page file changed after its last update (a merge brings files with new times).
 */
function indexBehind(search: SearchIndexState, root: string, contract: Schema['contract']): { pagesNow: number } | undefined {
  if (!search.built || search.pages === undefined) return undefined;
  const files = listPageFiles(root).filter((file) => !isSpecialPage(contract, file.path));
  const updated = Date.parse(search.updatedAt ?? search.builtAt ?? '');
  const changedSince = Number.isNaN(updated) || files.some((file) => file.mtimeMs > updated);
  return files.length !== search.pages || changedSince ? { pagesNow: files.length } : undefined;
}

function groundingSummary(pages: PageScore[], findings: readonly Finding[]): NonNullable<StatusReport['grounding']> {
  // No page cites a source yet: there is nothing to be grounded, not "100% over 0 pages".
  if (pages.length === 0) return { pages: 0, claims: 0, flagged: 0, share: null, mean: null, lowest: [] };
  const mean = pages.reduce((sum, page) => sum + page.score, 0) / pages.length;
  const lowest = [...pages].sort((a, b) => a.score - b.score || a.path.localeCompare(b.path)).slice(0, 5);
  const claims = pages.reduce((sum, page) => sum + page.sentences, 0);
  const flagged = pages.reduce((sum, page) => sum + page.flagged, 0);
  // A sentence matches when the check noticed nothing: a question is no match yet (nor a warning a review kept).
  const noticed = findings.filter((f) => GROUNDING_RULES.has(f.rule)).length;
  // No claim sentence to check is n/a, not "100% of 0" (README: status).
  const share = claims === 0 ? null : Math.round((Math.max(0, claims - noticed) / claims) * 1000) / 1000;
  return { pages: pages.length, claims, flagged, share, mean: Math.round(mean * 1000) / 1000, lowest };
}
