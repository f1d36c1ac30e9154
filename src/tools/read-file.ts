import { z } from 'zod';
import type { FactLines, SourceFacts, ToolContext } from './context.js';
import { hardLinkRefusal } from '../confine/confined-io.js';
import { defineTool, failure, success } from './define.js';
import { missingPathMessage } from './missing-path-hint.js';
import { observerNote } from './page-write.js';
import { resolveInSandbox } from './sandbox.js';
import type { Tool, ToolOutcome } from '../agent/tool.js';
import { delimitSourceText, isSourcePath } from './source-delimiters.js';
import { byteWindow, decodeText, LINE_MARK, looksBinary, numberLines, textWindow } from './text-window.js';

export const DEFAULT_READ_LIMIT = 20_000;
export const MAX_READ_LIMIT = 50_000;
/** Above this a file is never loaded whole: windows are byte ranges read from disk. */
export const WHOLE_FILE_MAX_BYTES = 8 * 1024 * 1024;
/** Files up to this size are offered to the text extractor (PDF, HTML…). */
export const EXTRACT_MAX_BYTES = 64 * 1024 * 1024;
const SNIFF_BYTES = 64 * 1024;
const EXTRACTION_CACHE_SIZE = 8;

const args = z.strictObject({
  path: z.string().describe('File path relative to the workspace root, e.g. raw/paper.md or wiki/concepts/attention.md'),
  offset: z.number().int().min(0).optional().describe('Where the window starts (characters; bytes for files over 8 MB). Default 0; use the "next offset" a previous read reported.'),
  limit: z.number().int().min(1).optional().describe(`Window size (characters; bytes for files over 8 MB). Default: the window this tool's description states, or the smaller one the run's first message gives when its context budget is small; values above ${MAX_READ_LIMIT.toLocaleString('en-US')} are capped.`),
});

/**
 * What read_file says of itself. The same in every run, whatever its context budget, so the
 * tool definitions stay a cached prefix; a run with a smaller window says so in its first message.
 */
export function readFileDescription(): string {
  return (
    'Read a text file anywhere in the workspace (sources in raw/, pages in wiki/, schema.md), one window at a time. ' +
    `A window is about ${DEFAULT_READ_LIMIT.toLocaleString('en-US')} characters unless you pass limit or the run's first message gives a smaller window; it starts at the start of a line (an offset inside a line moves back to it, or the header says the window starts mid-line), ends after a whole line, and a short rest of the file (under a quarter of a window) comes with it. ` +
    'The first line states the window (characters and lines), the total size and the next offset to continue from, or "end of file". ' +
    `In a source (raw/) every line starts with its line number and ${LINE_MARK} (e.g. "120${LINE_MARK}"), which is not part of the text: cite lines with those numbers (raw/x.md#L120-135). ` +
    'PDF and HTML sources come back as extracted text. Binary files, .wiki/, .git/ and .env files cannot be read.'
  );
}

