import { z } from 'zod';
import { DEFAULT_WRITE_LIMITS, type ToolContext } from './context.js';
import { defineTool, failure } from './define.js';
import { checkAndSync, commitAndReport, currentContent, observerNote, writeTarget } from './page-write.js';
import { normalizeWorkspacePath } from './paths.js';
import type { Tool } from './types.js';

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
      'The page\'s `refs`, `sources` and `updated` are kept in step with what you append (new [[links]] join refs, files cited in ' +
      '<!-- from: --> comments join sources), so there is no need to rewrite the page for them.',
    args,
    mutates: true,
    async run({ path, content }, signal) {
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
      const grown = previous + separatorAfter(previous, content) + (content.endsWith('\n') ? content : `${content}\n`);
      if (Buffer.byteLength(grown, 'utf8') > limits.pageWriteBytes) {
        return failure(
          `refused: ${target.relative} would grow past the ${limits.pageWriteBytes}-byte page limit (limits.pageWriteBytes in wiki.config.json); ` +
            'start a new page instead',
        );
      }
      const appended = separatorAfter(previous, content) + (content.endsWith('\n') ? content : `${content}\n`);
      const next = previous + appended;

      const checked = await checkAndSync(ctx, target.relative, next, previous);
      const { verdict } = checked;
      if (!verdict.ok) {
        return failure(
          `rejected: nothing was appended to ${target.relative}, because the page would then be invalid:\n` +
            verdict.errors.map((reason) => `- ${reason}`).join('\n'),
        );
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
    },
  });
}

/** A newline between old and new text, and a blank line before a new heading. */
function separatorAfter(previous: string, content: string): string {
  if (previous === '') return '';
  const heading = content.trimStart().startsWith('#');
  if (previous.endsWith('\n\n')) return '';
  if (previous.endsWith('\n')) return heading ? '\n' : '';
  return heading ? '\n\n' : '\n';
}
