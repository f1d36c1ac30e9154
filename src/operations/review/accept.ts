import { stat } from 'node:fs/promises';
import path from 'node:path';
import { UsageError } from '../../errors.js';
import { newRunId } from '../../state/history.js';
import { isSpecialPage } from '../../wiki/contract.js';
import { acquireLock } from '../../state/lock.js';
import { hashFile, loadManifest, MANIFEST_PATH, recordIngest, saveManifest } from '../../state/manifest.js';
import { unifiedDiffOf } from '../../tools/diff.js';
import { sourcesOf } from '../../wiki/page.js';
import type { Finding } from '../../wiki/validate/finding.js';
import { lockOptions } from '../ingest/ingest.js';
import { currentSourceText } from '../sources/earlier-text.js';
import { keepSourceText } from '../../state/source-texts.js';
import { Session } from '../run/session.js';
import { SharedWorkspace } from '../run/shared-workspace.js';
import type { WorkspaceHandle } from '../run/workspace-handle.js';
import { applyEffects, effectsRefused, requireWhole } from './accept-effects.js';
import { mergeOnto } from './merge.js';
import { ProposalStore, type PageChangeKind, type Proposal, type ProposedPage } from './proposals.js';
import { keepRest, pagesNamed, proposalFor } from './select.js';

export interface DecideOptions {
  /** Pages by path or key; all of the proposal's when empty. */
  pages: string[];
  user: string | undefined;
  waitSeconds: number;
  signal?: AbortSignal;
  onNotice?: (message: string) => void;
  env?: NodeJS.ProcessEnv;
}

export interface AcceptReport {
  id: string;
  /** Pages written, in the proposal's order; `merged` when the page had changed since and the proposal merged onto it. */
  accepted: Array<{ path: string; change: PageChangeKind; merged?: true }>;
  /** Why the accept was refused, page by page (nothing is written when any is). */
  refused: Array<{ path: string; reason: string; diff?: string; errors?: string[] }>;
  /** Pages of the proposal still waiting after this accept. */
  remaining: number;
  /** The run the accept was recorded as (what `wiki undo` takes back). */
  runId?: string;
  /** What re-validation found on the pages written (the wiki's own checks, as after any run). */
  findings: Finding[];
  /** The ingest's source, when this accept recorded it as ingested. */
  recordedSource?: string;
  /** What the accept did besides the pages (raw/ removals, a source's record), as a person reads it. */
  effects?: string[];
}

/** Model-authorship rules a proposal already met when its run wrote it (or that the tool's own marks may break). */
const RUN_ONLY_RULES = ['tool-owned-field', 'near-duplicate', 'dropped-source'];

/**
 * `wiki review accept ID [PAGE…]`: land the chosen pages through a run of their own — the
 * same recorded, confined and validated writers a run uses, one history run (`wiki undo`
 * takes it back), one log entry, index.md refreshed. All or nothing: a page changed on disk
 * since that the proposal does not merge onto cleanly, or a page the wiki's checks refuse
 * as it would stand (a link to a page left out, a human line or owner field dropped),
 * refuses the whole accept with the reasons; nothing is written.
 */
