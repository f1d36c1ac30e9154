import { visibilityRank } from '../wiki/access.js';
import { isSpecialPage, type Contract } from '../wiki/contract.js';
import { parsePage, type Page } from '../wiki/page.js';

/**
 * Whether a database row's path may be served as a page: where the page lister would find
 * a file — a markdown file under wiki/, through no hidden folder, `..` or node_modules —
 * and no special page. Any replica, or anyone with the database's password, writes rows;
 * a crafted path never reaches a caller.
 */
export function isServableRowPath(pagePath: string, contract: Contract): boolean {
  if (!pagePath.startsWith('wiki/') || !pagePath.endsWith('.md') || /[\\\u0000-\u001f]/.test(pagePath)) return false;
  const segments = pagePath.split('/');
  if (segments.some((segment) => segment === '' || segment.startsWith('.') || segment === 'node_modules')) return false;
  return !isSpecialPage(contract, pagePath);
}

/**
 * A database row as a page, judged for access exactly as a file with its text would be,
 * except that the visibility the row was written with counts when it is the stricter:
 * a row whose text and visibility column disagree is served only as far as both allow.
 */
export function rowPage(pagePath: string, content: string, visibility: string | null, contract: Contract): Page {
  const page = parsePage(pagePath, content, contract);
  if (visibility === null) return page;
  const declared = visibilityRank(contract, { frontmatter: { visibility } });
  const own = visibilityRank(contract, page);
  if (own === undefined || declared === undefined || own >= declared) return page;
  return { ...page, frontmatter: { ...page.frontmatter, visibility } };
}
