import { existsSync } from 'node:fs';
import path from 'node:path';

const WRONG_KIND: Record<string, string> = {
  ENOTDIR: 'is a file where the tool keeps a folder',
  EISDIR: 'is a folder where the tool keeps a file',
  EEXIST: 'is in the way of the tool’s own state',
};

/**
 * A state path (.wiki/…) of the wrong kind — a folder for the lock, a file for .wiki/search,
 * a folder where the search index file goes — is the user's to fix, not a crash: this names
 * the path in the way and how to move it aside, or is undefined for any other failure.
 */
export function wrongKindOfStateFile(error: unknown): string | undefined {
  const { code, path: source, dest } = (error ?? {}) as NodeJS.ErrnoException & { dest?: string };
  const problem = code ? WRONG_KIND[code] : undefined;
  // A rename names both paths: what is in the way is its destination (a temp file is renamed onto it).
  const where = code === 'EISDIR' && typeof dest === 'string' ? dest : source;
  if (!problem || typeof where !== 'string') return undefined;
  const at = where.replace(/\\/g, '/').search(/(^|\/)\.wiki(\/|$)/);
  if (at < 0) return undefined;
  // ENOTDIR names the path being made; the file in the way is the nearest ancestor that exists.
  const culprit = code === 'ENOTDIR' ? existingAncestor(where) : where;
  const shown = culprit.replace(/\\/g, '/').slice(at).replace(/^\//, '') || '.wiki';
  return `${shown} ${problem} (machine state under .wiki/). Move it aside (e.g. mv ${shown} ${shown}.bak) and run the command again; the tool rebuilds what it needs`;
}

function existingAncestor(where: string): string {
  let current = where;
  while (!existsSync(current) && path.dirname(current) !== current) current = path.dirname(current);
  return current;
}