export async function acceptProposal(ws: WorkspaceHandle, id: string | undefined, options: DecideOptions): Promise<AcceptReport> {
  const store = new ProposalStore(ws.root, ws.config.config.reviewFolder);
  const lock = await acquireLock(ws.root, lockOptions('review accept', options));
  lock.releaseOnExit();
  try {
    const proposal = await proposalFor(store, id, options.user);
    const chosen = pagesNamed(proposal, options.pages);
    requireWhole(proposal, chosen, 'accept');
    // A proposal file can be crafted (a committed review folder): the tool's own files are never taken from one.
    const own = chosen.filter((p) => isSpecialPage(ws.schema.contract, p.path));
    if (own.length > 0) throw new UsageError(`proposal ${proposal.id} names ${own.map((p) => p.path).join(', ')}, which only the tool writes`, `reject it: wiki review reject ${proposal.id}`);
    const report: AcceptReport = { id: proposal.id, accepted: [], refused: [], remaining: proposal.pages.length, findings: [] };
    // Checked first by a session that records nothing, so a refused accept leaves no run behind in history.
    const shared = await SharedWorkspace.open(ws, { env: options.env ?? process.env, persist: true });
    try {
      const opened = { op: proposal.command, title: proposal.title, dryRun: false, user: proposal.user, env: options.env };
      const check = await Session.open(ws, { ...opened, runId: newRunId(), readOnly: true }, shared);
      const landing = await planLanding(check, chosen, report);
      if (report.refused.length === 0) await refuseInvalid(check, proposal, landing, report);
      if (report.refused.length === 0) report.refused.push(...(await effectsRefused(check, proposal)));
      await check.finish('completed');
      if (report.refused.length > 0) return report;
      const session = await Session.open(ws, { ...opened, runId: newRunId(), readOnly: false }, shared);
      let finished = false;
      try {
        for (const { page, text, merged } of landing) {
          // Validated again by this session, so the human lines and fields the page keeps stay protected once it lands.
          if (text !== undefined) await session.writeCheck.validate(page.path, text, await session.readIfExists(page.path), { pages: [] });
          if (text === undefined) await session.deleteFile(page.path);
          else await session.writeFile(page.path, text);
          report.accepted.push({ path: page.path, change: page.change, ...(merged ? { merged: true as const } : {}) });
        }
        const done = await applyEffects(session, proposal, options.onNotice);
        if (done.length > 0) report.effects = done;
        await session.refreshIndex();
        report.findings = await session.revalidateTouched();
        const recorded = await recordSource(session, proposal, landing.map((l) => l.page));
        if (recorded === 'recorded') report.recordedSource = proposal.source?.path;
        if (recorded === 'source-changed') {
          options.onNotice?.(`${proposal.source?.path} changed since the proposal was made: not recorded as ingested, so the next ingest reads it again`);
        }
        const entry = await session.appendLog(proposal.command, proposal.title, logLines(proposal, report));
        const notice = await session.autoCommit(entry.split('\n')[0] ?? entry);
        if (notice) options.onNotice?.(notice);
        await session.finish('completed');
        finished = true;
        report.runId = session.options.runId;
        report.remaining = await keepRest(store, proposal, chosen);
        return report;
      } finally {
        if (!finished) await session.finish('failed');
      }
    } finally {
      await shared.close();
    }
  } finally {
    await lock.release();
  }
}

interface Landing {
  page: ProposedPage;
  /** What the page will hold; undefined: removed. */
  text: string | undefined;
  merged: boolean;
}

/** Each chosen page onto the page as it is now; one that changed since and does not merge is refused with what changed. */
async function planLanding(session: Session, chosen: readonly ProposedPage[], report: AcceptReport): Promise<Landing[]> {
  const landing: Landing[] = [];
  for (const page of chosen) {
    const current = await session.readIfExists(page.path);
    const merged = mergeOnto(page.before, current, page.after);
    if (merged === undefined) {
      report.refused.push({
        path: page.path,
        reason: current === undefined ? 'the page was removed since the proposal was made' : 'the page changed since the proposal was made, and the proposal does not merge onto it cleanly',
        diff: unifiedDiffOf([{ path: page.path, before: page.before, after: current ?? '' }]),
      });
      continue;
    }
    landing.push({ page, text: merged.text, merged: current !== page.before && current !== page.after });
  }
  return landing;
}

