import path from 'node:path';

/** A path as the user would type it: relative to the current folder when inside it, else absolute. */
export function displayPath(absolute: string): string {
  const relative = path.relative(process.cwd(), absolute);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : absolute;
}
