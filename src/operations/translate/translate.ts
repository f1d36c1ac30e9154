import type { CommandRunSettings } from '../run/command-settings.js';
import { UsageError } from '../../errors.js';
import { carriedHumanLines } from '../../state/human-lines.js';
import { humanEditBase } from '../../state/human-edits.js';
import { newRunId } from '../../state/history.js';
import { acquireLock } from '../../state/lock.js';
import { canonicalTag, languageName } from '../../util/language-tag.js';
import { scopeOf } from '../../wiki/access.js';
import { extractInlineLinks } from '../../wiki/links.js';
import type { Page } from '../../wiki/page.js';
import { OWNER_FIELDS, protectedBody } from '../../wiki/validate/write-guard.js';
import { lockOptions } from '../ingest/ingest.js';
import { sweepAbandonedTempFiles } from '../run/abandoned-writes.js';
import { runModelInSession } from '../run/agent-run.js';
import { historyStatus, summariseRun, type RunOutcome } from '../run/run-outcome.js';
import { Session } from '../run/session.js';
import type { WorkspaceHandle } from '../run/workspace-handle.js';

/** What `wiki translate` is handed: the settings every model command takes, nothing more. */
export type TranslateOptions = CommandRunSettings;

/** What a page kept as it was, untranslated: a person's lines and the owner's fields. */
export interface KeptVerbatim {
  path: string;
  /** Lines a human wrote, kept word for word. */
  humanLines: string[];
  /** Owner fields (usage_mode, visibility) it has, kept as the owner set them. */
  ownerFields: string[];
}

export interface TranslateReport extends RunOutcome {
  /** The language written in: its tag and English name. */
  to: string;
  language: string;
  /** Content pages the run was to write anew (those not already in the language). */
  pages: string[];
  /** Of those, the pages the model wrote anew. */
  rewritten: string[];
  /** Pages already in the language (`lang` the target): left as they are. */
  alreadyInLanguage: string[];
  keptVerbatim: KeptVerbatim[];
  /** Links (`[[key]]`) or citations (`<!-- from: … -->`) a page had before and lacks now. */
  lost: Array<{ path: string; links: string[]; citations: string[] }>;
  diff?: string;
}

/** Characters of page text handed to the model in one message (a batch of pages). */
const BATCH_CHARS = 16_000;
const CITATION = /<!--\s*from:[^>]*-->/g;

/**
 * `wiki translate --to TAG`: the wiki's pages written anew in another language, as one
 * undoable run (one entry in .wiki/history and in log.md). The model rewrites each page with
 * the same five tools, batch by batch; keys, links and citations stay, and what a person
 * wrote (their lines, the owner fields) stays word for word — the write guard refuses a
 * write that translates it, and the report names every page where something was kept so.
 */
export async function translateWiki(ws: WorkspaceHandle, to: string, options: TranslateOptions): Promise<TranslateReport> {
  const tag = canonicalTag(to);
  if (tag === undefined || ws.config.config.language === undefined || canonicalTag(ws.config.config.language) !== tag) {
    throw new UsageError(`translate writes in the language --to names, and "${to}" is not the run's language`, 'e.g. `wiki translate --to de`');
  }
  const model = options.model();
  const lock = options.dryRun ? undefined : await acquireLock(ws.root, lockOptions('translate', options));
  lock?.releaseOnExit();
  const started = Date.now();
  try {
    if (lock) await sweepAbandonedTempFiles(ws.root);
    const session = await Session.open(ws, { op: 'translate', title: `to ${tag}`, runId: newRunId(), dryRun: options.dryRun, readOnly: false, env: options.env, review: options.review?.forRun() });
    const all = session.contentPages().filter((page) => scopeOf(page.path) === undefined || scopeOf(page.path) === session.user);
    const alreadyInLanguage = all.filter((page) => typeof page.frontmatter.lang === 'string' && canonicalTag(page.frontmatter.lang) === tag).map((page) => page.path);
    const pages = all.filter((page) => !alreadyInLanguage.includes(page.path)).sort((a, b) => (a.path < b.path ? -1 : 1));
    const texts = new Map(await Promise.all(pages.map(async (page) => [page.path, await session.fs.readText(session.abs(page.path))] as const)));
    const kept = await Promise.all(pages.map((page) => keptVerbatim(session, page, texts.get(page.path) ?? '')));
    const before = new Map(pages.map((page) => [page.path, { links: linksOf(page.body), citations: citationsOf(page.body) }]));
    const batches = batchesOf(pages.map((page) => ({ path: page.path, text: texts.get(page.path) ?? '' })));
    const keptByPath = new Map(kept.map((entry) => [entry.path, entry]));
    let next = 1;
    const run =
      batches.length === 0
        ? undefined
        : await runModelInSession(session, {
            model,
            operation: 'translate',
            userMessage: batchMessage(batches[0] ?? [], keptByPath, 1, batches.length),
            budget: options.budget,
            price: options.price,
            listener: options.listener,
            signal: options.signal,
            followUp: async () => {
              const batch = batches[next];
              if (!batch) return undefined;
              next++;
              return batchMessage(batch, keptByPath, next, batches.length);
            },
          });
    const changes = session.pageChanges();
    const findings = await session.revalidateTouched();
    const rewritten = changes.updated.filter((path) => before.has(path)).sort();
    const lost: TranslateReport['lost'] = [];
    for (const path of rewritten) {
      const now = session.pages.atPath(path);
      const was = before.get(path);
      if (!now || !was) continue;
      const links = was.links.filter((key) => !linksOf(now.body).includes(key));
      const citations = was.citations.filter((citation) => !citationsOf(now.body).includes(citation));
      if (links.length > 0 || citations.length > 0) lost.push({ path, links, citations });
    }
    const keptVerbatimNow = kept.filter((entry) => rewritten.includes(entry.path) && (entry.humanLines.length > 0 || entry.ownerFields.length > 0));
    if (changes.created.length > 0 || changes.updated.length > 0 || run?.status === 'interrupted') {
      await session.refreshIndex();
      const entry = await session.appendLog(run?.status === 'interrupted' ? 'translate-interrupted' : 'translate', `to ${tag}`, [
        `written anew in ${languageName(tag)}: ${rewritten.length} of ${pages.length} page(s)`,
        ...keptVerbatimNow.map((k) => `kept verbatim, not translated: ${k.path}${describeKept(k)}`),
        ...lost.map((l) => `lost in the rewrite: ${l.path} (${[...l.links.map((key) => `[[${key}]]`), ...l.citations].join(', ')})`),
      ]);
      if (run?.status === 'done') {
        const notice = await session.autoCommit(entry.split('\n')[0] ?? entry);
        if (notice) options.onNotice?.(notice);
      }
    }
    await session.finish(run ? historyStatus(run.status) : 'completed');
    if (run?.status === 'provider_error' && run.error) throw run.error;
    const outcome: RunOutcome = run
      ? summariseRun(run, changes, findings, Date.now() - started, options.budget)
      : { status: 'done', created: [], updated: [], turns: 0, maxTurns: options.budget.maxTurns, usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 }, tokens: 0, cost: 0, durationMs: Date.now() - started, findings, transcript: undefined, rejectedWrites: [] };
    return {
      ...outcome,
      to: tag,
      language: languageName(tag),
      pages: pages.map((page) => page.path),
      rewritten,
      alreadyInLanguage: alreadyInLanguage.sort(),
      keptVerbatim: keptVerbatimNow,
      lost,
      ...(options.dryRun ? { diff: session.overlay?.unifiedDiff() ?? '' } : {}),
    };
  } finally {
    await lock?.release();
  }
}

