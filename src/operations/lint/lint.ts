import { lstat, stat } from 'node:fs/promises';
import path from 'node:path';
import type { WikiConfig } from '../../config/schema.js';
import { newRunId } from '../../state/history.js';
import { rawContentLines, rawLineCounter } from '../../sources/line-count.js';
import { acquireLock } from '../../state/lock.js';
import { isoDate } from '../../util/dates.js';
import { isSpecialPage, type Schema, type Contract } from '../../wiki/contract.js';
import { planFixes, type FixFile } from '../../wiki/fix.js';
import { applyIndexPlan, readIndexFiles } from '../../wiki/index-catalog.js';
import { appendLog } from '../../wiki/log.js';
import { loadLogLedger, withCommittedEntries, withTeamRuns } from '../../wiki/log-ledger.js';
import { committedTexts } from '../../git/committed.js';
import { loadManifest } from '../../state/manifest.js';
import { parsePage, sourcesOf, type Page } from '../../wiki/page.js';
import { countBySeverity, sortFindings, type Finding } from '../../wiki/validate/finding.js';
import { validateWiki } from '../../wiki/validate/index.js';
import { applyRuleSettings } from '../../wiki/validate/rule-settings.js';
import { GROUNDING_RULES } from '../../wiki/validate/rules/index.js';
import { sourceFilePath } from '../../wiki/validate/page-rules.js';
import { citationsOf } from '../../wiki/validate/citation-rules.js';
import { lowCoverageFindings, measureCoverage, type SourceCoverage } from '../../wiki/validate/coverage.js';
import type { CandidateFact } from '../../facts/grounding.js';
import { groundPages, type PageScore } from './grounding.js';
import { staleClaimFindings, staleFindings, stalePages } from '../../wiki/validate/stale-rules.js';
import { openStaleClaims } from '../sources/stale-claims-of.js';
import { sourceRecordFindings } from './source-record-findings.js';
import { withChangedSources } from './changed-source-findings.js';
import { encodingFindings, readPageTexts, type PageText } from './lint-page-files.js';

export interface LintReport {
  findings: Finding[];
  errors: number;
  warnings: number;
  /** Every repair `--fix` applied, `path: what changed`; empty without --fix. */
  changes: string[];
  /** Without --fix: how many rule repairs `wiki lint --fix --no-llm` would apply now (so a hint to run it is true). */
  repairable?: number;
  /** Per page citing raw/ sources, the share of its sentences their facts support (absent without .wiki/facts.db). */
  grounding?: PageScore[];
  /** Per raw source, the share of its text lines inside some from-range on a page (absent when no page cites line ranges). */
  coverage?: SourceCoverage[];
  /** With `evidence`: each grounding finding's closest facts, keyed `path:line` (raw source text: never served over MCP). */
  groundingEvidence?: Record<string, CandidateFact[]>;
}

export interface LintOptions {
  /** Apply the deterministic repairs before reporting. */
  fix: boolean;
  /** With `fix`: how long to wait for another run to release the workspace lock (default 0). */
  waitSeconds?: number;
  /** Told when a stale lock was taken over. */
  onNotice?: (message: string) => void;
  /** A dry run's planned changes: the findings are those the wiki would have after them. */
  planned?: ReadonlyArray<{ path: string; after: string }>;
  /** Keep each grounding finding's closest facts in the report, for a model asked to repair them. */
  evidence?: boolean;
  /** Save what grounding found in `.wiki/cache/grounding.json` (default true; never with `planned`: a dry run changes nothing). */
  saveGroundingCache?: boolean;
  /** A dry run's followed sources (source → sha256): their citations are taken to number the current version. */
  followedNow?: ReadonlyMap<string, string>;
}

/** How many changes the log entry lists before summarising the rest. */
const LOG_CHANGE_LINES = 50;

/**
 * The deterministic lint: validate the whole wiki and, with `fix`, apply the safe repairs
 * first (catalog rebuild, unique near-match links, derivable fields) and log
 * them. The findings returned are those left after any repairs. No model is involved.
 */
