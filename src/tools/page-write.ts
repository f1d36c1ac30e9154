import type { ToolContext, WriteChange } from './context.js';
import { USER_SCOPE_ROOT } from '../wiki/access.js';
import { isSpecialPage, type Contract } from '../wiki/contract.js';
import { SandboxError } from '../errors.js';
import { resolveInSandbox, type SandboxPath } from './sandbox.js';
import { unlessAborted } from '../util/abort.js';

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
  const folders = [...pageFolders(ctx.contract), ...(ctx.user ? [`${USER_SCOPE_ROOT}${ctx.user}`] : [])];
  if (!folders.some((folder) => target.relative.startsWith(`${folder}/`))) {
    throw new SandboxError(`${target.relative} is outside the page folders; put the page in one of ${folders.map((f) => `${f}/`).join(', ')} (by its type)`);
  }
  return target;
}

/** The folders pages may be written to: one per type of the contract. */
export function pageFolders(contract: Contract): string[] {
  return Object.values(contract.types).map((type) => type.folder);
}

/** Current content, `undefined` when the file does not exist; a directory is refused. */
export async function currentContent(ctx: ToolContext, target: SandboxPath): Promise<string | undefined> {
  const info = await ctx.fs.stat(target.absolute);
  if (!info) return undefined;
  if (info.kind === 'dir') throw new SandboxError(`${target.relative} is a directory; give a file path such as ${target.relative}/page.md`);
  if (info.kind !== 'file') throw new SandboxError(`${target.relative} is not a regular file and cannot be written`);
  return ctx.fs.readText(target.absolute);
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
  if (appended !== undefined && previous !== undefined) await ctx.fs.appendText(target.absolute, appended);
  else await ctx.fs.writeText(target.absolute, next);
  const notes: string[] = [];
  if (isMarkdown(target.relative) && target.relative !== ctx.contract.log) {
    try {
      // The index is a cache the next scan repairs: an interrupt does not wait for it (a stalled embeddings endpoint).
      const interrupted = 'the run was interrupted before the search index was updated';
      const skipped = await unlessAborted(ctx.search.upsert(target.relative, next).then(() => undefined), signal, () => interrupted);
      if (skipped) notes.push(skipped);
    } catch (error) {
      notes.push(`the search index was not updated (${(error as Error).message}), so search_wiki may miss this page for now`);
    }
  }
  try {
    await ctx.observer?.afterWrite?.(target.relative, change);
  } catch (error) {
    notes.push(`after-write bookkeeping failed: ${(error as Error).message}`);
  }
  return notes;
}

/** The observer's note for a path; a failing observer must not fail the tool call. */
export async function observerNote(ctx: ToolContext, relative: string): Promise<string | undefined> {
  try {
    return (await ctx.observer?.noteFor?.(relative)) ?? undefined;
  } catch {
    return undefined;
  }
}
