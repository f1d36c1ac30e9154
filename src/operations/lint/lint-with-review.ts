import type { CommandRunSettings } from '../run/command-settings.js';
import { newRunId } from '../../state/history.js';
import type { ChatModel } from '../../agent/types.js';
import type { ChangedFile } from '../../agent/changes.js';
import { acquireLock } from '../../state/lock.js';
import { countBySeverity, sortFindings, type Finding } from '../../wiki/validate/finding.js';
import { runModelInSession } from '../run/agent-run.js';
import { lockOptions } from '../ingest/ingest.js';
import { groundingRepairRequest } from './grounding.js';
import { applyFixes, flaggedAsWarned, lintWorkspace, type FixSink, type LintReport } from './lint.js';
import { withoutStaleSince } from '../../state/stale.js';
import { loadKept, parseKeeps, planBatch, rememberKept, type LintBatch } from './lint-batch.js';
import { markReviewed, parseAnswers, planQuestions, questionsRequest, rememberAnswers, type AskedQuestion } from './lint-questions.js';
import { applyRuleSettings } from '../../wiki/validate/rule-settings.js';
import { countAnswers, describeBatch, reviewRequest } from './review-request.js';
import { lastReview, pagesHash, rememberReview, REVIEW_FILE, type ReviewState } from './review-state.js';
import { REPAIR_ROUNDS, REPAIR_TURNS, repairFindings, repairRequest, startRepairs, type RepairState } from './lint-repair.js';
import { summariseRun, type RunOutcome } from '../run/run-outcome.js';
import { Session } from '../run/session.js';
import { hiddenFromModel } from '../run/session-tools.js';
import { reviewReading, type ReviewPage } from './review-reading.js';
import { namedWindowLines } from './cited-windows.js';
import { isSpecialPage } from '../../wiki/contract.js';
import { followChangedSources, followedLines } from '../sources/follow-without-model.js';
import type { WorkspaceHandle } from '../run/workspace-handle.js';

/** Longest first user message that also carries the first batch of questions (the system prompt and tools come on top). */
const FIRST_MESSAGE_CHARS = 36_000;

/** Rule ids the model may report (schema.md's lint workflow); anything else becomes `llm-other`. */
const MODEL_RULES = new Set(['contradiction', 'stale-claim', 'missing-page', 'missing-link', 'summary-mismatch']);

export interface LintRunOptions extends Omit<CommandRunSettings, 'model'> {
  fix: boolean;
  /** The model for the review; undefined runs only the deterministic part (`--no-llm`). */
  model: (() => ChatModel) | undefined;
}

export interface LintRunReport extends LintReport {
  /** What the model run did (its findings are merged into `findings` with `llm-` rule ids). */
  review?: RunOutcome;
  /** Unified diff of what --fix would change (dry run only). */
  diff?: string;
  /** What the model run was handed and what is left for the next one. */
  batch?: string;
}

/**
 * `wiki lint`: the deterministic report; with --fix its safe repairs first; then, unless
 * --no-llm, the model reviews what rules cannot see (and with --fix repairs it through the
 * tools); finally everything is re-validated. Repairs go through a run session, so they
 * are undoable and a dry run changes nothing.
 */
