import { diffArrays } from 'diff';
import { declaredAccessFields } from '../access.js';
import { isSpecialPage, type Contract } from '../contract.js';
import { splitFrontmatter } from '../frontmatter-split.js';
import type { PageIndex } from '../page-index.js';
import { parsePage, sourcesOf, type Page } from '../page.js';
import { finding, type Finding } from './finding.js';
import { nearDuplicatesAlongside } from './near-duplicate.js';
import { applyRuleSettings } from './rule-settings.js';
import { sourceFilePath } from './page-rules.js';

/** Fields only the tool sets: stale marks on a source change, archive marks. */
export const TOOL_OWNED_FIELDS = ['stale_since', 'archived_since'] as const;

/**
 * Fields only the page's owner sets: who sees the page. A model's write may neither set,
 * change nor drop them.
 */
export const OWNER_FIELDS = ['usage_mode', 'visibility'] as const;

/** Human-set frontmatter values that stay protected, by field (see `protectedFields`). */
export type ProtectedFields = Record<string, unknown>;

export interface GuardContext {
  contract: Contract;
  index: PageIndex;
  /** Pages created in the same answer and judged together with this one (see Alongside): a new page must not nearly match them either. */
  alongside?: PageIndex | undefined;
  rawExists: (rawPath: string) => boolean;
  /**
   * What the tool last wrote to this page when a human has edited it since (`text`; undefined
   * when the tool's copy is not kept), or undefined when the page is not human-edited.
   */
  humanEdit?: { base: string | undefined } | undefined;
  /** Human lines kept by earlier accepted rewrites of this page (see state/human-lines.ts). */
  carriedHumanLines?: readonly string[];
  /** Human frontmatter values kept by earlier accepted rewrites of this page (state/human-lines.ts). */
  carriedHumanFields?: ProtectedFields;
  /** `protectedBody` of the page now, when the caller has worked it out already. */
  protectedLines?: readonly string[];
  /** The previous text parsed, when the caller has parsed it already. */
  previousPage?: Page;
}

/**
 * Rules that hold for a write by the model on top of the page contract: they compare the new
 * content with what is there now, so they belong to the write, not to a page on its own.
 * Every error says what to send instead.
 */
export function modelWriteFindings(candidate: Page, previousText: string | undefined, ctx: GuardContext): Finding[] {
  if (isSpecialPage(ctx.contract, candidate.path) || candidate.parseError) return [];
  const previous = previousText === undefined ? undefined : (ctx.previousPage ?? parsePage(candidate.path, previousText, ctx.contract));
  const findings: Finding[] = [...toolOwnedFieldFindings(candidate, previous), ...ownerFieldFindings(candidate, previous, previousText)];
  if (previous && !previous.parseError) findings.push(...droppedSourceFindings(candidate, previous, ctx.rawExists));
  if (!previous) findings.push(...nearDuplicateAtCreation(candidate, ctx.index, ctx.alongside));
  if (previous && !previous.parseError && (ctx.humanEdit || ctx.carriedHumanLines?.length || Object.keys(ctx.carriedHumanFields ?? {}).length)) {
    const fields = protectedFields(previous, ctx);
    findings.push(...lostHumanEditFindings(candidate, previous, ctx.protectedLines ?? protectedBody(previous, ctx), fields));
  }
  return applyRuleSettings(findings, ctx.contract.lint);
}

/**
 * `usage_mode` and `visibility` stay exactly as the owner left them: a model that set
 * `always` would put its page in every later prompt, one that set `public` (or dropped
 * `private`) would have it served to every agent. Over a page whose frontmatter does not
 * parse, the value its text declares counts.
 */
function ownerFieldFindings(candidate: Page, previous: Page | undefined, previousText: string | undefined): Finding[] {
  const before: Record<string, unknown> = previous?.parseError && previousText !== undefined ? declaredAccessFields(splitFrontmatter(previousText).yaml ?? previousText) : (previous?.frontmatter ?? {});
  const findings: Finding[] = [];
  for (const field of OWNER_FIELDS) {
    const value = before[field] ?? undefined;
    if (JSON.stringify(candidate.frontmatter[field] ?? undefined) === JSON.stringify(value)) continue;
    findings.push(
      finding('owner-field', candidate.path, `\`${field}\` is set by the page's owner only (it decides who sees the page)`, {
        fix: value === undefined ? `leave \`${field}\` out of the frontmatter` : `keep \`${field}: ${String(value)}\` as it is`,
      }),
    );
  }
  return findings;
}


