import path from 'node:path';

/** A page's key is its file name without `.md`. */
export function keyFromPath(pagePath: string): string {
  return path.posix.basename(pagePath, '.md');
}

export function matchesKeyPattern(key: string, pattern: string): boolean {
  return new RegExp(pattern).test(key);
}

/** Turn a title into a key that satisfies the default pattern: lowercase kebab-case ASCII. */
export function slugify(title: string): string {
  return title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/g, '');
}