export async function lintWorkspace(
  root: string,
  schema: Schema,
  config: WikiConfig,
  options: LintOptions,
): Promise<LintReport> {
  const contract = schema.contract;
  let changes: string[] = [];
  let refused: Finding[] = [];
  if (options.fix) {
    // Repairs write pages and the index: hold the workspace lock so a concurrent ingest never interleaves.
    const lock = await acquireLock(root, {
      command: 'lint --fix',
      waitSeconds: options.waitSeconds ?? 0,
      onNotice: options.onNotice,
    });
    lock.releaseOnExit();
    try {
      ({ changes, refused } = await applyFixes(root, contract, config));
    } finally {
      await lock.release();
    }
  }
  const read = await readPageTexts(root);
  const files = withPlanned(read.files, options.planned ?? []);
  const pages = files.map((file) => parsePage(file.path, file.text, contract));
  const rawLines = rawContentLines(root);
  const findings = validateWiki({
    pages,
    contract,
    indexText: textOf(files, contract.index),
    logText: textOf(files, contract.log),
    rawExists: await sourceExistence(root, pages),
    deny: config.sandbox.deny,
    rawLineCount: rawLineCounter(rawLines),
    logLedger: await recognisedLogEntries(root, contract.log, textOf(files, contract.log)),
  });
  findings.push(...encodingFindings(files), ...read.refused, ...refused);
  findings.push(...(await staleWarnings(root, pages.filter((page) => !isSpecialPage(contract, page.path)))));
  findings.push(...staleClaimFindings(await openStaleClaims(root)));
  findings.push(...(await sourceRecordFindings(root, contract)));
  const grounding = await groundPages(
    root,
    pages.filter((page) => !isSpecialPage(contract, page.path)),
    { evidence: options.evidence, saveCache: options.saveGroundingCache !== false && (options.planned ?? []).length === 0 },
  );
  if (grounding) findings.push(...grounding.findings);
  const coverage = measureCoverage(pages, contract, rawLines);
  findings.push(...lowCoverageFindings(coverage.sources, config.coverage.warnBelow));
  const told = await withChangedSources(root, pages.filter((page) => !isSpecialPage(contract, page.path)), findings, options.followedNow);
  const settled = sortFindings(applyRuleSettings(told.findings, contract.lint));
  const repairable = options.fix || (options.planned ?? []).length > 0 ? undefined : (await planRepairs(root, contract, config)).changes.length + told.followable;
  return {
    findings: settled,
    ...countBySeverity(settled),
    changes,
    ...(repairable === undefined ? {} : { repairable }),
    grounding: grounding ? flaggedAsWarned(grounding.pages, settled) : undefined,
    coverage: coverage.sources.length > 0 ? coverage.sources : undefined,
    groundingEvidence: grounding && options.evidence ? grounding.closest : undefined,
  };
}

/** Each page's `flagged` as the findings have it: its grounding warnings (a question or a rule schema.md turned off is not flagged). */
export function flaggedAsWarned(pages: readonly PageScore[], findings: readonly Finding[]): PageScore[] {
  const warned = new Map<string, number>();
  for (const f of findings) if (f.severity === 'warning' && GROUNDING_RULES.has(f.rule)) warned.set(f.path, (warned.get(f.path) ?? 0) + 1);
  return pages.map((page) => ({ ...page, flagged: warned.get(page.path) ?? 0 }));
}

/** `stale-page` warnings: pages a changed source left marked, naming the source and since when. */
async function staleWarnings(root: string, pages: readonly Page[]): Promise<Finding[]> {
  if (!pages.some((page) => page.frontmatter.stale_since)) return [];
  const manifest = await loadManifest(root);
  const rawExists = await sourceExistence(root, pages);
  return staleFindings(stalePages(pages, (source) => manifest.sources[source], rawExists), rawExists);
}

/** Where repairs go: straight to disk, or through a run session (history for undo, dry-run overlay). */
export interface FixSink {
  write(path: string, content: string): Promise<unknown>;
  remove(path: string): Promise<unknown>;
  appendLog(op: string, title: string, lines: string[]): Promise<unknown>;
}

function diskSink(root: string, contract: Contract): FixSink {
  return {
    write: (p, content) => applyIndexPlan(root, { writes: [{ path: p, content }], deletes: [] }),
    remove: (p) => applyIndexPlan(root, { writes: [], deletes: [p] }),
    appendLog: (op, title, lines) => appendLog(root, contract.log, op, title, lines, undefined, newRunId()),
  };
}