function toolOwnedFieldFindings(candidate: Page, previous: Page | undefined): Finding[] {
  const findings: Finding[] = [];
  for (const field of TOOL_OWNED_FIELDS) {
    const value = candidate.frontmatter[field];
    if (value === undefined || value === null) continue;
    const before = previous?.frontmatter[field];
    if (before !== undefined && before !== null && String(before) === String(value)) continue;
    findings.push(
      finding('tool-owned-field', candidate.path, `\`${field}\` is set by the tool only`, {
        fix: before === undefined || before === null ? `leave \`${field}\` out of the frontmatter` : `keep \`${field}: ${String(before)}\` as it is`,
      }),
    );
  }
  return findings;
}

/** Provenance only grows: a source whose raw file still exists stays listed. */
function droppedSourceFindings(candidate: Page, previous: Page, rawExists: (rawPath: string) => boolean): Finding[] {
  const kept = new Set(sourcesOf(candidate.frontmatter).map(normalSource));
  const findings: Finding[] = [];
  for (const entry of sourcesOf(previous.frontmatter)) {
    const file = sourceFilePath(entry);
    if (file === undefined || !rawExists(file) || kept.has(normalSource(entry))) continue;
    findings.push(
      finding('dropped-source', candidate.path, `the update drops "${entry}" from \`sources\`, and that raw file still exists`, {
        fix: `keep "${entry}" in \`sources\` (provenance only grows; add new sources beside it)`,
      }),
    );
  }
  return findings;
}

function normalSource(entry: string): string {
  return sourceFilePath(entry) ?? entry.trim();
}

/** A new page whose key or title nearly matches an existing page's: update that page instead. */
function nearDuplicateAtCreation(candidate: Page, index: PageIndex, alongside: PageIndex | undefined): Finding[] {
  return nearDuplicatesAlongside(candidate, index, alongside).map(({ otherPath, finding: near }) => ({
    ...near,
    rule: 'near-duplicate',
    severity: 'error',
    fix: `update the existing page ${otherPath} instead of creating a second one (read it, then write it back with your additions)`,
  }));
}

/**
 * What a human added or changed since the tool's last write must all be in the new content:
 * body lines (compared trimmed, blank lines aside) and frontmatter fields (a changed value
 * kept, a list keeping every item the human put in). Without the tool's copy, all of it counts.
 */
function lostHumanEditFindings(candidate: Page, current: Page, protectedLines: readonly string[], fields: ProtectedFields): Finding[] {
  const missing: string[] = [];
  // A line the owner left readable counts as kept only where it is still readable: not
  // inside an HTML comment (which hides it from search, MCP and every reader).
  const shownNow = new Set(linesOutsideComments(current.body));
  const shown = new Set(linesOutsideComments(candidate.body));
  const present = new Set(meaningfulLines(candidate.body));
  for (const line of protectedLines) if (!(shownNow.has(line) ? shown : present).has(line)) missing.push(line);
  for (const [field, value] of Object.entries(fields)) {
    if (!keepsValue(candidate.frontmatter[field], value)) missing.push(`${field}: ${JSON.stringify(value)}`);
  }
  if (missing.length === 0) return [];
  const quoted = missing.slice(0, 12).map((line) => `    ${line}`);
  if (missing.length > quoted.length) quoted.push(`    … and ${missing.length - quoted.length} more`);
  return [
    finding('human-edit', candidate.path, `a human edited this page, and the new content drops (or hides in a comment) ${missing.length} of their line(s):\n${quoted.join('\n')}`, {
      fix: 'keep every one of those lines and fields as they are, outside HTML comments, and add your changes around them (or run with --overwrite-edits to allow it)',
    }),
  ];
}

function baseOf(current: Page, ctx: Pick<GuardContext, 'humanEdit' | 'contract'>): Page | undefined {
  if (ctx.humanEdit?.base === undefined) return undefined;
  const base = parsePage(current.path, ctx.humanEdit.base, ctx.contract);
  return base.parseError ? undefined : base;
}