export function createReadFileTool(ctx: ToolContext): Tool {
  // Extraction (a PDF parse) is costly; a run reads the same source window by window.
  const extracted = new Map<string, string | undefined>();

  async function extractedText(absolute: string, relative: string, size: number, mtimeMs: number): Promise<string | undefined> {
    if (!ctx.textExtractor || size > EXTRACT_MAX_BYTES) return undefined;
    if (ctx.extractable && !ctx.extractable(relative)) return undefined;
    const cacheKey = `${absolute}\u0000${size}\u0000${mtimeMs}`;
    if (extracted.has(cacheKey)) return extracted.get(cacheKey);
    const text = await ctx.textExtractor(relative, await ctx.fs.readBytes(absolute));
    if (extracted.size >= EXTRACTION_CACHE_SIZE) extracted.delete(extracted.keys().next().value ?? '');
    extracted.set(cacheKey, text);
    return text;
  }

  return defineTool({
    name: 'read_file',
    description: readFileDescription(),
    args,
    mutates: false,
    async run({ path, offset, limit }): Promise<ToolOutcome> {
      const target = await resolveInSandbox(ctx.root, path, 'read', ctx.deny);
      const shown = target.relative || '.';
      const absent = async (): Promise<ToolOutcome> => failure(await missingPathMessage(ctx, target.relative));
      if (ctx.hides?.(target.relative)) return absent();
      const info = await ctx.fs.stat(target.absolute);
      if (!info) return absent();
      if (info.kind === 'dir') return failure(`${shown} is a directory; use list_directory("${shown}") to see what it holds`);
      if (info.kind === 'symlink') return failure(`${shown} is a symbolic link to something that does not exist`);
      if (info.kind !== 'file') return failure(`${shown} is not a regular file (a device, socket or pipe); only files can be read`);
      if (info.links > 1) return failure(hardLinkRefusal(shown, info.links));

      const requested = limit ?? ctx.readLimit ?? DEFAULT_READ_LIMIT;
      const window = Math.min(requested, MAX_READ_LIMIT);
      const notes = requested > MAX_READ_LIMIT ? [`limit capped at ${MAX_READ_LIMIT}`] : [];
      // The observer's note (e.g. a human edited this page), given the text when it was read whole.
      const addNote = async (current?: string): Promise<void> => {
        const note = await observerNote(ctx, target.relative, current);
        if (note) notes.push(note);
      };
      const start = offset ?? 0;

      const text = await extractedText(target.absolute, target.relative, info.size, info.mtimeMs);
      if (text !== undefined) {
        await addNote();
        return readTextWindow(shown, text, start, window, ['extracted text', ...notes], ctx.sourceFacts);
      }
      if (info.size <= WHOLE_FILE_MAX_BYTES) {
        const bytes = await ctx.fs.readBytes(target.absolute);
        if (looksBinary(bytes)) return binaryRefusal(shown, info.size);
        const decoded = decodeText(bytes);
        if (ctx.hides?.(target.relative, decoded.text)) return absent();
        ctx.observer?.afterRead?.(target.relative, bytes);
        await addNote(decoded.replaced === 0 ? decoded.text : undefined);
        if (decoded.replaced > 0) notes.push(`not valid UTF-8: ${decoded.replaced} invalid byte sequence(s) shown as \uFFFD`);
        return readTextWindow(shown, decoded.text, start, window, notes, ctx.sourceFacts);
      }
      if (looksBinary(await ctx.fs.readBytes(target.absolute, { start: 0, length: SNIFF_BYTES }))) return binaryRefusal(shown, info.size);
      await addNote();
      if (start > info.size) return failure(`offset ${start} is past the end of ${shown} (${info.size} bytes)`);
      const chunk = await ctx.fs.readBytes(target.absolute, { start, length: window });
      const part = byteWindow(chunk, start, start + chunk.length >= info.size);
      if (part.replaced > 0) notes.push(`${part.replaced} invalid UTF-8 sequence(s) shown as \uFFFD`);
      notes.unshift(`large file: offset and limit count bytes`);
      const next = part.end >= info.size ? 'end of file' : `next offset: ${part.end}`;
      return success(`[${shown}: bytes ${part.start}-${part.end} of ${info.size}; ${next}; ${notes.join('; ')}]\n${asShown(shown, part.text)}`);
    },
  });
}

async function readTextWindow(
  shown: string,
  text: string,
  offset: number,
  limit: number,
  notes: string[],
  sourceFacts: SourceFacts | undefined,
): Promise<ToolOutcome> {
  if (offset > text.length) return failure(`offset ${offset} is past the end of ${shown} (${text.length} characters)`);
  if (text.length === 0) return success(`[${shown}: empty file]`);
  const part = textWindow(text, offset, limit);
  const next = part.end >= part.total ? 'end of file' : `next offset: ${part.end}`;
  const moved = part.start < offset ? ` (from the start of line ${part.lines.first}, which offset ${offset} was inside)` : '';
  const partial = part.midLine ? ` (starting in the middle of line ${part.lines.first})` : '';
  const lines = `lines ${part.lines.first}-${part.lines.last} of ${part.lines.total}${moved}${partial}`;
  const extra = notes.length > 0 ? `; ${notes.join('; ')}` : '';
  const source = isSourcePath(shown);
  const facts = source && sourceFacts ? factsLine(await sourceFacts(shown, part.lines.first, part.lines.last)) : '';
  // Sources are cited by line; pages are not, and a page's text goes back into writes, so it stays unnumbered.
  const shownText = source ? numberLines(part.text, part.lines.first) : part.text;
  return success(`[${shown}: characters ${part.start}-${part.end} of ${part.total}, ${lines}; ${next}${extra}]\n${asShown(shown, shownText)}${facts}`);
}

/**
 * The fact ids of the window's lines, after the source block, for a schema that asks the
 * model to cite facts as [^id]: the id's line number tells which sentence it is.
 */
function factsLine(facts: readonly FactLines[]): string {
  if (facts.length === 0) return '';
  const listed = facts.map((fact) => `${fact.lineStart} ${fact.id.replace(/^f-/, '')}`);
  return `\n[fact ids by line, to cite as [^f-<id>] after a claim: ${listed.join(', ')}]`;
}

/** Sources are shown as delimited data (see source-delimiters.ts); pages and schema.md as they are. */
function asShown(shown: string, text: string): string {
  return isSourcePath(shown) ? delimitSourceText(shown, text) : text;
}

function binaryRefusal(shown: string, size: number): ToolOutcome {
  return failure(`${shown} is a binary file (${size} bytes), not text; it cannot be read. Only text, markdown, PDF and HTML sources can be used.`);
}
