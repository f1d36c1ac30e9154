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
