import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../util/fs.js';

export interface PlacedFile {
  /** Absolute path of the file now holding the content. */
  absPath: string;
  /** An existing file already held this content; nothing was written. */
  reused: boolean;
}

const MAX_SUFFIX = 1000;

/**
 * Save `content` as `dir/base.ext`, never overwriting a different file: when the name is
 * taken, try `base-2.ext`, `base-3.ext`… A file whose content `isSame` accepts is reused.
 */
export async function placeFile(
  dir: string,
  base: string,
  extension: string,
  content: Uint8Array,
  isSame: (existing: Buffer) => boolean = (existing) => existing.equals(content),
): Promise<PlacedFile> {
  for (let n = 1; n <= MAX_SUFFIX; n++) {
    const absPath = path.join(dir, `${n === 1 ? base : `${base}-${n}`}${extension}`);
    const existing = await readExisting(absPath);
    if (existing === 'missing') {
      await writeFileAtomic(absPath, content);
      return { absPath, reused: false };
    }
    if (existing !== 'not-a-file' && isSame(existing)) return { absPath, reused: true };
  }
  throw new Error(`more than ${MAX_SUFFIX} different files named ${base}${extension} in ${dir}`);
}

async function readExisting(absPath: string): Promise<Buffer | 'missing' | 'not-a-file'> {
  try {
    return await readFile(absPath);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return 'missing';
    if (code === 'EISDIR') return 'not-a-file';
    throw error;
  }
}
