import { diffArrays } from 'diff';
import { isSpecialPage, type Contract } from '../contract.js';
import type { PageIndex } from '../page-index.js';
import { parsePage, sourcesOf, type Page } from '../page.js';
import { finding, type Finding } from './finding.js';
import { nearDuplicatesOf } from './near-duplicate.js';
import { sourceFilePath } from './page-rules.js';

/** Fields only the tool sets: stale marks on a source change, archive marks. */
export const TOOL_OWNED_FIELDS = ['stale_since', 'archived_since'] as const;

export interface GuardContext {
  contract: Contract;
  index: PageIndex;
  rawExists: (rawPath: string) => boolean;
  /**
   * What the tool last wrote to this page when a human has edited it since (`text`; undefined
   * when the tool's copy is not kept), or undefined when the page is not human-edited.
   */
  humanEdit?: { base: string | undefined } | undefined;
  /** Human lines kept by earlier accepted rewrites of this page (see state/human-lines.ts). */
  carriedHumanLines?: readonly string[];
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
  const findings: Finding[] = [...toolOwnedFieldFindings(candidate, previous)];
  if (previous && !previous.parseError) findings.push(...droppedSourceFindings(candidate, previous, ctx.rawExists));
  if (!previous) findings.push(...nearDuplicateAtCreation(candidate, ctx.index));
  if (previous && !previous.parseError && (ctx.humanEdit || ctx.carriedHumanLines?.length)) {
    const fields = ctx.humanEdit ? { base: baseOf(candidate, ctx) } : undefined;
    findings.push(...lostHumanEditFindings(candidate, previous, ctx.protectedLines ?? protectedBody(previous, ctx), fields));
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
function nearDuplicateAtCreation(candidate: Page, index: PageIndex): Finding[] {
  return nearDuplicatesOf(candidate, index).map(({ otherPath, finding: near }) => ({
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
function lostHumanEditFindings(candidate: Page, current: Page, protectedLines: readonly string[], fields: { base: Page | undefined } | undefined): Finding[] {
  const missing: string[] = [];
  const kept = new Set(meaningfulLines(candidate.body));
  for (const line of protectedLines) if (!kept.has(line)) missing.push(line);
  const fieldBase = fields?.base;
  // Fields are the human's only when the page differs from the tool's last write now.
  for (const [field, value] of fields ? Object.entries(current.frontmatter) : []) {
    // The date of the last change is bookkeeping, not content: an update may move it.
    if (field === 'updated') continue;
    const before = fieldBase?.frontmatter[field];
    if (fieldBase && sameValue(before, value)) continue;
    if (!keepsValue(candidate.frontmatter[field], value, before)) missing.push(`${field}: ${JSON.stringify(value)}`);
  }
  if (missing.length === 0) return [];
  const shown = missing.slice(0, 12).map((line) => `    ${line}`);
  if (missing.length > shown.length) shown.push(`    … and ${missing.length - shown.length} more`);
  return [
    finding('human-edit', candidate.path, `a human edited this page since wiki last wrote it, and the new content drops ${missing.length} of their line(s):\n${shown.join('\n')}`, {
      fix: 'keep every one of those lines and fields as they are and add your changes around them (or run with --overwrite-edits to allow it)',
    }),
  ];
}

function baseOf(candidate: Page, ctx: GuardContext): Page | undefined {
  if (ctx.humanEdit?.base === undefined) return undefined;
  const base = parsePage(candidate.path, ctx.humanEdit.base, ctx.contract);
  return base.parseError ? undefined : base;
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
function keepsValue(next: unknown, human: unknown, before: unknown): boolean {
  if (sameValue(next, human)) return true;
  if (Array.isArray(human) && Array.isArray(next)) {
    const had = new Set((Array.isArray(before) ? before : []).map((item) => JSON.stringify(item)));
    const has = new Set(next.map((item) => JSON.stringify(item)));
    return human.every((item) => had.has(JSON.stringify(item)) || has.has(JSON.stringify(item)));
  }
  return false;
}