/**
 * The frontmatter values of the page now that are a human's: those carried from earlier
 * rewrites that the page still holds, and, while the page differs from the tool's last
 * write, every field added or changed since (a list: the items the human added; without
 * the tool's copy, every field). The date of the last change is bookkeeping and the
 * lifecycle marks are the tool's (TOOL_OWNED_FIELDS): neither is protected.
 * Who-sees-the-page fields are guarded for every write on their own (ownerFieldFindings).
 */
export function protectedFields(current: Page, ctx: Pick<GuardContext, 'humanEdit' | 'carriedHumanFields' | 'contract'>): ProtectedFields {
  const fields: ProtectedFields = {};
  for (const [field, value] of Object.entries(ctx.carriedHumanFields ?? {})) {
    // The owner changed or removed it by hand since: their page now says what holds.
    if (keepsValue(current.frontmatter[field], value)) fields[field] = value;
  }
  if (!ctx.humanEdit) return fields;
  const base = baseOf(current, ctx);
  for (const [field, value] of Object.entries(current.frontmatter)) {
    if (field === 'updated' || isToolOwned(field) || value === undefined || value === null) continue;
    const before = base?.frontmatter[field];
    if (base && sameValue(before, value)) continue;
    if (Array.isArray(value)) {
      const had = new Set((Array.isArray(before) ? before : []).map((item) => JSON.stringify(item)));
      const added = value.filter((item) => !had.has(JSON.stringify(item)));
      const carried = Array.isArray(fields[field]) ? (fields[field] as unknown[]) : [];
      if (added.length > 0 || carried.length > 0) fields[field] = uniqueItems([...carried, ...added]);
    } else {
      fields[field] = value;
    }
  }
  return fields;
}

function isToolOwned(field: string): boolean {
  return (TOOL_OWNED_FIELDS as readonly string[]).includes(field);
}

function uniqueItems(items: unknown[]): unknown[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = JSON.stringify(item);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * The body lines of the page now that are a human's: added or changed since the tool's last
 * write, plus those carried from earlier rewrites that are still there.
 */
export function protectedBody(current: Page, ctx: Pick<GuardContext, 'humanEdit' | 'carriedHumanLines' | 'contract'>): string[] {
  const now = new Set(meaningfulLines(current.body));
  const carried = (ctx.carriedHumanLines ?? []).filter((line) => now.has(line));
  if (!ctx.humanEdit) return [...new Set(carried)];
  const base = ctx.humanEdit.base === undefined ? undefined : parsePage(current.path, ctx.humanEdit.base, ctx.contract);
  return [...new Set([...carried, ...humanLines(current.body, base && !base.parseError ? base.body : undefined)])];
}

/** The lines of `current` that are not in `base`: what the human added or changed. */
export function humanLines(current: string, base: string | undefined): string[] {
  const now = meaningfulLines(current);
  if (base === undefined) return now;
  const lines: string[] = [];
  for (const part of diffArrays(meaningfulLines(base), now)) if (part.added) lines.push(...part.value);
  return lines;
}

/**
 * The meaningful lines of `text` that a reader sees: a line starting inside an HTML comment
 * (`<!--` opened on an earlier line and not yet closed) is hidden.
 */
export function linesOutsideComments(text: string): string[] {
  const shown: string[] = [];
  let inComment = false;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!inComment && line !== '') shown.push(line);
    let at = 0;
    for (;;) {
      const next = inComment ? raw.indexOf('-->', at) : raw.indexOf('<!--', at);
      if (next < 0) break;
      at = next + (inComment ? 3 : 4);
      inComment = !inComment;
    }
  }
  return shown;
}

function meaningfulLines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The new value keeps the human's: equal, or for a list every item the human added. */
export function keepsValue(next: unknown, human: unknown): boolean {
  if (sameValue(next, human)) return true;
  if (Array.isArray(human) && Array.isArray(next)) {
    const has = new Set(next.map((item) => JSON.stringify(item)));
    return human.every((item) => has.has(JSON.stringify(item)));
  }
  return false;
}
