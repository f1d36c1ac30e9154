import { z } from 'zod';
import { LOG_HEADING } from '../wiki/log.js';
import { DEFAULT_WRITE_LIMITS, type ToolContext } from './context.js';
import { defineTool, failure, success } from './define.js';
import { commitWrite, currentContent, isMarkdown, observerNote, writeTarget } from './page-write.js';
import { normalizeWorkspacePath } from './paths.js';
import type { Tool } from './types.js';

const args = z.strictObject({
  path: z.string().describe('File under wiki/, usually the log, e.g. wiki/log.md'),
  content: z.string().describe('Text to add at the end; a newline is put in between when needed'),
});

export function createAppendToFileTool(ctx: ToolContext): Tool {
  return defineTool({
    name: 'append_to_file',
    description:
      `Append text to the end of a file under wiki/ — mainly ${ctx.contract.log}, whose entries start with a heading ` +
      '"## [YYYY-MM-DD] op | title". Appending to a page is allowed only if the whole page still validates; ' +
      `${ctx.contract.index} is maintained by the tool.`,
    args,
    mutates: true,
    async run({ path, content }) {
      const relative = normalizeWorkspacePath(path);
      if (content.trim() === '') return failure('content is empty; give the text to append');
      const limits = ctx.writeLimits ?? DEFAULT_WRITE_LIMITS;
      const size = Buffer.byteLength(content, 'utf8');
      if (size > limits.appendBytes) {
        return failure(
          `refused: ${size} bytes is over the ${limits.appendBytes}-byte limit for one append (limits.appendBytes in wiki.config.json); ` +
            'append a shorter entry',
        );
      }
      const target = await writeTarget(ctx, relative, 'append_to_file');
      const previous = await currentContent(ctx, target);
      const appended = separatorAfter(previous ?? '', content) + (content.endsWith('\n') ? content : `${content}\n`);
      const next = (previous ?? '') + appended;

      if (Buffer.byteLength(next, 'utf8') > limits.pageWriteBytes && isMarkdown(target.relative) && target.relative !== ctx.contract.log) {
        return failure(
          `refused: ${target.relative} would grow past the ${limits.pageWriteBytes}-byte page limit (limits.pageWriteBytes in wiki.config.json); ` +
            'start a new page instead',
        );
      }
      const isLog = target.relative === ctx.contract.log;
      const warnings: string[] = [];
      if (isLog && !content.split('\n').some((line) => LOG_HEADING.test(line))) {
        warnings.push('log entries should start with a heading like "## [2026-01-31] ingest | Source title"');
      }
      if (!isLog && isMarkdown(target.relative)) {
        const verdict = await ctx.validator.validate(target.relative, next);
        if (!verdict.ok) {
          return failure(
            `rejected: nothing was appended to ${target.relative}, because the page would then be invalid:\n` +
              verdict.errors.map((reason) => `- ${reason}`).join('\n'),
          );
        }
        warnings.push(...verdict.warnings);
      }

      const change = previous === undefined ? 'created' : 'appended';
      const note = previous === undefined ? undefined : await observerNote(ctx, target.relative);
      let notes: string[];
      try {
        notes = await commitWrite(ctx, target, previous, next, change, appended);
      } catch (error) {
        return failure(`append_to_file failed, ${target.relative} was not changed: ${(error as Error).message}`);
      }
      const lines = [
        change === 'created'
          ? `created ${target.relative} (${next.length} characters)`
          : `appended ${appended.length} characters to ${target.relative} (now ${next.length})`,
      ];
      for (const warning of warnings) lines.push(`warning: ${warning}`);
      if (note) lines.push(`note: ${note}`);
      for (const extra of notes) lines.push(`note: ${extra}`);
      return success(lines.join('\n'), [{ path: target.relative, change }]);
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
