import path from 'node:path';

/** A page's key is its file name without `.md`. */
export function keyFromPath(pagePath: string): string {
  // By hand for the common shape (callers map every page of a 10k-page wiki): path.posix.basename otherwise.
  const name = pagePath.slice(pagePath.lastIndexOf('/') + 1);
  if (name === '' || name === '.md') return path.posix.basename(pagePath, '.md');
  return name.endsWith('.md') ? name.slice(0, -3) : name;
}

export function matchesKeyPattern(key: string, pattern: string): boolean {
  return new RegExp(pattern).test(key);
}
