import { diffArrays } from 'diff';

/**
 * Where each line of a source's earlier text is in its current text: a line diff of the two
 * (Myers, as git's), so a citation to lines that moved but did not change can follow them.
 * Lines are numbered as read_file numbers them: 1-based, a last line without a newline
 * counts, an empty text has one line.
 */
export interface LineMap {
  /** The current line holding old line `oldLine` unchanged; undefined when it changed or went. */
  newLineOf(oldLine: number): number | undefined;
  readonly oldLineCount: number;
  readonly newLineCount: number;
}

export function sourceLines(text: string): string[] {
  const lines = text.split('\n').map((line) => line.replace(/\r$/, ''));
  if (lines.length > 1 && lines.at(-1) === '') lines.pop();
  return lines;
}

/**
 * Markdown emphasis, code marks and spacing carry no claim: "gate:** read**" and "gate: **read**"
 * say the same, so a line whose only change is its markup has not changed for the sentences citing it.
 */
function wordsOf(line: string): string {
  return line
    .replace(/[*`]+/g, '')
    .replace(/(?<![\p{L}\p{N}])_+|_+(?![\p{L}\p{N}])/gu, '')
    .replace(/\s+/g, ' ')
    .trim();
}

export function mapLines(oldText: string, newText: string): LineMap {
  const before = sourceLines(oldText);
  const after = sourceLines(newText);
  const kept = new Map<number, number>();
  let oldLine = 1;
  let newLine = 1;
  // Diffed as words (the lines' indexes are the same): a markup-only edit keeps its line.
  for (const part of diffArrays(before.map(wordsOf), after.map(wordsOf))) {
    const count = part.value.length;
    if (part.added) newLine += count;
    else if (part.removed) oldLine += count;
    else {
      for (let i = 0; i < count; i++) kept.set(oldLine + i, newLine + i);
      oldLine += count;
      newLine += count;
    }
  }
  return { newLineOf: (line) => kept.get(line), oldLineCount: before.length, newLineCount: after.length };
}

/** What became of a cited range: moved whole (perhaps by zero lines), or touched by the change. */
export type RangeFate = { kind: 'kept'; first: number; last: number } | { kind: 'changed' };

/**
 * A range follows the source only when every line of it is still there, unchanged and still
 * together: a line edited, removed or inserted inside it is a change a reader must look at.
 */
export function followRange(map: LineMap, first: number, last: number): RangeFate {
  const start = map.newLineOf(first);
  if (start === undefined) return { kind: 'changed' };
  for (let line = first + 1; line <= last; line++) {
    if (map.newLineOf(line) !== start + (line - first)) return { kind: 'changed' };
  }
  return { kind: 'kept', first: start, last: start + (last - first) };
}