export async function runLint(ws: WorkspaceHandle, options: LintRunOptions): Promise<LintRunReport> {
  const model = options.model?.();
  const mutating = options.fix && !options.dryRun;
  const lock = mutating ? await acquireLock(ws.root, lockOptions('lint', options)) : undefined;
  lock?.releaseOnExit();
  const started = Date.now();
  try {
    const session =
      options.fix || model
        ? await Session.open(ws, {
            op: 'lint',
            title: options.fix ? 'repair' : 'review',
            runId: newRunId(),
            dryRun: options.dryRun,
            readOnly: !options.fix,
            overwriteEdits: options.overwriteEdits === true,
            env: options.env,
            review: options.review?.forRun(),
          })
        : undefined;
    // One log entry for the whole run: the repairs' lines wait for the model's, if any.
    const logLines: string[] = [];
    const fixOutcome = session && options.fix ? await applyFixes(ws.root, ws.schema.contract, ws.config.config, sessionSink(session, logLines)) : { changes: [], refused: [] };
    // A changed source's citations follow it as an ingest's would, with no model: after the rule
    // repairs, which read the disk, so a dry run's overlay keeps both.
    const followed = session && options.fix ? await followChangedSources(session, options.onNotice) : [];
    logLines.push(...followedLines(followed));
    let fixes = [...fixOutcome.changes, ...followedLines(followed)];
    const planned = (): Array<{ path: string; after: string }> => (options.dryRun ? (session?.overlay?.changes() ?? []) : []);
    const followedNow = new Map(options.dryRun ? followed.map((f) => [f.source, f.sha256] as const) : []);
    const before = await lintWorkspace(ws.root, ws.schema, ws.config.config, { fix: false, planned: planned(), evidence: Boolean(options.fix && model), saveGroundingCache: !options.dryRun, followedNow });
    let review: RunOutcome | undefined;
    let modelFindings: Finding[] = [];
    const modelChanges: string[] = [];
    let batchNote: string | undefined;
    // Nothing to hand over, and no page changed since the last review: the model would find nothing new.
    const reviewed = session && model ? await lastReview(ws.root, session.user) : undefined;
    const unchangedSinceReview = reviewed !== undefined && !options.dryRun && reviewed.pages === (await pagesHash(ws.root));
    if (session && model) {
      const fixBatch = ws.config.config.lint.fixBatch;
      const kept = await loadKept(ws.root);
      // The model is shown findings only about pages it may see (wiki/access.ts): lint checks
      // every scope, but another user's scratch page or a `never` page is not quoted to it.
      // A --fix run is handed, too, what the last review reported and left open (on pages that are still there).
      const earlier = options.fix ? openFromLastReview(reviewed, session) : [];
      const seen = [...(await markReviewed(ws.root, before.findings, kept)), ...earlier].filter((f) => !hiddenFromModel(ws.schema.contract, session.pages, session.user, f.path));
      const batch = planBatch(ws.root, seen, kept, fixBatch);
      const questions = await planQuestions(ws.root, seen, kept, fixBatch);
      const asked: AskedQuestion[] = [];
      let questionRounds = 0;
      if (batch.findings.length === 0 && asked.length === 0 && unchangedSinceReview) {
        options.onNotice?.(`model review skipped: nothing to hand over, and no page changed since the review of ${reviewed.at} (delete ${REVIEW_FILE} to review again)`);
      } else {
        const repairs = options.fix && before.groundingEvidence ? await groundingRepairRequest(ws.root, batch.findings, before.groundingEvidence) : '';
        const questionCount = questions.batches.flat().length;
        const named = await namedWindowLines(ws.root, batch.findings);
        const sourceLines = named.length > 0 ? ['Where the source lines the findings above name are, to read just them:', ...named].join('\n') : '';
        const reviewText = [reviewRequest({ ...before, findings: seen, ...countBySeverity(seen) }, batch, fixes.length, options.fix), repairs, sourceLines, reviewReading(ws.root, reviewPages(session), batch.findings)].filter(Boolean).join('\n\n');
        // The first batch rides with the review when the first request stays small (played runs: at most 60 KB); else it is the next round.
        const firstBatch = questions.batches[0] ?? [];
        const withQuestions = firstBatch.length > 0 ? await questionsRequest(ws.root, firstBatch, { fix: options.fix, first: true, total: questionCount }) : '';
        if (withQuestions && reviewText.length + withQuestions.length <= FIRST_MESSAGE_CHARS) {
          asked.push(...firstBatch);
          questionRounds = 1;
        }
        const repairState = startRepairs(seen);
        // Its writes may leave new findings on the pages it changed: handed back in the same conversation, a bounded number of times.
        const repairRound = async (round: { turns: number; changed: readonly ChangedFile[] }): Promise<string | undefined> => {
          if (!options.fix || repairState.rounds.length >= REPAIR_ROUNDS || options.budget.maxTurns - round.turns < REPAIR_TURNS) return undefined;
          const pages = round.changed.filter((c) => c.path.startsWith('wiki/') && !hiddenFromModel(ws.schema.contract, session.pages, session.user, c.path));
          if (pages.length === 0) return undefined;
          // The rule repairs come first, as after the run: what the tool repairs itself is no finding to hand over.
          if (!options.dryRun) fixes = [...new Set([...fixes, ...(await applyFixes(ws.root, ws.schema.contract, ws.config.config, sessionSink(session, logLines))).changes])];
          const now = await lintWorkspace(ws.root, ws.schema, ws.config.config, { fix: false, planned: planned(), evidence: true, saveGroundingCache: !options.dryRun, followedNow });
          const handed = repairFindings(repairState, pages, await markReviewed(ws.root, now.findings, await loadKept(ws.root)), ws.config.config.lint.fixBatch);
          return handed.length === 0 ? undefined : repairRequest(ws.root, repairState.rounds.length, handed, now.groundingEvidence);
        };
        // Then the next batch of questions, each round a turn of the run.
        const followUp = async (round: { turns: number; changed: readonly ChangedFile[] }): Promise<string | undefined> => {
          const repair = await repairRound(round);
          if (repair !== undefined) return repair;
          const next = questions.batches[questionRounds];
          if (!next || options.budget.maxTurns - round.turns < 1) return undefined;
          questionRounds++;
          asked.push(...next);
          return questionsRequest(ws.root, next, { fix: options.fix, first: questionRounds === 1, total: questionCount });
        };
        const run = await runModelInSession(session, {
          model,
          operation: options.fix ? 'lint-fix' : 'lint',
          userMessage: [reviewText, questionRounds === 1 ? withQuestions : ''].filter(Boolean).join('\n\n'),
          budget: options.budget,
          price: options.price,
          listener: options.listener,
          signal: options.signal,
          followUp,
        });
        modelFindings = await findingsOnExistingPages(session, parseModelFindings(run.finalText), options.onNotice);
        // Answers judge the sentences on disk (keyed by their text): under review they are kept as in a direct run (.wiki/ only).
        const remembering = !options.dryRun || options.review !== undefined;
        const keptNow = options.fix && remembering ? await rememberRoundKeeps(ws.root, kept, batch, repairState, run.rounds) : 0;
        const answers = parseAnswers(run.finalText);
        const answered = remembering ? await rememberAnswers(ws.root, kept, asked, answers) : countAnswers(asked, answers);
        batchNote = describeBatch(batch, keptNow, repairState, options.fix, { asked: asked.length, ...answered, remaining: questionCount - asked.length + questions.remaining, answeredEarlier: questions.answeredEarlier });
        // A rule repair the model's rewrite undid (a `created` it dropped) is done again after
        // it, and reported once. Not in a dry run: the repairs read the disk, not the overlay.
        if (options.fix && !options.dryRun && run.changed.length > 0) {
          const again = await applyFixes(ws.root, ws.schema.contract, ws.config.config, sessionSink(session, logLines));
          fixes = [...new Set([...fixes, ...again.changes])];
          logLines.splice(0, logLines.length, ...new Set(logLines));
        }
        const changes = session.pageChanges();
        const byModel = { created: changes.created.filter((p) => run.changed.some((c) => c.path === p)), updated: changes.updated.filter((p) => run.changed.some((c) => c.path === p)) };
        modelChanges.push(...byModel.created.map((p) => `${p}: created by the model`), ...byModel.updated.map((p) => `${p}: updated by the model`));
        // A stale page the model rewrote from its changed source is current again: the tool clears its mark.
        const refreshed: string[] = [];
        if (options.fix) {
          for (const f of batch.findings.filter((x) => x.rule === 'stale-page' && byModel.updated.includes(x.path))) {
            const cleared = withoutStaleSince(f.path, await session.fs.readText(session.abs(f.path)));
            if (cleared === undefined) continue;
            await session.writeFile(f.path, cleared);
            refreshed.push(f.path);
          }
        }
        if (refreshed.length > 0) logLines.push(`stale mark cleared: ${refreshed.join(', ')}`);
        const touched = await session.revalidateTouched();
        if (byModel.created.length > 0 || byModel.updated.length > 0) {
          await session.refreshIndex();
          logLines.push(
            ...(byModel.created.length ? [`created by the model: ${byModel.created.join(', ')}`] : []),
            ...(byModel.updated.length ? [`updated by the model: ${byModel.updated.join(', ')}`] : []),
            `findings reported: ${modelFindings.length}`,
          );
        }
        review = summariseRun(run, byModel, touched, Date.now() - started, options.budget);
        // What it left open is handed to the next --fix run; only a finished review that left nothing open lets a later run skip the model.
        if (!options.dryRun && (review.status === 'done' || modelFindings.length > 0)) {
          await rememberReview(ws.root, session.user, { at: new Date().toISOString(), open: modelFindings, ...(review.status === 'done' ? { pages: await pagesHash(ws.root) } : {}) });
        }
      }
    }
    let diff: string | undefined;
    if (session && logLines.length > 0) {
      const repairs = `${fixes.length} ${fixes.length === 1 ? 'repair' : 'repairs'}`;
      await session.appendLog('lint', review ? `--fix: ${repairs} by rules, ${modelChanges.length} by the model` : `--fix applied ${repairs}`, logLines);
    }
    if (session) {
      const ok = !review || review.status === 'done';
      if (ok && session.filesChanged().length > 0) {
        const notice = await session.autoCommit(`lint --fix: ${fixes.length + modelChanges.length} change(s)`);
        if (notice) options.onNotice?.(notice);
      }
      if (options.dryRun) diff = session.overlay?.unifiedDiff() ?? '';
      await session.finish(ok ? 'completed' : review?.status === 'interrupted' ? 'interrupted' : 'stopped');
    }
    const after = modelChanges.length > 0 ? await lintWorkspace(ws.root, ws.schema, ws.config.config, { fix: false, planned: planned(), saveGroundingCache: !options.dryRun, followedNow }) : before;
    const settled = applyRuleSettings([...after.findings, ...fixOutcome.refused, ...modelFindings], ws.schema.contract.lint);
    const findings = await markReviewed(ws.root, sortFindings(settled), await loadKept(ws.root));
    const report: LintRunReport = { findings, ...countBySeverity(findings), changes: [...fixes, ...modelChanges] };
    if (!options.fix && after.repairable !== undefined) report.repairable = after.repairable;
    // A question a model answered "no" is a grounding warning now: `flagged` counts it.
    if (after.grounding) report.grounding = flaggedAsWarned(after.grounding, findings);
    if (after.coverage) report.coverage = after.coverage;
    if (review) report.review = review;
    if (batchNote) report.batch = batchNote;
    if (diff !== undefined) report.diff = diff;
    return report;
  } finally {
    await lock?.release();
  }
}

