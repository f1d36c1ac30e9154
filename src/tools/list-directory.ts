import { z } from 'zod';
import type { ToolContext } from './context.js';
import { defineTool, failure, success } from './define.js';
import { isHiddenEntry, missingPathMessage } from './missing-path-hint.js';
import { resolveInSandbox } from './sandbox.js';
import type { Tool } from '../agent/tool.js';
import type { DirEntry } from './workspace-fs.js';

/** A folder with thousands of sources must not flood the context; the rest is counted. */
export const MAX_LISTED_ENTRIES = 1000;

const args = z.strictObject({
  path: z.string().describe('Folder relative to the workspace root, e.g. raw or wiki/concepts; "." (or "") for the root'),
});

/**
 * Entries sorted directories first, then by name (code-point order, so the listing is the
 * same on every machine). Hidden entries (dotfiles such as .wiki, .git, .env) are left out.
 */
export function createListDirectoryTool(ctx: ToolContext): Tool {
  return defineTool({
    name: 'list_directory',
    description:
      'List a folder of the workspace: each entry\'s name, kind (file, dir, symlink) and size in bytes, directories ' +
      'first, then by name. Hidden entries (.wiki, .git, .env files) are not shown. Use "." for the workspace root.',
    args,
    mutates: false,
    async run({ path }, signal) {
      const target = await resolveInSandbox(ctx.root, path.trim() === '' ? '.' : path, 'read', ctx.deny);
      const shown = target.relative || '.';
      const info = ctx.hides?.(target.relative) ? undefined : await ctx.fs.stat(target.absolute);
      if (!info) return failure(await missingPathMessage(ctx, target.relative));
      if (info.kind !== 'dir') return failure(`${shown} is a file, not a folder; use read_file("${shown}") to read it`);
      const entries = (await ctx.fs.list(target.absolute, signal))
        .filter((entry) => !isHiddenEntry(ctx, target.relative, entry.name))
        .map(({ name, kind, size }): DirEntry => ({ name, kind, size: kind === 'file' ? size : 0 }))
        .sort(directoriesFirst);
      const listed = entries.slice(0, MAX_LISTED_ENTRIES);
      const result: { path: string; entries: DirEntry[]; more?: number } = { path: shown, entries: listed };
      if (entries.length > listed.length) result.more = entries.length - listed.length;
      return success(JSON.stringify(result));
    },
  });
}

export function directoriesFirst(a: DirEntry, b: DirEntry): number {
  const rank = (entry: DirEntry): number => (entry.kind === 'dir' ? 0 : 1);
  return rank(a) - rank(b) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}
