import { open, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Contract } from './contract.js';
import { parsePage, type Page } from './page.js';
import { listPageFiles } from './page-files.js';

/** The pages `listPageFiles` lists under wiki/ (or one folder of it), paths only, sorted. */
export async function listPagePaths(root: string, folder = 'wiki'): Promise<string[]> {
  return listPageFiles(root, folder)
    .map((file) => file.path)
    .sort();
}

export async function loadPage(root: string, pagePath: string, contract: Contract): Promise<Page> {
  const text = await readFile(path.join(root, pagePath), 'utf8');
  return parsePage(pagePath, text, contract);
}

/**
 * Load and parse every page under wiki/ (index and log included; callers filter). A page
 * with more than one hard link is left out: its content may be a denied or outside file's,
 * and whatever is loaded here reaches the model (run context, index.md). Search says which.
 */
export async function loadPages(root: string, contract: Contract): Promise<Page[]> {
  const paths = await listPagePaths(root);
  const pages = await Promise.all(
    paths.map(async (p) => {
      const text = await readUnlessHardLinked(path.join(root, p));
      return text === undefined ? undefined : parsePage(p, text, contract);
    }),
  );
  return pages.filter((page): page is Page => page !== undefined);
}

/** The file's text, or undefined when it has more than one hard link (checked on the opened file). */
async function readUnlessHardLinked(file: string): Promise<string | undefined> {
  const handle = await open(file, 'r');
  try {
    if ((await handle.stat()).nlink > 1) return undefined;
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}