/** The pages the review's model may see, with how many pages link to each. */
function reviewPages(session: Session): ReviewPage[] {
  const contract = session.ws.schema.contract;
  return session
    .contentPages()
    .filter((page) => !hiddenFromModel(contract, session.pages, session.user, page.path))
    .map((page) => ({ page, linksIn: session.pages.backlinkPaths(page.key).filter((from) => !isSpecialPage(contract, from)).length }));
}

function sessionSink(session: Session, logLines: string[]): FixSink {
  return {
    write: (p, content) => session.writeFile(p, content),
    remove: (p) => session.deleteFile(p),
    appendLog: async (_op, _title, lines) => {
      logLines.push(...lines);
    },
  };
}

/** Each round's KEEP lines name the places of the findings that round handed (a rewrite moves lines between rounds). */
async function rememberRoundKeeps(root: string, kept: Awaited<ReturnType<typeof loadKept>>, batch: LintBatch, repairs: RepairState, rounds: readonly string[]): Promise<number> {
  let added = 0;
  for (const [index, handed] of [batch.findings, ...repairs.rounds].entries()) added += await rememberKept(root, kept, handed, parseKeeps(rounds[index] ?? ''));
  return added;
}

/** The model findings the last review left open, on pages the run still has, said to be from it. */
function openFromLastReview(reviewed: ReviewState | undefined, session: Session): Finding[] {
  if (!reviewed) return [];
  return reviewed.open.filter((f) => session.pages.atPath(f.path) !== undefined).map((f) => ({ ...f, message: `${f.message} (reported by the model review of ${reviewed.at.slice(0, 10)})` }));
}

