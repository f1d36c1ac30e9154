import type { ToolContext, ValidationVerdict, WriteAlongside, WriteChange } from './context.js';
import { USER_SCOPE_ROOT } from '../wiki/access.js';
import { isSpecialPage, type Contract } from '../wiki/contract.js';
import { SandboxError } from '../errors.js';
import { invalidUtf8Offset, NOT_UTF8_FIX, notUtf8Message } from '../util/utf8.js';
import { resolveInSandbox, type SandboxPath } from './sandbox.js';
import { failure, success } from './define.js';
import type { ToolOutcome } from '../agent/tool.js';
import { unlessAborted } from '../util/abort.js';
import { isoDate } from '../util/dates.js';
import { describeSync, syncFrontmatter } from '../wiki/frontmatter-drift.js';
import { parsePage } from '../wiki/page.js';

/**
 * The steps write_file and append_to_file share: where a write may land, what is there now,
 * and committing it (history hook, atomic write, search index, after-hook).
 */

/**
 * Resolve a write target and refuse what the model may not write: the files the tool itself
 * maintains, anything but a markdown page, and places outside the contract's type folders.
 */
export async function writeTarget(ctx: ToolContext, requested: string): Promise<SandboxPath> {
  const target = await resolveInSandbox(ctx.root, requested, 'write', ctx.deny);
  if (target.real !== target.relative) {
    throw new SandboxError(`${target.relative} is a symbolic link to ${target.real}; write ${target.real} itself`);
  }
  if (target.relative === ctx.contract.log) {
    throw new SandboxError(`${target.relative} is written by the tool alone: every run adds exactly one entry for itself when it ends, so leave it out of your work`);
  }
  if (isSpecialPage(ctx.contract, target.relative)) {
    throw new SandboxError(`${target.relative} is maintained by the tool: it is regenerated from every page's title and summary after each run, so new pages appear there without you writing it`);
  }
  if (!isMarkdown(target.relative)) {
    throw new SandboxError(`only markdown pages can be written, so the path must end in .md (got ${target.relative})`);
  }
  const folders = [...pageFolders(ctx.contract), ...(ctx.user ? scratchFolders(ctx.contract, ctx.user) : [])];
  if (!folders.some((folder) => target.relative.startsWith(`${folder}/`))) {
    throw new SandboxError(`${target.relative} is outside the page folders; put the page in one of ${folders.map((f) => `${f}/`).join(', ')} (by its type)`);
  }
  return target;
}

/** The folders pages may be written to: one per type of the contract. */
export function pageFolders(contract: Contract): string[] {
  return Object.values(contract.types).map((type) => type.folder);
}

/**
 * A user's scratch scope holds pages only, in the team's type folders under
 * `wiki/user/<name>/` (wiki/user/alice/concepts/…): never another user's scope nested in
 * it, nor a log.md or index.md that `wiki promote` would carry over the team's.
 */
export function scratchFolders(contract: Contract, user: string): string[] {
  return pageFolders(contract)
    .filter((folder) => folder.startsWith('wiki/'))
    .map((folder) => `${USER_SCOPE_ROOT}${user}/${folder.slice('wiki/'.length)}`);
}

/** Current content, `undefined` when the file does not exist; a directory, or a file that is not UTF-8, is refused. */
export async function currentContent(ctx: ToolContext, target: SandboxPath): Promise<string | undefined> {
  const info = await ctx.fs.stat(target.absolute);
  if (!info) return undefined;
  if (info.kind === 'dir') throw new SandboxError(`${target.relative} is a directory; give a file path such as ${target.relative}/page.md`);
  if (info.kind !== 'file') throw new SandboxError(`${target.relative} is not a regular file and cannot be written`);
  const bytes = await ctx.fs.readBytes(target.absolute);
  const badByte = invalidUtf8Offset(bytes);
  if (badByte !== undefined) {
    throw new SandboxError(`${notUtf8Message(target.relative, badByte)}; leave it to a human (${NOT_UTF8_FIX}) and write elsewhere`);
  }
  return Buffer.from(bytes).toString('utf8');
}

export function isMarkdown(relative: string): boolean {
  return relative.toLowerCase().endsWith('.md');
}

/**
 * Write `next` (whole content) — or append `appended`, which turns `previous` into `next` —
 * and tell the ports. A failing before-hook cancels the write (history must hold the
 * before-image first); failures after the write are reported as notes, since the file
 * did change and the model must not repeat the call.
 */
