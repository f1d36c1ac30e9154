import { lstatSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { FileStat } from '../util/file-stamp.js';

/**
 * The one page lister: every markdown file under wiki/ (or one folder of it) with its stat,
 * workspace-relative and `/`-separated. Hidden entries (`.obsidian/`, `.trash/`, `.x.md`) and
 * `node_modules/` are skipped at any depth, and symbolic links are neither listed nor
 * followed, so a link cannot bring a file from elsewhere into the wiki.
 *
 * Synchronous and lean, because the search scan and the MCP server's live pages run it
 * before answering: folders are read as plain names and each entry's type is taken from
 * its lstat, which every page needs anyway (entry objects with types cost more than the
 * few extra lstats of folders and other files). Each path appears once, in walk order.
 * `onNamesFound` hears, after each folder is listed and before its entries are stat-ed, how
 * many markdown names were listed so far; `onLink` hears each symbolic link passed over.
 */
export interface PageFile extends FileStat {
  path: string;
  /** Hard links to the file: more than one means its content may be another file's (search leaves such pages out). */
  nlink: number;
}

export function listPageFiles(
  root: string,
  folder = 'wiki',
  onNamesFound?: (markdownNames: number) => void,
  onLink?: (relativePath: string) => void,
): PageFile[] {
  const out: PageFile[] = [];
  let markdownNames = 0;
  // Plain concatenation, not path.join: normalising 10k paths is a measurable share of a walk.
  const base = root.endsWith(path.sep) ? root : `${root}${path.sep}`;
  const walk = (relativeFolder: string): void => {
    let names: string[];
    try {
      names = readdirSync(base + relativeFolder);
    } catch {
      return; // missing, vanished or unreadable: no pages there
    }
    if (onNamesFound) {
      for (const name of names) if (name.endsWith('.md')) markdownNames++;
      onNamesFound(markdownNames);
    }
    for (const name of names) {
      if (name.startsWith('.') || name === 'node_modules') continue;
      const relative = `${relativeFolder}/${name}`;
      const info = lstatSync(base + relative, NO_THROW);
      if (!info) continue; // vanished since the folder was read
      if (info.isDirectory()) walk(relative);
      else if (info.isFile() && name.endsWith('.md')) out.push({ path: relative, mtimeMs: info.mtimeMs, size: info.size, nlink: info.nlink });
      else if (onLink && info.isSymbolicLink()) onLink(relative);
    }
  };
  walk(folder.replace(/\/+$/, ''));
  return out;
}

const NO_THROW = { throwIfNoEntry: false } as const;
