import path from 'node:path';
import { UsageError } from '../errors.js';

/**
 * A workspace-relative, `/`-separated path that stays inside the root. State files are
 * keyed by such paths, and undo writes to them, so anything else is a programming error
 * or a tampered state file and is refused.
 */
export function checkRelativePath(relPath: string): string {
  const clean = relPath.replace(/\\/g, '/');
  const parts = clean.split('/');
  if (
    clean === '' ||
    clean.includes('\0') ||
    clean.startsWith('/') ||
    /^[a-zA-Z]:/.test(clean) ||
    parts.some((part) => part === '..' || part === '.' || part === '')
  ) {
    throw new UsageError(`not a workspace-relative path: ${JSON.stringify(relPath)}`);
  }
  return clean;
}

export function resolveInRoot(root: string, relPath: string): string {
  return path.join(root, ...checkRelativePath(relPath).split('/'));
}
