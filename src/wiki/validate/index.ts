import { isSpecialPage, type Contract } from '../contract.js';
import { PageIndex } from '../page-index.js';
import { parsePage, type Page } from '../page.js';
import { sortFindings, type Finding } from './finding.js';
import { applyRuleSettings } from './rule-settings.js';
import { deadIndexEntryFindings, indexedKeys, orphanFinding, splitIndexLinks, unindexedFinding } from './index-rules.js';
import { brokenLinkFindings, duplicateKeyFindings, type LinkResolver } from './link-rules.js';
import { citationFindings } from './citation-rules.js';
import { frontmatterDriftFindings } from './drift-rules.js';
import { conflictMarkerFindings } from './conflict-markers.js';
import { logFormatFindings } from './log-format.js';
import { nearDuplicateFindings } from './near-duplicate.js';
import { scopeOf } from '../access.js';
import { contentPageFindings, frontmatterFindings, readableSource } from './page-rules.js';

export type { Finding } from './finding.js';

export interface ValidateWikiInput {
  /** Every page under wiki/; index.md and log.md may be among them or given only as text. */
  pages: Page[];
  contract: Contract;
  /** Text of index.md; undefined when the file is missing. */
  indexText: string | undefined;
  /** Text of log.md; undefined when the file is missing. */
  logText: string | undefined;
  /** Whether a workspace-relative path names an existing file. */
  rawExists: (rawPath: string) => boolean;
  /** sandbox.deny (wiki.config.json): files that answer as absent, beside the built-in deny list. */
  deny?: readonly string[];
  /** Lines of a raw file, for from-comments (undefined or absent: not checked). */
  rawLineCount?: (rawPath: string) => number | undefined;
  /** The log entries the tool recorded (see log-ledger.ts); undefined: not checked. */
  logLedger?: ReadonlySet<string> | undefined;
}

/**
 * Check the whole wiki against the page contract. Pure: the caller reads the files. Never
 * throws on a malformed page; findings come back sorted by path, line and rule.
 */
export function validateWiki(input: ValidateWikiInput): Finding[] {
  const { contract, indexText, logText } = input;
  const rawExists = readableSource(input.rawExists, input.deny);
  const pages = withSpecialPages(input);
  const index = PageIndex.fromPages(pages, contract);
  const suggestions = new Map<string, string[]>();
  const resolver: LinkResolver = {
    resolves: (key) => index.has(key),
    closeMatches: (key) => {
      let close = suggestions.get(key);
      if (!close) suggestions.set(key, (close = index.closeMatches(key)));
      return close;
    },
  };
  const findings: Finding[] = [];

  // Keys are unique within a scope: a user's scratch page may shadow a team page's key.
  for (const key of index.keys()) {
    for (const paths of byScope(index.pathsOf(key))) findings.push(...duplicateKeyFindings(key, paths));
  }

  const indexPage = index.atPath(contract.index);
  const indexLinks = indexPage && indexText !== undefined ? splitIndexLinks(indexPage, indexText) : { catalog: [], freeText: [] };
  const listed = indexedKeys(indexLinks.catalog, contract, index);

  for (const page of index.pages()) {
    findings.push(...conflictMarkerFindings(page));
    if (page.path === contract.log) {
      findings.push(...frontmatterFindings(page));
    } else if (page.path === contract.index) {
      findings.push(...frontmatterFindings(page));
      findings.push(...deadIndexEntryFindings(page, indexLinks.catalog, index));
      findings.push(...brokenLinkFindings(page, indexLinks.freeText, resolver));
    } else if (isSpecialPage(contract, page.path)) {
      findings.push(...frontmatterFindings(page));
      findings.push(...deadIndexEntryFindings(page, page.links, index));
    } else {
      findings.push(...contentPageFindings(page, contract, rawExists));
      findings.push(...citationFindings(page, rawExists, input.rawLineCount ?? (() => undefined)));
      findings.push(...frontmatterDriftFindings(page, { resolves: resolver.resolves, rawExists }));
      findings.push(...brokenLinkFindings(page, page.links, resolver));
      // Scratch pages are not catalogued (see index-catalog.ts): listed for this rule.
      const isListed = listed.has(page.key) || scopeOf(page.path) !== undefined;
      if (!isListed) findings.push(unindexedFinding(page, contract.index));
      // An orphan is what `wiki graph` counts: no other content page links to it (the index does not count).
      const linkedFrom = index.backlinkPaths(page.key).filter((p) => p !== page.path && !isSpecialPage(contract, p));
      if (linkedFrom.length === 0) findings.push(orphanFinding(page));
    }
  }

  findings.push(...nearDuplicateFindings(index, (p) => !isSpecialPage(contract, p)));
  findings.push(...logFormatFindings(contract.log, logText, input.logLedger));
  return sortFindings(applyRuleSettings(findings, contract.lint));
}

/** The pages plus index.md and log.md parsed from their texts when the caller left them out. */
function withSpecialPages(input: ValidateWikiInput): Page[] {
  const pages = [...input.pages];
  const has = (p: string): boolean => pages.some((page) => page.path === p);
  if (input.indexText !== undefined && !has(input.contract.index)) pages.push(parsePage(input.contract.index, input.indexText, input.contract));
  if (input.logText !== undefined && !has(input.contract.log)) pages.push(parsePage(input.contract.log, input.logText, input.contract));
  return pages;
}

/** Paths grouped by scope (the team's, then each user's scratch folder). */
function byScope(paths: readonly string[]): string[][] {
  const groups = new Map<string, string[]>();
  for (const pagePath of paths) {
    const scope = scopeOf(pagePath) ?? '';
    groups.set(scope, [...(groups.get(scope) ?? []), pagePath]);
  }
  return [...groups.values()];
}
