import path from 'node:path';
import { InputError } from '../errors.js';
import {
  binaryError,
  decodeText,
  emptyError,
  looksBinary,
  looksLikeHtml,
  sniffHtmlCharset,
  startsWithPdfMagic,
} from './decode.js';
import { articleToMarkdown, extractArticle, type Article } from './html.js';
import { DEFAULT_SOURCE_LIMITS, type SourceLimits } from './limits.js';

export type SourceFormat = 'text' | 'markdown' | 'pdf' | 'html';

export interface ExtractedText {
  text: string;
  format: SourceFormat;
  warnings: string[];
  /** PDF Info title, or the HTML page/article title; absent for text and markdown. */
  title?: string;
}

/** Extensions `wiki ingest DIR` picks up; anything else is read as text only when asked for by name. */
export const SUPPORTED_EXTENSIONS: readonly string[] = ['.md', '.markdown', '.txt', '.pdf', '.html', '.htm', '.xhtml'];

const MARKDOWN_EXTENSIONS = new Set(['.md', '.markdown', '.mdown', '.mkd']);
const HTML_EXTENSIONS = new Set(['.html', '.htm', '.xhtml']);

/** Whether `relPath` needs conversion (PDF, HTML) rather than a plain text read. */
export function isExtractable(relPath: string): boolean {
  const extension = path.extname(relPath).toLowerCase();
  return extension === '.pdf' || HTML_EXTENSIONS.has(extension);
}

/**
 * The readable text of a source file. PDF pages are opened by `<!-- page N -->` markers;
 * HTML becomes markdown of its main content (headings as section markers). Text that is
 * not valid UTF-8 is decoded with replacement characters and a warning.
 * Throws InputError for empty, binary, encrypted or damaged files.
 */
export async function extractText(relPath: string, bytes: Uint8Array, limits: SourceLimits = DEFAULT_SOURCE_LIMITS): Promise<ExtractedText> {
  if (bytes.length === 0) throw emptyError(relPath);
  const format = detectFormat(relPath, bytes);
  if (format === 'pdf') {
    // Loaded only for a PDF: pdf.js's polyfills replace JSON.stringify with one ten times slower for the whole process.
    const { extractPdf } = await import('./pdf.js');
    const pdf = await extractPdf(relPath, bytes, limits);
    return withTitle({ text: pdf.text, format, warnings: pdf.warnings }, pdf.title);
  }
  if (looksBinary(bytes)) throw binaryError(relPath);
  if (format === 'html') return extractHtml(relPath, bytes, limits);
  const decoded = decodeText(bytes, relPath);
  if (decoded.text.trim() === '') throw emptyError(relPath);
  return { text: decoded.text, format, warnings: decoded.warnings };
}

/**
 * HTML bytes decoded (in `charset` when the server declared one, else the page's own) and cut
 * to the main article, with the warnings that go with it; a file and a fetched page alike.
 */
export function readHtmlArticle(
  label: string,
  bytes: Uint8Array,
  options: { charset?: string; baseUrl?: string; limits?: SourceLimits } = {},
): { article: Article; warnings: string[] } {
  const decoded = decodeText(bytes, label, options.charset ?? sniffHtmlCharset(bytes));
  const article = extractArticle(decoded.text, { label, baseUrl: options.baseUrl, maxDepth: (options.limits ?? DEFAULT_SOURCE_LIMITS).htmlDepth });
  const warnings = [...decoded.warnings];
  if (!article.foundArticle) warnings.push(`${label}: no main article found; converted the whole page`);
  return { article, warnings };
}

/** HTML bytes → markdown of the main content. */
function extractHtml(label: string, bytes: Uint8Array, limits: SourceLimits): ExtractedText {
  const { article, warnings } = readHtmlArticle(label, bytes, { limits });
  const markdown = articleToMarkdown(article);
  if (markdown.trim() === '') throw new InputError(`${label} has no readable text`);
  return withTitle({ text: markdown, format: 'html', warnings }, article.title);
}

function detectFormat(relPath: string, bytes: Uint8Array): SourceFormat {
  const extension = path.extname(relPath).toLowerCase();
  if (extension === '.pdf' || startsWithPdfMagic(bytes)) return 'pdf';
  if (HTML_EXTENSIONS.has(extension)) return 'html';
  if (MARKDOWN_EXTENSIONS.has(extension)) return 'markdown';
  if (extension !== '.txt' && looksLikeHtml(bytes)) return 'html';
  return 'text';
}

function withTitle(result: ExtractedText, title: string | undefined): ExtractedText {
  return title === undefined ? result : { ...result, title };
}
