import { distance } from 'fastest-levenshtein';
import type { ToolContext } from './context.js';
import { deniedPathReason } from '../confine/paths.js';
import { resolveInSandbox } from './sandbox.js';

const MAX_SUGGESTIONS = 5;

/**
 * The message for a path that does not exist: the closest names in its folder, or, when the
 * folder itself is missing, the nearest folder that does exist. Names the sandbox hides
 * are never suggested.
 */
export async function missingPathMessage(ctx: ToolContext, relative: string): Promise<string> {
  const segments = relative.split('/');
  const name = segments.pop() ?? relative;
  const folder = segments.join('/');
  const folderShown = folder === '' ? 'the workspace root' : `${folder}/`;
  const listing = await visibleNames(ctx, folder);
  if (listing) {
    const close = closestNames(name, listing);
    const hint = close.length > 0 ? ` Close names in ${folderShown}: ${close.join(', ')}.` : '';
    return `${relative} does not exist.${hint} Use list_directory("${folder || '.'}") to see what is there.`;
  }
  for (let depth = segments.length - 1; depth >= 0; depth--) {
    const ancestor = segments.slice(0, depth).join('/');
    if (await visibleNames(ctx, ancestor)) {
      return `${relative} does not exist: there is no folder ${folder}/. The nearest existing folder is ${ancestor || '.'}; use list_directory("${ancestor || '.'}") to see it.`;
    }
  }
  return `${relative} does not exist.`;
}

async function visibleNames(ctx: ToolContext, folder: string): Promise<string[] | undefined> {
  try {
    if (folder !== '' && ctx.hides?.(folder)) return undefined;
    const target = await resolveInSandbox(ctx.root, folder === '' ? '.' : folder, 'read', ctx.deny);
    const info = await ctx.fs.stat(target.absolute);
    if (info?.kind !== 'dir') return undefined;
    const entries = await ctx.fs.list(target.absolute);
    return entries.map((entry) => entry.name).filter((entry) => !isHiddenEntry(ctx, target.relative, entry));
  } catch {
    return undefined;
  }
}

/**
 * Hidden from listings and suggestions: dotfiles (.wiki, .git, .env*), denied files and
 * folders, and what the model may not see (other users' scratch folders, `never` pages).
 */
export function isHiddenEntry(ctx: Pick<ToolContext, 'deny' | 'hides'>, folder: string, name: string): boolean {
  const relPath = folder === '' ? name : `${folder}/${name}`;
  return name.startsWith('.') || deniedPathReason(relPath, ctx.deny) !== undefined || ctx.hides?.(relPath) === true;
}

export function closestNames(wanted: string, names: readonly string[]): string[] {
  const target = wanted.toLowerCase();
  const stem = stripExtension(target);
  return names
    .map((name) => {
      const lower = name.toLowerCase();
      const score = Math.min(distance(target, lower), distance(stem, stripExtension(lower)));
      const otherStem = stripExtension(lower);
      const related = stem.length >= 3 && otherStem.length >= 3 && (otherStem.includes(stem) || stem.includes(otherStem));
      return { name, score, related };
    })
    .filter(({ score, related, name }) => score <= Math.max(2, Math.floor(name.length / 3)) || related)
    .sort((a, b) => a.score - b.score || (a.name < b.name ? -1 : 1))
    .slice(0, MAX_SUGGESTIONS)
    .map(({ name }) => name);
}

function stripExtension(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
}
