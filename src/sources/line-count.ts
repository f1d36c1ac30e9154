import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { isExtractable } from './extract.js';

/** Above this a text file's lines are not counted for citations (the check is skipped). */
const COUNT_MAX_BYTES = 64 * 1024 * 1024;

/**
 * Which lines of a raw text file hold text (index 0 is line 1), numbered as read_file
 * numbers them (a last line without a newline counts, an empty file has one line);
 * undefined for files whose text is extracted (PDF, HTML), too large or unreadable. The one
 * reader of raw text lines: each file is read once per reader, again only when its size or
 * modification time changed, so lint's citation check and coverage share one read.
 */
export function rawContentLines(root: string): (rawPath: string) => readonly boolean[] | undefined {
  const cache = new Map<string, { size: number; mtimeMs: number; lines: readonly boolean[] }>();
  return (rawPath) => {
    if (isExtractable(rawPath)) return undefined;
    try {
      const file = path.join(root, rawPath);
      const info = statSync(file);
      if (!info.isFile() || info.size > COUNT_MAX_BYTES) return undefined;
      const known = cache.get(rawPath);
      if (known && known.size === info.size && known.mtimeMs === info.mtimeMs) return known.lines;
      const text = readFileSync(file, 'utf8').split('\n');
      if (text.length > 1 && text.at(-1) === '') text.pop();
      const lines = text.map((line) => line.trim() !== '');
      cache.set(rawPath, { size: info.size, mtimeMs: info.mtimeMs, lines });
      return lines;
    } catch {
      return undefined;
    }
  };
}

/** How many lines a raw text file has, from the lines `contentLines` reads (one reader: read once for both). */
export function rawLineCounter(contentLines: (rawPath: string) => readonly boolean[] | undefined): (rawPath: string) => number | undefined {
  return (rawPath) => contentLines(rawPath)?.length;
}
