import { z } from 'zod';
import { DEFAULT_WRITE_LIMITS, type ToolContext } from './context.js';
import { defineTool, errorOutcome, failure } from './define.js';
import { checkAndSync, commitAndReport, currentContent, observerNote, writeTarget } from './page-write.js';
import { normalizeWorkspacePath } from '../confine/paths.js';
import type { Tool, ToolOutcome, TurnCall } from '../agent/tool.js';
import { keyFromPath } from '../wiki/keys.js';
import { answerRefusals, explainedLinks, listKeys, missingLinkKey, refusedLinkNote, type RefusedWrite } from './refused-links.js';

const args = z.strictObject({
  path: z.string().describe('An existing page under wiki/, e.g. wiki/concepts/attention.md'),
  content: z.string().describe('Text to add at the end; a newline is put in between when needed'),
});

export function createAppendToFileTool(ctx: ToolContext): Tool {
  return defineTool({
    name: 'append_to_file',
    description:
      'Append markdown to the end of an existing page under wiki/, e.g. a new section. The whole page must still ' +
      'validate afterwards (every [[link]] must name an existing page); otherwise nothing is appended and the reasons are returned. ' +
      'It may link to pages that write_file calls of the same answer write: it is then appended after them. ' +
      'The page\'s `refs`, `sources` and `updated` are kept in step with what you append (new [[links]] join refs, files cited in ' +
      '<!-- from: --> comments join sources), so there is no need to rewrite the page for them.',
    args,
    mutates: true,
    async run({ path, content }, signal) {
      const outcome = await appendNow(ctx, path, content, signal);
      return 'awaits' in outcome ? failure('append_to_file could not be checked') : outcome;
    },
    openTurn: (calls) => openAppendTurn(ctx, calls),
  });
}

/** An append refused only for links to pages later write_file calls of its answer write: held until they are. */
interface Hold {
  awaits: ReadonlySet<string>;
}

/** An append that may not be held (`later`, a later call of its answer, names its page): the keys its answer's write_file calls write. */
interface CannotWait {
  later: number;
  keys: ReadonlySet<string>;
}

/**
 * Append now; with `pending` (keys write_file calls of the answer write), a refusal only for
 * links to those is a hold. `refusedWrites`: keys whose write_file calls of the answer were
 * refused, with their paths — a link to one is broken for that reason, and the refusal says so.
 */
async function appendNow(
  ctx: ToolContext,
  path: string,
  content: string,
  signal?: AbortSignal,
  pending: ReadonlySet<string> = new Set(),
  refusedWrites: ReadonlyMap<string, RefusedWrite> = new Map(),
  cannotWait?: CannotWait,
): Promise<ToolOutcome | Hold> {
  if (content.trim() === '') return failure('content is empty; give the text to append');
  const limits = ctx.writeLimits ?? DEFAULT_WRITE_LIMITS;
  const size = Buffer.byteLength(content, 'utf8');
  if (size > limits.appendBytes) {
    return failure(
      `refused: ${size} bytes is over the ${limits.appendBytes}-byte limit for one append (limits.appendBytes in wiki.config.json); ` +
        'append a shorter entry',
    );
  }
  const target = await writeTarget(ctx, normalizeWorkspacePath(path));
  const previous = await currentContent(ctx, target);
  if (previous === undefined) {
    return failure(`${target.relative} does not exist; create the page with write_file (frontmatter and body), then append to it`);
  }
  const appended = appendedText(previous, content);
  const next = previous + appended;
  if (Buffer.byteLength(next, 'utf8') > limits.pageWriteBytes) {
    return failure(
      `refused: ${target.relative} would grow past the ${limits.pageWriteBytes}-byte page limit (limits.pageWriteBytes in wiki.config.json); ` +
        'start a new page instead',
    );
  }

  const checked = await checkAndSync(ctx, target.relative, next, previous);
  const { verdict } = checked;
  if (!verdict.ok) {
    const awaits = new Set([...pending].filter((key) => appended.includes(`[[${key}`)));
    if (awaits.size > 0 && (await ctx.validator.validate(target.relative, next, previous, { linkKeys: awaits })).ok) return { awaits };
    // Links to pages its answer's write_file calls write, when a later call on its page kept it from waiting: not its fault (a played append was told to "create the page").
    const unwaited = cannotWait ? [...cannotWait.keys].filter((key) => !refusedWrites.has(key) && verdict.errors.some((error) => missingLinkKey(error) === key)) : [];
    const errors = verdict.errors.filter((error) => !unwaited.includes(missingLinkKey(error) ?? ''));
    const { kept, keys } = explainedLinks(errors, (key) => refusedWrites.has(key));
    const reasons = [...kept, ...keys.map((key) => refusedLinkNote(key, refusedWrites.get(key)?.paths ?? [], refusedWrites.get(key)?.reason))];
    if (cannotWait && unwaited.length > 0) {
      reasons.push(
        `its links to ${listKeys(unwaited)} name pages write_file calls of this answer write; it could not wait for them because call ${cannotWait.later + 1} of this answer also names ${target.relative}: once they are written, send it again`,
      );
    }
    return failure(`rejected: nothing was appended to ${target.relative}, because the page would then be invalid:\n` + reasons.map((reason) => `- ${reason}`).join('\n'));
  }
  const note = await observerNote(ctx, target.relative, previous);
  // A frontmatter kept in step changes the head of the page too: the whole page is written.
  const whole = checked.content !== next;
  return commitAndReport(
    ctx,
    target,
    previous,
    checked.content,
    'appended',
    {
      summary: `appended ${appended.length} characters to ${target.relative} (now ${checked.content.length})`,
      synced: checked.synced,
      warnings: verdict.warnings,
      note,
      failed: (message) => `append_to_file failed, ${target.relative} was not changed: ${message}`,
    },
    whole ? undefined : appended,
    signal,
  );
}

