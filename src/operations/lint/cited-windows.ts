import path from 'node:path';
import { extractText } from '../../sources/extract.js';
import { ConfinedIo } from '../../confine/confined-io.js';
import type { Finding } from '../../wiki/validate/finding.js';
import { CITATION_SLACK } from '../../facts/grounding.js';

/**
 * Where a flagged sentence's cited lines are, as the read_file arguments that show just
 * them (and the slack matching allowed): a played `lint --fix` review read whole 20,000-
 * character windows to check each finding, since read_file moves by offset, not line.
 */

/** Longest window a hint asks for: a long cited range is read from its start, as far as this. */
const MOST_CHARS = 6000;

export interface CitedRange {
  file: string;
  first: number;
  last: number;
}

/** The `raw/x.md#L10-20` ranges a finding's message names (its "… say:" part). */
export function citedRanges(finding: Finding): CitedRange[] {
  const where = /\(((?:[^()\s,]+#L\d+(?:-\d+)?(?:, )?)+) say:/.exec(finding.message)?.[1] ?? '';
  return [...where.matchAll(/([^\s,]+)#L(\d+)(?:-(\d+))?/g)].map((m) => ({ file: m[1] ?? '', first: Number(m[2]), last: Number(m[3] ?? m[2]) }));
}

/** One line per cited range of each finding: `- wiki/a.md:12 — read_file raw/x.md offset 4120 limit 1380 (lines 7–23)`. */
export async function citedWindowLines(root: string, findings: readonly Finding[]): Promise<string[]> {
  return windowLines(root, findings.map((finding) => ({ label: `${finding.path}:${finding.line ?? ''}`, ranges: citedRanges(finding) })));
}

/**
 * Where the source lines a finding names in its own words are ("raw/x.md#L601-605 gives only …",
 * as a model review writes them): a played lint --fix had only the ranges, and guessed offsets.
 * A grounding finding's cited lines ("… say:") are shown by citedWindowLines; these are the rest.
 */
export async function namedWindowLines(root: string, findings: readonly Finding[]): Promise<string[]> {
  const named = findings.filter((finding) => citedRanges(finding).length === 0);
  return windowLines(
    root,
    named.map((finding) => ({
      label: `${finding.rule} ${finding.path}${finding.line !== undefined ? `:${finding.line}` : ''}`,
      ranges: placeRanges([...finding.message.matchAll(/raw\/[^\s#()"'`,;]+#L\d+(?:-\d+)?/g)].map((m) => m[0])),
    })),
  );
}

/** The same for places given as `raw/x.md#L143-145` (where a closest fact is stated). */
export function placeRanges(places: readonly string[]): CitedRange[] {
  return places.flatMap((place) => {
    const m = /^(raw\/[^#\s]+)#L(\d+)(?:-(\d+))?$/.exec(place);
    return m ? [{ file: m[1] ?? '', first: Number(m[2]), last: Number(m[3] ?? m[2]) }] : [];
  });
}

/** One hint line per range of each labelled item. */
export async function windowLines(root: string, items: ReadonlyArray<{ label: string; ranges: readonly CitedRange[] }>): Promise<string[]> {
  const io = new ConfinedIo(root);
  const texts = new Map<string, string | undefined>();
  const textOf = async (file: string): Promise<string | undefined> => {
    if (!texts.has(file)) texts.set(file, await readSourceText(io, root, file));
    return texts.get(file);
  };
  const lines: string[] = [];
  for (const { label, ranges } of items) {
    for (const range of ranges) {
      if (!range.file.startsWith('raw/')) continue;
      const text = await textOf(range.file);
      if (text === undefined) continue;
      const window = lineWindow(text, Math.max(1, range.first - CITATION_SLACK), range.last + CITATION_SLACK);
      if (window === undefined) continue;
      lines.push(`- ${label} — read_file ${range.file} offset ${window.offset} limit ${window.limit} (lines ${window.first}–${window.last})`);
    }
  }
  return lines;
}

/** The character offset where line `first` starts and how many characters reach the end of line `last` (at most MOST_CHARS). */
export function lineWindow(text: string, first: number, last: number): { offset: number; limit: number; first: number; last: number } | undefined {
  let line = 1;
  let offset = -1;
  let index = 0;
  while (line < first) {
    const next = text.indexOf('\n', index);
    if (next < 0) return undefined;
    index = next + 1;
    line++;
  }
  offset = index;
  let end = offset;
  let shownLast = first - 1;
  while (line <= last) {
    const next = text.indexOf('\n', end);
    const lineEnd = next < 0 ? text.length : next + 1;
    if (lineEnd - offset > MOST_CHARS && shownLast >= first) break;
    end = lineEnd;
    shownLast = line;
    if (next < 0) break;
    line++;
  }
  if (shownLast < first) return undefined;
  return { offset, limit: Math.max(1, end - offset), first, last: shownLast };
}

/** A raw source's text as read_file and the grounding check see it (pdf and html extracted), read confined; undefined when unreadable, refused or gone. */
export async function readSourceText(io: ConfinedIo, root: string, file: string): Promise<string | undefined> {
  try {
    return (await extractText(file, await io.readBytes(path.join(root, file)))).text;
  } catch {
    return undefined;
  }
}
