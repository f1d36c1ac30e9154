import type { PageLink, Page } from '../page.js';
import { finding, type Finding } from './finding.js';

/** What link rules need to know about the rest of the wiki. */
export interface LinkResolver {
  resolves(key: string): boolean;
  closeMatches(key: string): string[];
}

function describe(link: PageLink): string {
  return link.kind === 'ref' ? `\`refs\` entry "${link.target}"` : `link ${link.raw}`;
}

export function brokenLinkFinding(page: Page, link: PageLink, close: string[]): Finding {
  const suggestion = close.length > 0 ? `; close matches: ${close.map((k) => `[[${k}]]`).join(', ')}` : '; no existing page has a similar key';
  const fix =
    close.length > 0
      ? `point it at ${close.map((k) => `[[${k}]]`).join(' or ')}, or create the page "${link.target}"`
      : `create the page "${link.target}" or remove the link`;
  return finding('broken-link', page.path, `${describe(link)} names a missing page "${link.target}"${suggestion}`, { line: link.line, fix });
}

export function deadIndexEntryFinding(page: Page, link: PageLink): Finding {
  return finding('dead-index-entry', page.path, `index entry [[${link.target}]] names a missing page`, {
    line: link.line,
    fix: 'run `wiki lint --fix` to rebuild the catalog',
  });
}

/** One finding per unresolved link occurrence (the same target twice on one line counts once). */
export function unresolvedLinks(page: Page, links: PageLink[], resolver: LinkResolver): PageLink[] {
  const seen = new Set<string>();
  const out: PageLink[] = [];
  for (const link of links) {
    if (link.target === page.key || resolver.resolves(link.target)) continue;
    const id = `${link.kind}:${link.line ?? 0}:${link.target}`;
    if (seen.has(id)) continue;
    seen.add(id);
    out.push(link);
  }
  return out;
}

export function brokenLinkFindings(page: Page, links: PageLink[], resolver: LinkResolver): Finding[] {
  return unresolvedLinks(page, links, resolver).map((link) => brokenLinkFinding(page, link, resolver.closeMatches(link.target)));
}

export function duplicateKeyFindings(key: string, paths: string[]): Finding[] {
  if (paths.length < 2) return [];
  return paths.map((p) =>
    finding('duplicate-key', p, `key "${key}" is also used by ${paths.filter((other) => other !== p).join(', ')}`, {
      fix: 'keys must be unique across wiki/: merge the pages or rename one',
    }),
  );
}
