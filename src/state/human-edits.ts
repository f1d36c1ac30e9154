import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { hashText } from './hash.js';
import { lastWritten, writtenEntries, writtenText, type WrittenEntry } from './written.js';

/**
 * A page is human-edited when the tool wrote it before (`entry`, from written.json) and its
 * text is no longer what the tool wrote.
 */
function editedSinceWritten(entry: WrittenEntry | undefined, currentContent: string): entry is WrittenEntry {
  return entry !== undefined && entry.sha256 !== hashText(currentContent);
}

/**
 * For a human-edited page: the text the tool last wrote (undefined when no copy was kept),
 * to tell which lines the human added or changed. Undefined when the page is not human-edited.
 */
export async function humanEditBase(root: string, relPath: string, currentContent: string): Promise<{ base: string | undefined } | undefined> {
  const entry = await lastWritten(root, relPath);
  if (!editedSinceWritten(entry, currentContent)) return undefined;
  return { base: await writtenText(root, entry.sha256) };
}

/** Which of `relPaths` are human-edited now (one read of written.json, one of each page the tool wrote). */
export async function humanEditedPaths(root: string, relPaths: readonly string[]): Promise<Set<string>> {
  const written = await writtenEntries(root);
  const edited = new Set<string>();
  for (const relPath of relPaths) {
    const entry = written[relPath];
    if (!entry) continue;
    const text = await readFile(path.join(root, relPath), 'utf8').catch(() => undefined);
    if (text !== undefined && editedSinceWritten(entry, text)) edited.add(relPath);
  }
  return edited;
}
