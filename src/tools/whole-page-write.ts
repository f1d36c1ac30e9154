import type { ToolContext, WriteAlongside } from './context.js';
import { DEFAULT_WRITE_LIMITS } from './context.js';
import { failure, success } from './define.js';
import { checkAndSync, commitAndReport, currentContent, observerNote, writeTarget, type CheckedPage } from './page-write.js';
import { normalizeWorkspacePath } from '../confine/paths.js';
import type { SandboxPath } from './sandbox.js';
import type { ToolOutcome } from '../agent/tool.js';
import { keyFromPath } from '../wiki/keys.js';

/**
 * The steps of one write_file call — where it lands and what is there now, the check, the
 * refusal, the commit — so a call can be checked, held and checked again before it lands
 * (see write-turn.ts).
 */

/** A whole page the model sent, placed: where it goes, its key, and what is there now. */
export interface PlacedPage {
  target: SandboxPath;
  key: string;
  previous: string | undefined;
  content: string;
}

/**
 * Place a page: the size cap, the sandbox and the type folders (a SandboxError is thrown),
 * what the file holds now. The answer at once when nothing needs checking (over the cap,
 * already this content).
 */
export async function placePage(ctx: ToolContext, path: string, content: string): Promise<PlacedPage | ToolOutcome> {
  const cap = (ctx.writeLimits ?? DEFAULT_WRITE_LIMITS).pageWriteBytes;
  const size = Buffer.byteLength(content, 'utf8');
  if (size > cap) {
    return failure(
      `refused: the page is ${size} bytes, over the ${cap}-byte limit for one page (limits.pageWriteBytes in wiki.config.json); ` +
        'split it into several smaller pages that link to each other',
    );
  }
  const target = await writeTarget(ctx, normalizeWorkspacePath(path));
  const previous = await currentContent(ctx, target);
  if (previous === content) return success(`unchanged: ${target.relative} already has exactly this content`);
  return { target, key: keyFromPath(target.relative), previous, content };
}

export function isAnswer(step: PlacedPage | ToolOutcome): step is ToolOutcome {
  return 'isError' in step;
}

/** Validate a placed page (with its frontmatter kept in step), `alongside` counted as existing. */
export async function checkPage(ctx: ToolContext, page: PlacedPage, alongside?: WriteAlongside): Promise<CheckedPage> {
  return checkAndSync(ctx, page.target.relative, page.content, page.previous, alongside);
}

/** The refusal of a page that failed its check: every reason, then `extra` points. */
export function refusePage(relative: string, errors: readonly string[], extra: readonly string[] = []): ToolOutcome {
  const reasons = errors.length > 0 ? [...errors] : ['the validator rejected the page without giving a reason'];
  return failure(
    `rejected: ${relative} was not written. Fix every point below and call write_file again with the whole page:\n` +
      [...reasons, ...extra].map((reason) => `- ${reason}`).join('\n'),
  );
}

/** Write a page that passed its check and answer; `when` tells how it came to be written (after the pages it links to…). */
export async function commitPage(ctx: ToolContext, page: PlacedPage, checked: CheckedPage, signal?: AbortSignal, when?: string): Promise<ToolOutcome> {
  const { target, previous } = page;
  if (previous === checked.content) return success(`unchanged: ${target.relative} already has exactly this content (with its frontmatter in step)`);
  const change = previous === undefined ? 'created' : 'updated';
  const note = previous === undefined ? undefined : await observerNote(ctx, target.relative, previous);
  return commitAndReport(
    ctx,
    target,
    previous,
    checked.content,
    change,
    {
      summary: `${change} ${target.relative} (${checked.content.length} characters)${when === undefined ? '' : `, ${when}`}`,
      synced: checked.synced,
      warnings: checked.verdict.warnings,
      note,
      failed: (message) => `write_file failed, ${target.relative} was not written: ${message}`,
    },
    undefined,
    signal,
  );
}
