import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { isExtractable } from './extract.js';

/** Above this a text file's lines are not counted for citations (the check is skipped). */
const COUNT_MAX_BYTES = 64 * 1024 * 1024;

/**
 * How many lines a raw text file has, counted as read_file numbers them (a last line
 * without a newline counts); undefined for files whose text is extracted (PDF, HTML), too
 * large or unreadable. Counts are cached per path, size and modification time.
 */
export function rawLineCounter(root: string): (rawPath: string) => number | undefined {
  const cache = new Map<string, number | undefined>();
  return (rawPath) => {
    const file = path.join(root, rawPath);
    if (isExtractable(rawPath)) return undefined;
    try {
      const info = statSync(file);
      if (!info.isFile() || info.size > COUNT_MAX_BYTES) return undefined;
      const key = `${rawPath}\u0000${info.size}\u0000${info.mtimeMs}`;
      if (cache.has(key)) return cache.get(key);
      const bytes = readFileSync(file);
      let lines = 0;
      for (let at = bytes.indexOf(10); at !== -1; at = bytes.indexOf(10, at + 1)) lines++;
      if (bytes.length > 0 && bytes[bytes.length - 1] !== 10) lines++;
      const count = Math.max(lines, 1);
      cache.set(key, count);
      return count;
    } catch {
      return undefined;
    }
  };
}

/**
 * Which lines of a raw text file hold text (index 0 is line 1), numbered as read_file
 * numbers them; undefined for extracted (PDF, HTML), too large or unreadable files.
 */
export function rawContentLines(root: string): (rawPath: string) => boolean[] | undefined {
  return (rawPath) => {
    if (isExtractable(rawPath)) return undefined;
    try {
      const file = path.join(root, rawPath);
      const info = statSync(file);
      if (!info.isFile() || info.size > COUNT_MAX_BYTES) return undefined;
      const lines = readFileSync(file, 'utf8').split('\n');
      if (lines.length > 1 && lines.at(-1) === '') lines.pop();
      return lines.map((line) => line.trim() !== '');
    } catch {
      return undefined;
    }
  };
}
