import { z } from 'zod';
import type { ToolContext } from './context.js';
import { defineTool } from './define.js';
import { pageFolders } from './page-write.js';
import type { Tool } from '../agent/tool.js';
import { checkPage, commitPage, isAnswer, placePage, refusePage, writeRequest } from './whole-page-write.js';
import { openWriteTurn } from './write-turn.js';

const args = z.strictObject({
  path: z.string().describe('Page path under wiki/, ending in .md, e.g. wiki/concepts/attention.md (the file name is the page key)'),
  content: z.string().optional().describe('The whole page: YAML frontmatter between --- lines, then the markdown body'),
  edits: z
    .array(z.strictObject({ old: z.string().describe('Exact text of the page, found there once'), new: z.string().describe('Its replacement') }))
    .optional()
    .describe('Instead of content: changes to the existing page, all made or none'),
});

export function createWriteFileTool(ctx: ToolContext): Tool {
  return defineTool({
    name: 'write_file',
    description:
      'Create or replace a whole markdown page under wiki/ (content), or change part of an existing page (edits: for a sentence, ' +
      'a citation, a link or a section, each { old, new } replaces text copied exactly from the page, found there once). ' +
      'The page is validated first (frontmatter fields, key, ' +
      'every [[link]] and refs entry must name an existing page, or one another write_file call of the same answer writes); ' +
      'if anything is wrong nothing is written and every ' +
      'reason is returned with the closest existing keys: fix them and call again. ' +
      'New pages written in one answer may link to each other: a page linking to a page written later in the answer is ' +
      'written after it, and pages linking to each other are written together only if every one of them passes. ' +
      'The tool keeps `refs`, `sources` and `updated` in step with the body: every [[link]] joins refs, every file a ' +
      '<!-- from: --> comment cites joins sources, updated becomes today (the result says what it added). ' +
      `Pages live in the type folders (${pageFolders(ctx.contract).join(', ')}); ${ctx.contract.index} is maintained by the tool; raw/ and schema.md are read-only.`,
    args,
    mutates: true,
    async run(call, signal) {
      const request = writeRequest(call);
      if (isAnswer(request)) return request;
      const page = await placePage(ctx, call.path, request);
      if (isAnswer(page)) return page;
      const checked = await checkPage(ctx, page);
      if (!checked.verdict.ok) return refusePage(page, checked.verdict.errors);
      return commitPage(ctx, page, checked, signal);
    },
    openTurn: (calls) => openWriteTurn(ctx, calls),
  });
}
