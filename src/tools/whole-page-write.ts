import type { ToolContext, WriteAlongside } from './context.js';
import { DEFAULT_WRITE_LIMITS } from './context.js';
import { failure, success } from './define.js';
import { checkAndSync, commitAndReport, currentContent, observerNote, writeTarget, type CheckedPage } from './page-write.js';
import { normalizeWorkspacePath } from '../confine/paths.js';
import type { SandboxPath } from './sandbox.js';
import type { ToolOutcome } from '../agent/tool.js';
import { applyEdits, type PageEdit } from './page-edits.js';
import { keyFromPath } from '../wiki/keys.js';

/**
 * The steps of one write_file call — where it lands and what is there now, the check, the
 * refusal, the commit — so a call can be checked, held and checked again before it lands
 * (see write-turn.ts).
 */

/** write_file's arguments (see write-file.ts). */
export interface WriteFileArgs {
  path: string;
  content?: string | undefined;
  edits?: PageEdit[] | undefined;
}

/** The call's whole page or its edits; a call with both, or neither, is answered at once. */
export function writeRequest(call: WriteFileArgs): WriteRequest | ToolOutcome {
  if (call.content !== undefined && call.edits !== undefined) {
    return failure('invalid arguments for write_file: give content (the whole page) or edits (changes to the page), not both');
  }
  if (call.edits !== undefined) return { edits: call.edits };
  if (call.content !== undefined) return { content: call.content };
  return failure('invalid arguments for write_file: give content (the whole page) or edits (a list of { old, new } changes to the existing page)');
}

/** What one write_file call asks for: the whole page, or edits to the page as it is. */
export type WriteRequest = { content: string; edits?: undefined } | { edits: PageEdit[]; content?: undefined };

/** A page the model sent (or its edits made), placed: where it goes, its key, and what is there now. */
export interface PlacedPage {
  target: SandboxPath;
  key: string;
  previous: string | undefined;
  content: string;
  /** Made by edits: how many, and the line of each in the new page. */
  edited?: { count: number; lines: number[] };
}

/**
 * Place a page: the sandbox and the type folders (a SandboxError is thrown), what the file
 * holds now, the edits applied to it, the size cap. The answer at once when nothing needs
 * checking (over the cap, an edit that cannot be made, already this content).
 */
export async function placePage(ctx: ToolContext, path: string, request: WriteRequest): Promise<PlacedPage | ToolOutcome> {
  const cap = (ctx.writeLimits ?? DEFAULT_WRITE_LIMITS).pageWriteBytes;
  const tooLarge = (content: string): ToolOutcome | undefined => {
    const size = Buffer.byteLength(content, 'utf8');
    if (size <= cap) return undefined;
    return failure(
      `refused: the page ${request.edits ? 'would be' : 'is'} ${size} bytes, over the ${cap}-byte limit for one page (limits.pageWriteBytes in wiki.config.json); ` +
        'split it into several smaller pages that link to each other',
    );
  };
  if (request.edits === undefined) {
    const refusal = tooLarge(request.content);
    if (refusal) return refusal;
  }
  const target = await writeTarget(ctx, normalizeWorkspacePath(path));
  const previous = await currentContent(ctx, target);
  if (request.edits === undefined) {
    if (previous === request.content) return success(`unchanged: ${target.relative} already has exactly this content`);
    return { target, key: keyFromPath(target.relative), previous, content: request.content };
  }
  if (previous === undefined) {
    return failure(`rejected: ${target.relative} does not exist, so it cannot be edited; create it with write_file and the whole page as content`);
  }
  const edited = applyEdits(previous, request.edits);
  if (!edited.ok) {
    return failure(
      `rejected: ${target.relative} was not changed (no edit is made unless every one can be). Fix every point below and call write_file again with the edits:\n` +
        edited.problems.map((problem) => `- ${problem}`).join('\n'),
    );
  }
  const refusal = tooLarge(edited.text);
  if (refusal) return refusal;
  if (edited.text === previous) return success(`unchanged: the edits leave ${target.relative} as it is`);
  return { target, key: keyFromPath(target.relative), previous, content: edited.text, edited: { count: request.edits.length, lines: edited.lines } };
}

export function isAnswer<T extends object>(step: T | ToolOutcome): step is ToolOutcome {
  return 'isError' in step;
}

/** Validate a placed page (with its frontmatter kept in step), `alongside` counted as existing. */
export async function checkPage(ctx: ToolContext, page: PlacedPage, alongside?: WriteAlongside): Promise<CheckedPage> {
  return checkAndSync(ctx, page.target.relative, page.content, page.previous, alongside);
}

/** The refusal of a page that failed its check: every reason, then `extra` points. */
export function refusePage(page: PlacedPage, errors: readonly string[], extra: readonly string[] = []): ToolOutcome {
  const reasons = errors.length > 0 || extra.length > 0 ? [...errors] : ['the validator rejected the page without giving a reason'];
  const head = page.edited
    ? `rejected: ${page.target.relative} was not changed: the page your edits would leave fails its check (line numbers below are of that page). Fix every point below and call write_file again with the edits:`
    : `rejected: ${page.target.relative} was not written. Fix every point below and call write_file again with the whole page:`;
  return failure(`${head}\n${[...reasons, ...extra].map((reason) => `- ${reason}`).join('\n')}`);
}

/** Write a page that passed its check and answer; `when` tells how it came to be written (after the pages it links to…). */
export async function commitPage(ctx: ToolContext, page: PlacedPage, checked: CheckedPage, signal?: AbortSignal, when?: string): Promise<ToolOutcome> {
  const { target, previous } = page;
  if (previous === checked.content) return success(`unchanged: ${target.relative} already has exactly this content (with its frontmatter in step)`);
  const change = previous === undefined ? 'created' : 'updated';
  const note = previous === undefined ? undefined : await observerNote(ctx, target.relative, previous);
  const made = page.edited
    ? `edited ${target.relative}: ${page.edited.count} ${page.edited.count === 1 ? 'edit' : 'edits'} (now at line${page.edited.lines.length === 1 ? '' : 's'} ${page.edited.lines.join(', ')}); the page is now ${checked.content.length} characters`
    : `${change} ${target.relative} (${checked.content.length} characters)`;
  return commitAndReport(
    ctx,
    target,
    previous,
    checked.content,
    change,
    {
      summary: `${made}${when === undefined ? '' : `, ${when}`}`,
      synced: checked.synced,
      warnings: checked.verdict.warnings,
      note,
      failed: (message) => `write_file failed, ${target.relative} was not written: ${message}`,
    },
    undefined,
    signal,
  );
}