/**
 * The append_to_file calls of one answer. An append linking to pages that write_file calls
 * of the answer write (later ones, or earlier ones held for pages of their own) is held, and appended once the answer's writes have settled
 * (`settlesAfter`), checked against the wiki as it then is — played runs sent such appends
 * again in a turn of their own. An append whose page a later call of the answer also names
 * is never held (what that call sees would depend on the holding).
 */
function openAppendTurn(ctx: ToolContext, calls: readonly TurnCall[]) {
  const pathOf = (call: TurnCall): string | undefined => {
    const path = call.args?.path;
    if (typeof path !== 'string') return undefined;
    try {
      return normalizeWorkspacePath(path);
    } catch {
      return undefined;
    }
  };
  const writes = calls.flatMap((call) => {
    const path = call.name === 'write_file' ? pathOf(call) : undefined;
    return path === undefined ? [] : [{ index: call.index, key: keyFromPath(path) }];
  });
  // The answer's write_file calls refused so far (its batch records them): a link to one is broken for that reason.
  const refusedWrites = answerRefusals(calls);
  const held = new Map<number, { path: string; content: string; awaits: ReadonlySet<string> }>();
  return {
    settlesAfter: ['write_file'],
    async run(index: number, { path, content }: { path: string; content: string }, signal?: AbortSignal): Promise<ToolOutcome | undefined> {
      const own = pathOf({ index, name: 'append_to_file', args: { path } });
      // Only a later call on the same page would see the page differently for the hold: an earlier one has run (or,
      // held itself, settles before appends do), and one refused for its arguments' shape changes and sees nothing.
      const later = calls.find((call) => call.index > index && own !== undefined && pathOf(call) === own && wellFormed(call));
      // Any write_file call of the answer: one before it may be held, waiting for pages of its own.
      const keys = new Set(writes.map((write) => write.key));
      const pending = later ? new Set<string>() : keys;
      const outcome = await appendNow(ctx, path, content, signal, pending, refusedWrites, later ? { later: later.index, keys } : undefined);
      if (!('awaits' in outcome)) return outcome;
      held.set(index, { path, content, awaits: outcome.awaits });
      return undefined;
    },
    async settle(signal?: AbortSignal): Promise<ReadonlyMap<number, ToolOutcome>> {
      const answers = new Map<number, ToolOutcome>();
      for (const [index, call] of held) {
        const keys = [...call.awaits].map((key) => `[[${key}]]`).join(', ');
        if (signal?.aborted === true) {
          answers.set(index, failure(`not appended: ${call.path} was to be appended after ${keys} of this answer, and the run was interrupted first`));
          continue;
        }
        try {
          // A played answer's knock-on refusals said only "create the page": they name the write of this answer that was refused.
          const outcome = await appendNow(ctx, call.path, call.content, signal, new Set(), refusedWrites);
          answers.set(index, 'awaits' in outcome ? failure('append_to_file could not be checked') : outcome.isError ? outcome : { ...outcome, content: `${outcome.content}\n(appended after the pages it links to that this answer wrote: ${keys})` });
        } catch (error) {
          answers.set(index, errorOutcome('append_to_file', error));
        }
      }
      return answers;
    },
  };
}

/** Whether a call's arguments have the shape its tool takes, so it will run (a write_file needs its content or a list of edits). */
function wellFormed(call: TurnCall): boolean {
  const args = call.args ?? {};
  if (call.name === 'write_file') return typeof args.content === 'string' || Array.isArray(args.edits);
  if (call.name === 'append_to_file') return typeof args.content === 'string';
  return true;
}

/**
 * What goes after the page's text: the new text on a line of its own, after one blank line
 * when it opens with a heading or with blank lines of its own (never two: a played run's
 * "\n## See also" after a page ending in a newline left a double blank line), and ending
 * with a newline.
 */
export function appendedText(previous: string, content: string): string {
  const body = content.replace(/^\n+/, '');
  const text = body.endsWith('\n') ? body : `${body}\n`;
  if (previous === '') return text;
  const newlinesWanted = body.trimStart().startsWith('#') || body !== content ? 2 : 1;
  const newlinesThere = /\n*$/.exec(previous)?.[0].length ?? 0;
  return '\n'.repeat(Math.max(0, newlinesWanted - newlinesThere)) + text;
}
