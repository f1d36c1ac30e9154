import { findCatalogRegion, lineAt } from '../catalog-region.js';
import { spokePagePath, type Contract } from '../contract.js';
import type { PageIndex } from '../page-index.js';
import type { Page, PageLink } from '../page.js';
import { finding, type Finding } from './finding.js';
import { deadIndexEntryFinding } from './link-rules.js';

/** index.md's links split into catalog entries and links in the free text around them. */
export interface IndexLinks {
  catalog: PageLink[];
  freeText: PageLink[];
}

/**
 * Without markers the whole index counts as catalog: a hand-kept index still lists pages,
 * and `--fix` will add the markers.
 */
export function splitIndexLinks(indexPage: Page, indexText: string): IndexLinks {
  const region = findCatalogRegion(indexText);
  if (!region) return { catalog: indexPage.links.filter((l) => l.kind === 'inline'), freeText: indexPage.links.filter((l) => l.kind === 'ref') };
  const first = lineAt(indexText, region.start);
  const last = lineAt(indexText, region.end);
  const inside = (link: PageLink): boolean => link.line !== undefined && link.line >= first && link.line <= last;
  return { catalog: indexPage.links.filter(inside), freeText: indexPage.links.filter((l) => !inside(l)) };
}

/** Keys the index lists: its catalog entries plus the entries of every spoke page the catalog links to. */
export function indexedKeys(catalog: PageLink[], contract: Contract, index: PageIndex): Set<string> {
  const keys = new Set(catalog.map((l) => l.target));
  for (const type of Object.keys(contract.types)) {
    const spoke = index.atPath(spokePagePath(contract, type));
    if (spoke && keys.has(spoke.key)) for (const link of spoke.links) keys.add(link.target);
  }
  return keys;
}

export function deadIndexEntryFindings(page: Page, links: PageLink[], index: PageIndex): Finding[] {
  const seen = new Set<string>();
  const findings: Finding[] = [];
  for (const link of links) {
    if (index.has(link.target)) continue;
    const id = `${link.line ?? 0}:${link.target}`;
    if (seen.has(id)) continue;
    seen.add(id);
    findings.push(deadIndexEntryFinding(page, link));
  }
  return findings;
}

export function unindexedFinding(page: Page, indexPath: string): Finding {
  return finding('unindexed', page.path, `[[${page.key}]] is not listed in ${indexPath}`, {
    fix: 'run `wiki lint --fix` to rebuild the catalog',
  });
}

export function orphanFinding(page: Page): Finding {
  return finding('orphan', page.path, `no other page links to [[${page.key}]] (the index does not count)`, {
    fix: `link to [[${page.key}]] from a related page`,
  });
}
