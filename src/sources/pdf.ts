import { createRequire } from 'node:module';
import path from 'node:path';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { TextItem, TextMarkedContent } from 'pdfjs-dist/types/src/display/api.js';
import { InputError } from '../errors.js';
import { DEFAULT_SOURCE_LIMITS, type SourceLimits } from './limits.js';
import { checkPdfInflation } from './pdf-inflation.js';

export interface ExtractedPdf {
  /** Page texts, each opened by `<!-- page N -->` so provenance can cite `raw/x.pdf#page=N`. */
  text: string;
  /** The document's Info-dictionary title, when it has one. */
  title: string | undefined;
  pageCount: number;
  warnings: string[];
}

/** The marker line that opens page `n` (1-based) of an extracted PDF. */
export function pageMarker(n: number): string {
  return `<!-- page ${n} -->`;
}

/**
 * Text of every page, lines rebuilt from the positioned text items. Runs pdf.js in-process
 * (its "fake worker"), reading CMaps and standard-font data from the installed package:
 * nothing is fetched from the network.
 */
export async function extractPdf(relPath: string, bytes: Uint8Array, limits: SourceLimits = DEFAULT_SOURCE_LIMITS): Promise<ExtractedPdf> {
  await checkPdfInflation(relPath, bytes, limits.pdfInflatedBytes);
  const assets = pdfjsAssetDirs();
  const task = getDocument({
    // pdf.js may take ownership of the buffer; hand it a copy so the caller's bytes stay usable.
    data: new Uint8Array(bytes),
    verbosity: 0,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    stopAtErrors: false,
    cMapUrl: assets.cMaps,
    cMapPacked: true,
    standardFontDataUrl: assets.standardFonts,
  });
  let document;
  try {
    document = await task.promise;
  } catch (error) {
    await task.destroy();
    throw openFailure(relPath, error);
  }
  try {
    if (document.numPages > limits.pdfPages) {
      throw new InputError(`${relPath} has ${document.numPages} pages, over the ${limits.pdfPages} allowed (limits.pdfPages in wiki.config.json); it was not read`, 'split it, or raise the limit for a file you trust');
    }
    const warnings: string[] = [];
    const pages: string[] = [];
    for (let n = 1; n <= document.numPages; n++) {
      try {
        const page = await document.getPage(n);
        const content = await page.getTextContent();
        pages.push(`${pageMarker(n)}\n${linesFromItems(content.items).join('\n')}`.trimEnd());
        page.cleanup();
      } catch (error) {
        warnings.push(`${relPath} page ${n} could not be read: ${messageOf(error)}`);
        pages.push(pageMarker(n));
      }
    }
    const text = pages.join('\n\n') + '\n';
    if (text.replace(/<!-- page \d+ -->/g, '').trim() === '') {
      throw new InputError(
        `${relPath} has no extractable text`,
        'it is probably scanned images; run it through OCR first (e.g. ocrmypdf) and ingest the result',
      );
    }
    return { text, title: await documentTitle(document), pageCount: document.numPages, warnings };
  } finally {
    await document.destroy();
  }
}

interface PositionedItem {
  str: string;
  x: number;
  y: number;
  width: number;
  height: number;
  hasEOL: boolean;
}

/**
 * Group text items into lines: an item ending with EOL closes its line, and so does a jump
 * in baseline. Items on one line are joined with a space when the gap between them looks
 * like one. A vertical gap well beyond the line height becomes a blank line (a paragraph).
 */
export function linesFromItems(items: Array<TextItem | TextMarkedContent>): string[] {
  const positioned = items.filter((item): item is TextItem => 'str' in item).map(toPositioned);
  const lines: string[] = [];
  let current = '';
  let previous: PositionedItem | undefined;
  let lastBaseline: number | undefined;
  let lastLineHeight = 0;

  const closeLine = (): void => {
    lines.push(current.replace(/\s+$/, ''));
    current = '';
    previous = undefined;
  };

  for (const item of positioned) {
    if (previous && item.str !== '' && Math.abs(item.y - previous.y) > Math.max(previous.height, item.height, 1) * 0.5) {
      closeLine();
    }
    if (item.str !== '') {
      if (current === '' && lastBaseline !== undefined && lastLineHeight > 0) {
        const gap = lastBaseline - item.y;
        if (gap > lastLineHeight * 1.8 && lines.length > 0 && lines[lines.length - 1] !== '') lines.push('');
      }
      if (previous && needsSpace(previous, item, current)) current += ' ';
      current += item.str;
      previous = item;
      lastBaseline = item.y;
      lastLineHeight = Math.max(item.height, 1);
    }
    if (item.hasEOL && current !== '') closeLine();
  }
  if (current !== '') closeLine();
  return lines;
}

function toPositioned(item: TextItem): PositionedItem {
  const [, , , , x = 0, y = 0] = item.transform as number[];
  return { str: item.str, x, y, width: item.width, height: item.height, hasEOL: item.hasEOL };
}

function needsSpace(previous: PositionedItem, next: PositionedItem, lineSoFar: string): boolean {
  if (/\s$/.test(lineSoFar) || /^\s/.test(next.str)) return false;
  const gap = next.x - (previous.x + previous.width);
  return gap > Math.max(previous.height, next.height, 1) * 0.15;
}

async function documentTitle(document: { getMetadata(): Promise<{ info: object }> }): Promise<string | undefined> {
  try {
    const { info } = await document.getMetadata();
    const title = (info as { Title?: unknown }).Title;
    return typeof title === 'string' && title.trim() !== '' ? title.trim() : undefined;
  } catch {
    return undefined;
  }
}

function openFailure(relPath: string, error: unknown): InputError {
  const name = error instanceof Error ? error.name : '';
  if (name === 'PasswordException') {
    return new InputError(
      `${relPath} is a password-protected PDF; wiki cannot read it`,
      'save an unprotected copy (e.g. `qpdf --decrypt in.pdf out.pdf`) and use that',
    );
  }
  if (name === 'InvalidPDFException') {
    return new InputError(`${relPath} is not a valid PDF (it is damaged or not a PDF at all)`);
  }
  return new InputError(`${relPath} could not be opened as a PDF: ${messageOf(error)}`);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

let assetDirs: { cMaps: string; standardFonts: string } | undefined;

function pdfjsAssetDirs(): { cMaps: string; standardFonts: string } {
  if (!assetDirs) {
    const packageDir = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
    assetDirs = {
      cMaps: path.join(packageDir, 'cmaps') + '/',
      standardFonts: path.join(packageDir, 'standard_fonts') + '/',
    };
  }
  return assetDirs;
}
