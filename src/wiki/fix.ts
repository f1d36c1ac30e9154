import { isSpecialPage, typeForPath, type Contract } from './contract.js';
import { findCatalogRegion } from './catalog-region.js';
import { frontmatterDrift } from './frontmatter-drift.js';
import { planIndex, type IndexFiles } from './index-catalog.js';
import { rewriteLinkTargets, rewriteRefs } from './link-rewrite.js';
import { PageIndex } from './page-index.js';
import { parsePage, refsOf, serialisePage, splitFrontmatter, type Frontmatter, type Page } from './page.js';
import { editFrontmatter, extendList, setField, swapEntries } from './frontmatter-edit.js';
import { indexedKeys, splitIndexLinks } from './validate/index-rules.js';
import { finding, type Finding } from './validate/finding.js';
import { unresolvedLinks } from './validate/link-rules.js';

/**
 * Deterministic repairs for `wiki lint --fix`: pure planning over file texts, so the
 * operation only reads, writes and logs. Repairs are conservative — a link is rewritten only
 * to a unique near-identical key, body prose is never touched beyond the target inside
 * `[[…]]` — and idempotent: planning again over the result changes nothing.
 */

export interface FileTimes {
  /** YYYY-MM-DD the file was created (birth time where the file system knows it). */
  created: string;
  /** YYYY-MM-DD the file was last modified. */
  updated: string;
}

export interface FixFile {
  /** Workspace-relative path of a page under wiki/. */
  path: string;
  text: string;
  times: FileTimes;
  /** Byte offset of the first byte that is not UTF-8; such a page is never rewritten. */
  invalidUtf8At?: number;
}

export interface FixInput {
  contract: Contract;
  hubThreshold: number;
  /** Every markdown file under wiki/ (index, log and spokes included or not). */
  files: FixFile[];
  index: IndexFiles;
  /** Text of log.md, undefined when missing. */
  logText: string | undefined;
  /** Whether a cited file exists: only those join a page's `sources` (absent: none is added). */
  rawExists?: (rawPath: string) => boolean;
}

export interface FixPlan {
  writes: Array<{ path: string; content: string }>;
  deletes: string[];
  /** One human-readable line per repair, `path: what changed`. */
  changes: string[];
  /** Repairs not made because they would have grown a page past MAX_REPAIR_GROWTH. */
  refused: Finding[];
}

/**
 * No repair writes a page larger than twice its size (plus a little, so a frontmatter can
 * still be added to a tiny page): a repair that would is refused and reported instead.
 */
export function maxRepairedBytes(originalBytes: number): number {
  return 2 * originalBytes + 4096;
}

export function planFixes(input: FixInput): FixPlan {
  const { contract } = input;
  const pages = input.files.map((file) => parsePage(file.path, file.text, contract));
  const index = PageIndex.fromPages(pages, contract);
  const writes: FixPlan['writes'] = [];
  const changes: string[] = [];
  const fixedPages: Page[] = [];
  const refused: Finding[] = [];

  input.files.forEach((file, i) => {
    const page = pages[i];
    if (!page) return;
    const repairable = !isSpecialPage(contract, page.path) && !page.parseError && file.invalidUtf8At === undefined;
    let repaired = repairable ? repairPage(file, page, index, contract, input.rawExists ?? (() => false)) : undefined;
    const originalBytes = Buffer.byteLength(file.text, 'utf8');
    if (repaired && Buffer.byteLength(repaired.text, 'utf8') > maxRepairedBytes(originalBytes)) {
      refused.push(
        finding('oversized-repair', file.path, `a repair (${repaired.changes.join('; ')}) would grow the page from ${originalBytes} to ${Buffer.byteLength(repaired.text, 'utf8')} bytes, so it was not written`, {
          fix: 'make the repair by hand',
        }),
      );
      repaired = undefined;
    }
    if (repaired) {
      writes.push({ path: file.path, content: repaired.text });
      changes.push(...repaired.changes.map((change) => `${file.path}: ${change}`));
      fixedPages.push(parsePage(file.path, repaired.text, contract));
    } else {
      fixedPages.push(page);
    }
  });

  const indexPlan = planIndex({ pages: fixedPages, contract, hubThreshold: input.hubThreshold }, input.index);
  writes.push(...indexPlan.writes);
  changes.push(...describeIndexChanges(input, index, fixedPages, indexPlan.writes, indexPlan.deletes));

  if (input.logText === undefined) {
    writes.push({ path: contract.log, content: '# Log\n' });
    changes.push(`${contract.log}: created (it was missing)`);
  }
  return { writes, deletes: indexPlan.deletes, changes, refused };
}

interface RepairedPage {
  text: string;
  changes: string[];
}

