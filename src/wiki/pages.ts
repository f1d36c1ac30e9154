import { readFile } from 'node:fs/promises';
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

/** Load and parse every page under wiki/ (index and log included; callers filter). */
export async function loadPages(root: string, contract: Contract): Promise<Page[]> {
  const paths = await listPagePaths(root);
  return Promise.all(paths.map((p) => loadPage(root, p, contract)));
}
