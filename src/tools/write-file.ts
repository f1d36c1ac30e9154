import { z } from 'zod';
import { DEFAULT_WRITE_LIMITS, type ToolContext } from './context.js';
import { defineTool, failure, success } from './define.js';
import { checkAndSync, commitAndReport, currentContent, observerNote, pageFolders, writeTarget } from './page-write.js';
import { normalizeWorkspacePath } from './paths.js';
import type { Tool } from './types.js';

const args = z.strictObject({
  path: z.string().describe('Page path under wiki/, ending in .md, e.g. wiki/concepts/attention.md (the file name is the page key)'),
  content: z.string().describe('The whole page: YAML frontmatter between --- lines, then the markdown body'),
});

export function createWriteFileTool(ctx: ToolContext): Tool {
  return defineTool({
    name: 'write_file',
    description:
      'Create or replace a whole markdown page under wiki/. The page is validated first (frontmatter fields, key, ' +
      'every [[link]] and refs entry must name an existing page); if anything is wrong nothing is written and every ' +
      'reason is returned with the closest existing keys: fix them and send the whole page again. ' +
      'The tool keeps `refs`, `sources` and `updated` in step with the body: every [[link]] joins refs, every file a ' +
      '<!-- from: --> comment cites joins sources, updated becomes today (the result says what it added). ' +
      `Pages live in the type folders (${pageFolders(ctx.contract).join(', ')}); ${ctx.contract.index} is maintained by the tool; raw/ and schema.md are read-only.`,
    args,
    mutates: true,
    async run({ path, content }, signal) {
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

      const checked = await checkAndSync(ctx, target.relative, content, previous);
      const { verdict } = checked;
      if (!verdict.ok) {
        const reasons = verdict.errors.length > 0 ? verdict.errors : ['the validator rejected the page without giving a reason'];
        return failure(
          `rejected: ${target.relative} was not written. Fix every point below and call write_file again with the whole page:\n` +
            reasons.map((reason) => `- ${reason}`).join('\n'),
        );
      }
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
          summary: `${change} ${target.relative} (${checked.content.length} characters)`,
          synced: checked.synced,
          warnings: verdict.warnings,
          note,
          failed: (message) => `write_file failed, ${target.relative} was not written: ${message}`,
        },
        undefined,
        signal,
      );
    },
  });
}