export interface FixOutcome {
  /** Every repair applied, `path: what changed`. */
  changes: string[];
  /** Repairs refused (a page would have grown past twice its size), as findings. */
  refused: Finding[];
}

/** Plan the deterministic repairs from the files on disk and apply them through `sink`. */
export async function applyFixes(root: string, contract: Contract, config: WikiConfig, sink: FixSink = diskSink(root, contract)): Promise<FixOutcome> {
  const plan = await planRepairs(root, contract, config);
  if (plan.changes.length === 0) return { changes: [], refused: plan.refused };
  for (const write of plan.writes) await sink.write(write.path, write.content);
  for (const stale of plan.deletes) await sink.remove(stale);
  const logged = plan.changes.slice(0, LOG_CHANGE_LINES);
  if (plan.changes.length > LOG_CHANGE_LINES) logged.push(`… and ${plan.changes.length - LOG_CHANGE_LINES} more`);
  const count = plan.changes.length;
  await sink.appendLog('lint', `--fix applied ${count} ${count === 1 ? 'repair' : 'repairs'}`, logged);
  return { changes: plan.changes, refused: plan.refused };
}

/** The rule repairs the files on disk call for, planned and not applied. */
async function planRepairs(root: string, contract: Contract, config: WikiConfig): Promise<ReturnType<typeof planFixes>> {
  const files = await readPageFilesWithTimes(root);
  return planFixes({
    contract,
    hubThreshold: config.index.hubThreshold,
    files,
    rawExists: await sourceExistence(root, files.map((file) => parsePage(file.path, file.text, contract))),
    index: await readIndexFiles(root, contract),
    logText: textOf(files, contract.log),
  });
}

/** The page texts as they would be after the planned writes (pages under wiki/ only). */
function withPlanned(files: PageText[], planned: ReadonlyArray<{ path: string; after: string }>): PageText[] {
  const byPath = new Map(files.map((file) => [file.path, file]));
  for (const change of planned) if (change.path.startsWith('wiki/') && change.path.endsWith('.md')) byPath.set(change.path, { path: change.path, text: change.after });
  return [...byPath.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function textOf(files: PageText[], filePath: string): string | undefined {
  return files.find((file) => file.path === filePath)?.text;
}

/** Page texts with the dates their files carry, for filling `created`/`updated`. */
async function readPageFilesWithTimes(root: string): Promise<FixFile[]> {
  const { files } = await readPageTexts(root);
  return Promise.all(
    files.map(async (file): Promise<FixFile> => {
      const info = await lstat(path.join(root, file.path));
      const born = info.birthtimeMs > 0 ? info.birthtime : info.mtime;
      return { ...file, times: { created: isoDate(born), updated: isoDate(info.mtime) } };
    }),
  );
}

/** Check every cited source once, so the pure validator can ask synchronously. */
async function sourceExistence(root: string, pages: readonly Page[]): Promise<(rawPath: string) => boolean> {
  const cited = new Set<string>();
  for (const page of pages) {
    for (const entry of [...sourcesOf(page.frontmatter), ...citationsOf(page).map((citation) => citation.file)]) {
      const file = sourceFilePath(entry);
      if (file !== undefined) cited.add(file);
    }
  }
  const existing = new Set<string>();
  await Promise.all(
    [...cited].map(async (file) => {
      try {
        if ((await stat(path.join(root, file))).isFile()) existing.add(file);
      } catch {
        // missing: reported by the missing-source rule
      }
    }),
  );
  return (rawPath) => existing.has(rawPath);
}

/** The runs the committed ingest record names; none when it cannot be read (`wiki status` reports why). */
/** The log entries lint accepts as the tool's: this clone's ledger, the committed ingest record's runs and the committed log's entries. */
async function recognisedLogEntries(root: string, logPath: string, logText: string | undefined): Promise<Set<string> | undefined> {
  const ledger = await loadLogLedger(root);
  if (!ledger) return undefined;
  return withCommittedEntries(withTeamRuns(ledger, logText, await recordedRuns(root)), await committedTexts(root, logPath));
}

async function recordedRuns(root: string): Promise<Set<string>> {
  try {
    return new Set(Object.values((await loadManifest(root, { migrate: false })).sources).map((entry) => entry.runId));
  } catch {
    return new Set();
  }
}