function repairPage(file: FixFile, page: Page, index: PageIndex, contract: Contract, rawExists: (rawPath: string) => boolean): RepairedPage | undefined {
  const changes: string[] = [];
  const mapping = new Map<string, string>();
  const resolver = { resolves: (key: string) => index.has(key), closeMatches: () => [] };
  for (const link of unresolvedLinks(page, page.links, resolver)) {
    if (mapping.has(link.target)) continue;
    const near = index.nearMatches(link.target);
    if (near.length === 1 && near[0] !== undefined) {
      mapping.set(link.target, near[0]);
      changes.push(`link \`[[${link.target}]]\` → \`[[${near[0]}]]\``);
    }
  }

  let frontmatter: Frontmatter = rewriteRefs(page.frontmatter, mapping);
  // A link repaired above lands in refs as repaired.
  const drift = frontmatterDrift(page, { resolves: (key) => index.has(mapping.get(key) ?? key), rawExists });
  const refsNow = refsOf(frontmatter);
  const missingRefs = [...new Set(drift.refs.map((key) => mapping.get(key) ?? key))].filter((key) => !refsNow.includes(key) && key !== page.key);
  if (missingRefs.length > 0) {
    frontmatter = { ...frontmatter, refs: [...listOf(frontmatter.refs), ...missingRefs] };
    changes.push(`added to refs: ${missingRefs.join(', ')} (linked from the body)`);
  }
  const missingSources = drift.sources;
  if (missingSources.length > 0) {
    frontmatter = { ...frontmatter, sources: [...listOf(frontmatter.sources), ...missingSources] };
    changes.push(`added to sources: ${missingSources.join(', ')} (cited in from-comments)`);
  }
  const filled: string[] = [];
  const folderType = typeForPath(contract, page.path);
  if (isMissing(frontmatter.type) && folderType) {
    frontmatter = { ...frontmatter, type: folderType };
    changes.push(`set type: ${folderType} (from the folder)`);
  }
  for (const field of ['created', 'updated'] as const) {
    if (isMissing(frontmatter[field])) {
      frontmatter = { ...frontmatter, [field]: file.times[field] };
      filled.push(`${field}: ${file.times[field]}`);
    }
  }
  if (filled.length > 0) changes.push(`set ${filled.join(', ')} (from file times)`);
  if (changes.length === 0) return undefined;

  const body = rewriteLinkTargets(page.body, mapping);
  const hadFrontmatter = splitFrontmatter(file.text).yaml !== undefined;
  if (!hadFrontmatter) return { text: serialisePage(frontmatter, body), changes };
  // The owner's block is edited, not printed afresh: only the repaired fields' lines change.
  const edited = editFrontmatter(file.text, page, ['refs', 'sources', 'type', 'created', 'updated'], (doc, map) => {
    if (mapping.size > 0) swapEntries(map, 'refs', (entry) => String(rewriteRefs({ refs: entry }, mapping).refs));
    extendList(doc, map, 'refs', missingRefs);
    extendList(doc, map, 'sources', missingSources);
    for (const field of ['type', 'created', 'updated'] as const) if (frontmatter[field] !== page.frontmatter[field]) setField(doc, map, field, frontmatter[field]);
  }, body);
  // A block the YAML printer would re-spell elsewhere is printed afresh, as before, rather than left unrepaired.
  return { text: edited ?? `${serialisePage(frontmatter, '')}${body}`, changes };
}

function listOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function isMissing(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

function describeIndexChanges(input: FixInput, before: PageIndex, after: Page[], writes: ReadonlyArray<{ path: string; content: string }>, deleted: string[]): string[] {
  const { contract } = input;
  const written = writes.map((write) => write.path);
  const changes: string[] = [];
  const existing = new Set(after.map((p) => p.key));
  const content = after.filter((p) => !isSpecialPage(contract, p.path));
  for (const spokePath of [...written, ...deleted].filter((p) => p !== contract.index)) {
    changes.push(deleted.includes(spokePath) ? `${spokePath}: removed (the catalog no longer needs this spoke page)` : `${spokePath}: regenerated the spoke catalog`);
  }
  if (!written.includes(contract.index)) return changes;
  if (input.index.indexText === undefined) return [`${contract.index}: created with a catalog of ${content.length} pages`, ...changes];
  const indexPage = before.atPath(contract.index) ?? parsePage(contract.index, input.index.indexText, contract);
  const listed = indexedKeys(splitIndexLinks(indexPage, input.index.indexText).catalog, contract, before);
  const dead = [...listed].filter((key) => !existing.has(key)).sort();
  // Counted from the catalog as written (spokes included), not from the pages it lacked: the number it actually added.
  const newIndexText = writes.find((write) => write.path === contract.index)?.content ?? '';
  const afterIndex = PageIndex.fromPages(
    [...after.filter((p) => !written.includes(p.path)), ...writes.map((write) => parsePage(write.path, write.content, contract))],
    contract,
  );
  const listedNow = indexedKeys(splitIndexLinks(parsePage(contract.index, newIndexText, contract), newIndexText).catalog, contract, afterIndex);
  const added = content.filter((p) => !listed.has(p.key) && listedNow.has(p.key)).length;
  const parts: string[] = [];
  if (!findCatalogRegion(input.index.indexText)) parts.push('added the catalog markers');
  if (added > 0) parts.push(`listed ${added} unindexed ${added === 1 ? 'page' : 'pages'}`);
  if (dead.length > 0) parts.push(`removed dead ${dead.length === 1 ? 'entry' : 'entries'} ${dead.map((k) => `\`[[${k}]]\``).join(', ')}`);
  if (parts.length === 0) parts.push('refreshed the catalog from frontmatter');
  return [`${contract.index}: ${parts.join('; ')}`, ...changes];
}