/**
 * The model's findings about pages that exist (or that it created in this run); one about
 * a page the wiki does not have is a hallucination, dropped with a note naming it.
 */
async function findingsOnExistingPages(session: Session, findings: Finding[], onNotice?: (message: string) => void): Promise<Finding[]> {
  const kept: Finding[] = [];
  const dropped: string[] = [];
  for (const finding of findings) {
    const target = finding.path.split('#')[0] ?? finding.path;
    const exists = session.pages.has(target) || (isWorkspaceRelative(target) && (await session.readIfExists(target)) !== undefined);
    if (exists) kept.push(finding);
    else dropped.push(finding.path);
  }
  if (dropped.length > 0) {
    onNotice?.(`dropped ${dropped.length} finding(s) of the model's review about pages that do not exist: ${[...new Set(dropped)].join(', ')}`);
  }
  return kept;
}

function isWorkspaceRelative(relPath: string): boolean {
  return relPath !== '' && !relPath.startsWith('/') && !relPath.split('/').includes('..');
}

/** `FINDING <rule> <path> :: <message>` lines from the model's final message. */
export function parseModelFindings(text: string): Finding[] {
  const findings: Finding[] = [];
  for (const line of text.split('\n')) {
    const match = /^\s*(?:[-*]\s*)?FINDING\s+([a-z][a-z-]*)\s+(\S+)\s*::\s*(.+?)\s*$/.exec(line);
    if (!match) continue;
    const [, rule = '', path = '', message = ''] = match;
    findings.push({
      rule: `llm-${MODEL_RULES.has(rule) ? rule : 'other'}`,
      severity: 'warning',
      path: path.replace(/^`|`$/g, ''),
      message,
    });
  }
  return findings;
}
