import { isSpecialPage, type Contract } from './contract.js';
import type { PageIndex } from './page-index.js';
import { parsePage, type Page } from './page.js';
import type { Finding } from './validate/finding.js';
import { brokenLinkFindings, duplicateKeyFindings, type LinkResolver } from './validate/link-rules.js';
import { citationFindings } from './validate/citation-rules.js';
import { nearDuplicatesAlongside } from './validate/near-duplicate.js';
import { accessFieldFindings } from './validate/access-rules.js';
import { langFieldFindings } from './validate/lang-rules.js';
import { applyRuleSettings } from './validate/rule-settings.js';
import { scopeOf } from './access.js';
import {
  emptyPageFindings,
  frontmatterFindings,
  keyPatternFindings,
  requiredFieldFindings,
  readableSource,
  sourceFindings,
} from './validate/page-rules.js';

export interface WriteCandidate {
  /** Workspace-relative path, e.g. `wiki/concepts/attention.md`. */
  path: string;
  content: string;
}

export interface WriteContext {
  contract: Contract;
  rawExists: (rawPath: string) => boolean;
  /** sandbox.deny (wiki.config.json): files that answer as absent, beside the built-in deny list. */
  deny?: readonly string[];
  /** Lines of a raw file, for from-comments (undefined: not checked). */
  rawLineCount?: (rawPath: string) => number | undefined;
  /** Other pages of the same answer the candidate is judged together with (see Alongside). */
  alongside?: Alongside;
}

/**
 * Pages written in the same answer as the candidate, counted as existing: `linkKeys` for its
 * links only (pages a later call of the turn will write), `pages` fully (a group written all
 * together: links to them resolve, and the key and title rules compare against them too).
 */
export interface Alongside {
  linkKeys?: ReadonlySet<string>;
  pages?: PageIndex;
}

export interface WriteValidation {
  /** False when any error was found: the write must be refused and nothing written. */
  ok: boolean;
  errors: Finding[];
  warnings: Finding[];
  /** The candidate parsed; upsert it into the index once it is written. */
  page: Page;
}

/**
 * Validate one page before it is written, against the in-memory index of the others.
 * Writing an existing path is an update; a page may link to itself. Costs one parse plus
 * index lookups — no scan of the wiki — so it can run on every write.
 */
export function validateWrite(index: PageIndex, candidate: WriteCandidate, ctx: WriteContext): WriteValidation {
  const { contract } = ctx;
  const rawExists = readableSource(ctx.rawExists, ctx.deny);
  const page = parsePage(candidate.path, candidate.content, contract);
  const { linkKeys, pages: together } = ctx.alongside ?? {};
  const findings: Finding[] = [...frontmatterFindings(page)];
  if (!isSpecialPage(contract, page.path)) {
    findings.push(...keyPatternFindings(page, contract));
    findings.push(...requiredFieldFindings(page, contract));
    findings.push(...sourceFindings(page, contract, rawExists));
    findings.push(...emptyPageFindings(page));
    findings.push(...citationFindings(page, rawExists, ctx.rawLineCount ?? (() => undefined)));
    findings.push(...accessFieldFindings(page, contract));
    findings.push(...langFieldFindings(page));
    const otherPaths = [...new Set([...index.pathsOf(page.key), ...(together?.pathsOf(page.key) ?? [])])].filter((p) => p !== page.path && scopeOf(p) === scopeOf(page.path));
    if (otherPaths.length > 0) {
      findings.push(...duplicateKeyFindings(page.key, [page.path, ...otherPaths]).filter((f) => f.path === page.path));
    }
    findings.push(...nearDuplicatesAlongside(page, index, together).map((near) => near.finding));
  }
  const resolver: LinkResolver = {
    resolves: (key) => index.has(key) || linkKeys?.has(key) === true || together?.has(key) === true,
    closeMatches: (key) => index.closeMatches(key, 3),
  };
  findings.push(...brokenLinkFindings(page, page.links, resolver));
  const settled = applyRuleSettings(findings, contract.lint);
  const errors = settled.filter((f) => f.severity === 'error');
  const warnings = settled.filter((f) => f.severity !== 'error');
  return { ok: errors.length === 0, errors, warnings, page };
}
