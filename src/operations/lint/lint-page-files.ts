import { statSync } from 'node:fs';
import path from 'node:path';
import { invalidUtf8Offset, NOT_UTF8_FIX, notUtf8Message } from '../../util/utf8.js';
import { listPageFiles } from '../../wiki/page-files.js';
import { readPageBytes } from '../../wiki/page-read.js';
import { finding, type Finding } from '../../wiki/validate/finding.js';

/** Lint's one reader of the page files: what it may read, and what it reports of what it may not. */

export interface PageText {
  path: string;
  text: string;
  /** Byte offset of the first byte that is not UTF-8 (the text then holds U+FFFD there). */
  invalidUtf8At?: number;
}

/**
 * Every markdown file under wiki/ with its text, read as search and the run context read
 * pages (`readPageBytes`): never through a link, never a hard link. Such a page is not
 * read, so nothing from outside reaches a report, a repair or the model's review; it is
 * reported instead (`unreadable-page`), as is a link under wiki/ named as a page; a link to
 * a folder is a warning (`linked-folder`: it may hold only images). A page that vanished since the listing is gone.
 */
export async function readPageTexts(root: string): Promise<{ files: PageText[]; refused: Finding[] }> {
  const files: PageText[] = [];
  const refused: Finding[] = [];
  const links: string[] = [];
  const paths = listPageFiles(root, 'wiki', undefined, (link) => links.push(link))
    .map((file) => file.path)
    .sort();
  for (const pagePath of paths) {
    const read = readPageBytes(root, pagePath);
    if ('bytes' in read) files.push({ path: pagePath, text: read.bytes.toString('utf8'), invalidUtf8At: invalidUtf8Offset(read.bytes) });
    else if (read.refused === 'hard-link') refused.push(finding('unreadable-page', pagePath, hardLinkedPageMessage(pagePath, read.links), { fix: HARD_LINK_FIX }));
    else if (read.refused === 'outside') refused.push(finding('unreadable-page', pagePath, `${pagePath} led outside the workspace when read (a folder on its way is, or was for a moment, a link); it was not read`, { fix: FOLDER_LINK_FIX }));
  }
  for (const link of links) {
    if (link.endsWith('.md')) refused.push(finding('unreadable-page', link, `${link} is a symbolic link; search, the model's tools and lint never follow links, so it is left out`, { fix: PAGE_LINK_FIX }));
    else if (isFolderBehindLink(path.join(root, link))) refused.push(finding('linked-folder', link, `${link} is a symbolic link to a folder; its pages are left out of search, the model's tools and lint`, { fix: FOLDER_LINK_FIX }));
  }
  return { files, refused };
}

/** Whether a link leads to a folder (only its type is looked at, nothing in it is read). */
function isFolderBehindLink(file: string): boolean {
  try {
    return statSync(file).isDirectory();
  } catch {
    return false; // dangling
  }
}

function hardLinkedPageMessage(pagePath: string, links: number): string {
  return `${pagePath} is a hard link (${links} names for one file), so its content may belong to a file outside the wiki; search, the model's tools and lint leave it out`;
}

const HARD_LINK_FIX = 'give the page its own copy: `cp FILE FILE.tmp && mv FILE.tmp FILE`';
const FOLDER_LINK_FIX = 'replace links among the folders under wiki/ with real folders, then run lint again';
const PAGE_LINK_FIX = 'put the file itself in its place: `cp --remove-destination "$(readlink -f FILE)" FILE`';

/** One `encoding` error per page that is not UTF-8, with the offset of its first bad byte. */
export function encodingFindings(files: readonly PageText[]): Finding[] {
  return files.flatMap((file) =>
    file.invalidUtf8At === undefined ? [] : [finding('encoding', file.path, notUtf8Message(file.path, file.invalidUtf8At), { fix: NOT_UTF8_FIX })],
  );
}