/** Every landing page checked as a write would be, against the wiki with the other landing pages in it. */
async function refuseInvalid(session: Session, proposal: Proposal, landing: readonly Landing[], report: AcceptReport): Promise<void> {
  const together = landing.filter((l) => l.text !== undefined).map((l) => ({ path: l.page.path, content: l.text as string }));
  const leftOut = new Map(proposal.pages.filter((p) => p.change === 'created' && !landing.some((l) => l.page === p)).map((p) => [path.posix.basename(p.path, '.md'), p.path]));
  for (const { page, text } of landing) {
    if (text === undefined) continue;
    const current = await session.readIfExists(page.path);
    // What the page already breaks as it is (a source deleted since, say) is no reason to refuse a change to it.
    const already = current === undefined ? new Set<string>() : new Set((await session.writeCheck.validate(page.path, current, current, { pages: together })).errors.map(withoutLine));
    const verdict = await session.writeCheck.validate(page.path, text, current, { pages: together });
    const errors = verdict.errors.filter((e) => !RUN_ONLY_RULES.some((rule) => e.startsWith(`${rule}`)) && !already.has(withoutLine(e)));
    if (errors.length === 0) continue;
    const missing = [...leftOut.entries()].filter(([key]) => new RegExp(`\\[\\[${key}([|#\\]])`).test(text) || errors.some((e) => e.includes(key))).map(([, p]) => p);
    const reason =
      missing.length > 0
        ? `it links to ${missing.join(', ')}, a new page of this proposal not accepted with it: accept that page too, or reject this one`
        : 'the page would not be valid as it now stands in the wiki';
    report.refused.push({ path: page.path, reason, errors });
  }
}

/** An error as the checks word it, less where on the page: the same error on a page that grew or shrank. */
function withoutLine(error: string): string {
  return error.replace(/^([a-z-]+) \(line \d+\)/, '$1');
}

/** An ingest's source, once a page citing it lands: recorded as ingested (unless the source changed since). */
async function recordSource(session: Session, proposal: Proposal, landed: readonly ProposedPage[]): Promise<'recorded' | 'source-changed' | undefined> {
  const source = proposal.source;
  if (!source) return undefined;
  const citing = landed.filter((p) => p.after !== undefined && sourcesOf(session.writeCheck.parsed(p.path, p.after).frontmatter).some((s) => s.split('#')[0] === source.path));
  if (citing.length === 0) return undefined;
  const file = path.join(session.root, source.path);
  const seenAt = Date.now();
  const sha256 = await hashFile(file).catch(() => undefined);
  if (sha256 !== source.sha256) return 'source-changed';
  const info = await stat(file);
  // The pages the run wrote from the source, of those that land (a proposal from before `pages` was kept: all that land).
  const landing = (change: 'created' | 'updated'): string[] => landed.filter((p) => p.change === change && (source.pages?.[change].includes(p.path) ?? true)).map((p) => p.path);
  const pages = { created: landing('created'), updated: landing('updated') };
  const manifest = recordIngest(await loadManifest(session.root), source.path, {
    sha256,
    size: info.size,
    mtimeMs: info.mtimeMs,
    seenAt,
    ingestedAt: new Date().toISOString(),
    runId: session.options.runId,
    pages,
  });
  await saveManifest(session.root, manifest, session.run);
  session.alsoChanged.add(MANIFEST_PATH);
  // The text the pages were written from, as a direct ingest keeps it: what the source's next change is diffed against.
  const text = await currentSourceText(session.root, source.path);
  if (text !== undefined) await keepSourceText(session.root, sha256, text);
  return 'recorded';
}

function logLines(proposal: Proposal, report: AcceptReport): string[] {
  const of = (change: PageChangeKind): string[] => report.accepted.filter((a) => a.change === change).map((a) => a.path);
  const lines = [`accepted from proposal ${proposal.id}: ${report.accepted.length} of ${proposal.pages.length} page(s)`];
  for (const change of ['created', 'updated', 'removed'] as const) if (of(change).length) lines.push(`${change}: ${of(change).join(', ')}`);
  const merged = report.accepted.filter((a) => a.merged).map((a) => a.path);
  if (merged.length) lines.push(`merged onto later edits: ${merged.join(', ')}`);
  if (report.recordedSource) lines.push(`source: ${report.recordedSource}`);
  lines.push(...proposal.log.filter((line) => !/^(created|updated|source|status|rejected writes):/.test(line)));
  return lines;
}
