import type { Contract } from './contract.js';
import { parsePage, type Page } from './page.js';
import { listPageFiles } from './page-files.js';
import { readPage } from './page-read.js';

/** The pages `listPageFiles` lists under wiki/ (or one folder of it), paths only, sorted. */
export async function listPagePaths(root: string, folder = 'wiki'): Promise<string[]> {
  return listPageFiles(root, folder)
    .map((file) => file.path)
    .sort();
}

/**
 * Load and parse every page under wiki/ (index and log included; callers filter). A page
 * `readPage` will not read is left out (a hard link, or a file a swapped folder leads
 * outside the workspace): whatever is loaded here reaches the model (run context,
 * index.md). Search says which pages are hard links.
 */
export async function loadPages(root: string, contract: Contract): Promise<Page[]> {
  const pages: Page[] = [];
  for (const pagePath of await listPagePaths(root)) {
    const text = readPage(root, pagePath);
    if (text !== undefined) pages.push(parsePage(pagePath, text, contract));
  }
  return pages;
}