/** A person's lines on the page (as the write guard protects them) and the owner fields it has. */
async function keptVerbatim(session: Session, page: Page, text: string): Promise<KeptVerbatim> {
  const humanEdit = await humanEditBase(session.root, page.path, text);
  const humanLines = protectedBody(page, { humanEdit, carriedHumanLines: await carriedHumanLines(session.root, page.path), contract: session.ws.schema.contract });
  const ownerFields = OWNER_FIELDS.filter((field) => page.frontmatter[field] !== undefined);
  return { path: page.path, humanLines, ownerFields };
}

function describeKept(kept: KeptVerbatim): string {
  const parts = [
    ...(kept.humanLines.length > 0 ? [`${kept.humanLines.length} line(s) a person wrote`] : []),
    ...(kept.ownerFields.length > 0 ? [`owner field(s) ${kept.ownerFields.join(', ')}`] : []),
  ];
  return ` (${parts.join('; ')})`;
}

function linksOf(body: string): string[] {
  return [...new Set(extractInlineLinks(body).map((link) => link.target))];
}

function citationsOf(body: string): string[] {
  return [...new Set(body.match(CITATION) ?? [])];
}

/** A page as the model is handed it: its path and its whole text. */
interface PageText {
  path: string;
  text: string;
}

/** Pages in batches of about BATCH_CHARS of text (a larger page alone). */
function batchesOf(pages: readonly PageText[]): PageText[][] {
  const batches: PageText[][] = [];
  let current: PageText[] = [];
  let chars = 0;
  for (const page of pages) {
    if (current.length > 0 && chars + page.text.length > BATCH_CHARS) {
      batches.push(current);
      current = [];
      chars = 0;
    }
    current.push(page);
    chars += page.text.length;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

/** One batch: each page's text as it is, and what must stay word for word on it. */
function batchMessage(batch: readonly PageText[], kept: ReadonlyMap<string, KeptVerbatim>, number: number, total: number): string {
  const parts = [
    `Pages to write anew (batch ${number} of ${total}). For each, call write_file with its path and the whole page as content, written in the run's language.`,
  ];
  for (const page of batch) {
    const entry = kept.get(page.path);
    parts.push('', `## ${page.path}`);
    if (entry && entry.humanLines.length > 0) {
      parts.push('Lines a person wrote: copy each exactly as it is, untranslated:', ...entry.humanLines.map((line) => `> ${line}`));
    }
    if (entry && entry.ownerFields.length > 0) parts.push(`Owner fields to keep as they are: ${entry.ownerFields.join(', ')}.`);
    // A fence longer than any run of backticks in the page, so no page can close it early.
    const fence = '`'.repeat(Math.max(4, ...(page.text.match(/`+/g) ?? []).map((run) => run.length + 1)));
    parts.push(`${fence}markdown`, page.text.trimEnd(), fence);
  }
  return parts.join('\n');
}