export async function commitWrite(
  ctx: ToolContext,
  target: SandboxPath,
  previous: string | undefined,
  next: string,
  change: WriteChange,
  appended?: string,
  signal?: AbortSignal,
): Promise<string[]> {
  await ctx.observer?.beforeWrite?.(target.relative, previous);
  // An append lands on the file as it is then: what it holds afterwards is what the hooks hear.
  let written = next;
  if (appended !== undefined && previous !== undefined) written = await ctx.fs.appendText(target.absolute, appended);
  else await ctx.fs.writeText(target.absolute, next);
  const notes: string[] = [];
  if (isMarkdown(target.relative) && target.relative !== ctx.contract.log) {
    try {
      // The index is a cache the next scan repairs: an interrupt does not wait for it (a stalled embeddings endpoint).
      const interrupted = 'the run was interrupted before the search index was updated';
      const skipped = await unlessAborted(ctx.search.upsert(target.relative, written).then(() => undefined), signal, () => interrupted);
      if (skipped) notes.push(skipped);
    } catch (error) {
      notes.push(`the search index was not updated (${(error as Error).message}), so search_wiki may miss this page for now`);
    }
  }
  try {
    await ctx.observer?.afterWrite?.(target.relative, change, written);
  } catch (error) {
    notes.push(`after-write bookkeeping failed: ${(error as Error).message}`);
  }
  return notes;
}

/** What a write tool tells the model about a checked write it commits. */
export interface WriteReport {
  /** The answer's first line, e.g. `created wiki/concepts/a.md (120 characters)`. */
  summary: string;
  /** What the tool kept in step in the frontmatter, e.g. `added to refs: a, b; updated: 2026-11-28`. */
  synced?: string | undefined;
  warnings: readonly string[];
  /** The observer's note, taken before the write (see observerNote). */
  note: string | undefined;
  /** The answer when the write itself fails (nothing changed), given the error's message. */
  failed: (message: string) => string;
}

/** Commit a checked write (see commitWrite) and answer: the summary, then its warnings and notes. */
export async function commitAndReport(
  ctx: ToolContext,
  target: SandboxPath,
  previous: string | undefined,
  next: string,
  change: WriteChange,
  report: WriteReport,
  appended?: string,
  signal?: AbortSignal,
): Promise<ToolOutcome> {
  let notes: string[];
  try {
    notes = await commitWrite(ctx, target, previous, next, change, appended, signal);
  } catch (error) {
    return failure(report.failed((error as Error).message));
  }
  const lines = [report.summary];
  if (report.synced) lines.push(`frontmatter kept in step with the body: ${report.synced}`);
  for (const warning of report.warnings) lines.push(`warning: ${warning}`);
  if (report.note) lines.push(`note: ${report.note}`);
  for (const extra of notes) lines.push(`note: ${extra}`);
  return success(lines.join('\n'), [{ path: target.relative, change }]);
}

/** The observer's note for a path; a failing observer must not fail the tool call. */
export async function observerNote(ctx: ToolContext, relative: string, current?: string): Promise<string | undefined> {
  try {
    return (await ctx.observer?.noteFor?.(relative, current)) ?? undefined;
  } catch {
    return undefined;
  }
}

/** A checked page with its frontmatter put in step with its body (see syncFrontmatter). */
export interface CheckedPage {
  /** What to write: the model's page, with refs, sources and updated kept in step. */
  content: string;
  verdict: ValidationVerdict;
  /** What the tool changed in the frontmatter, for the model (undefined: nothing). */
  synced: string | undefined;
}

/**
 * Validate `content` as the model sent it, then keep its frontmatter in step with the body
 * (every linked page in `refs`, every cited file in `sources`, `updated` today) and validate
 * that: the model's own mistakes are reported as it made them, and what the tool adds is
 * checked like anything else. Returns the rejected verdict when either check fails.
 * `alongside`: other pages of the same answer counted as existing (see WriteAlongside).
 */
export async function checkAndSync(
  ctx: ToolContext,
  relative: string,
  content: string,
  previous: string | undefined,
  alongside?: WriteAlongside,
): Promise<CheckedPage> {
  const verdict = await ctx.validator.validate(relative, content, previous, alongside);
  if (!verdict.ok) return { content, verdict, synced: undefined };
  const sync = syncFrontmatter(content, parsePage(relative, content, ctx.contract), (ctx.today ?? isoDate)());
  if (sync.text === content) return { content, verdict, synced: undefined };
  const synced = describeSync(sync);
  if (sync.text === previous) return { content: sync.text, verdict, synced };
  const after = await ctx.validator.validate(relative, sync.text, previous, alongside);
  return { content: sync.text, verdict: after, synced };
}
