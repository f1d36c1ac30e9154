import { readFile } from 'node:fs/promises';
import path from 'node:path';
import fg from 'fast-glob';
import type { Contract } from './contract.js';
import { parsePage, type Page } from './page.js';

/** Every markdown file under wiki/ (or one folder of it), workspace-relative, sorted. Hidden folders are skipped. */
export async function listPagePaths(root: string, folder = 'wiki'): Promise<string[]> {
  const entries = await fg(`${fg.escapePath(folder)}/**/*.md`, {
    cwd: root,
    onlyFiles: true,
    dot: false,
    followSymbolicLinks: false,
    ignore: ['**/.obsidian/**', '**/node_modules/**'],
  });
  return entries.sort();
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
