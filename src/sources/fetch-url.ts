import path from 'node:path';
import YAML from 'yaml';
import { InputError } from '../errors.js';
import { isoDate } from '../util/dates.js';
import { toPosixRelative } from '../util/fs.js';
import { slugify } from '../wiki/slug.js';
import { publicOrSameHost, type Resolver } from './address-policy.js';
import { pinnedGet, type GetImpl } from './pinned-get.js';
import { saveImageAssets } from './assets.js';
import type { Byline } from './byline.js';
import {
  binaryError,
  charsetFromContentType,
  decodeText,
  emptyError,
  looksBinary,
  looksLikeHtml,
  startsWithPdfMagic,
} from './decode.js';
import { readHtmlArticle } from './extract.js';
import { articleToMarkdown, dropInlineImages, imageSources, rewriteImageSources } from './html.js';
import { openUrl, type OpenResponse, type RequestOptions } from './http.js';
import { placeFile } from './place-file.js';

export interface FetchUrlOptions {
  /** Deadline for the page, headers and body together (default 30 s); each image gets at most 10 s of it. */
  timeoutMs?: number;
  /** Cap on the page body (default 20 MB). */
  maxBytes?: number;
  /** Images larger than this are left as remote links (default 2 MB). */
  maxAssetBytes?: number;
  /** At most this many images are saved per page (default 50). */
  maxAssets?: number;
  now?: Date;
  /** The GET (default: pinnedGet, connecting to the address the check approved). */
  getImpl?: GetImpl;
  /** Host name → addresses, to judge whether a host is public (default: the system resolver). */
  resolve?: Resolver;
}

export interface FetchedSource {
  /** Workspace-relative path of the saved source, e.g. `raw/attention-is-all-you-need.md`. */
  rawPath: string;
  title: string;
  /** Workspace-relative paths of images saved under `raw/assets/`. */
  assets: string[];
  warnings: string[];
  /** An existing file under raw/ already held this content; it was left as it was. */
  reused: boolean;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_BYTES = 20 * 1024 * 1024;
const DEFAULT_MAX_ASSET_BYTES = 2 * 1024 * 1024;
const DEFAULT_MAX_ASSETS = 50;
// Images are optional extras: a slow image server should not hold the page up for long.
const MAX_ASSET_TIMEOUT_MS = 10_000;

const ACCEPT = 'text/html,application/xhtml+xml,application/pdf,text/markdown,text/plain;q=0.9,*/*;q=0.1';

type PageKind = 'html' | 'pdf' | 'text';

/** An http(s) URL, as opposed to a path. */
export function isUrl(arg: string): boolean {
  if (!/^https?:\/\//i.test(arg)) return false;
  try {
    new URL(arg);
    return true;
  } catch {
    return false;
  }
}

/**
 * Fetch `url` and save it under `root/raw/`: an HTML page as markdown of its main content
 * (small images saved to `raw/assets/`), a text or markdown page as markdown, both with
 * `url`/`title`/`fetched` frontmatter; a PDF as the .pdf itself (read as text later).
 * Anything else, an HTTP error, a timeout or a body past the cap throws InputError and
 * leaves raw/ untouched.
 */
export async function fetchUrlToRaw(url: string, root: string, options: FetchUrlOptions = {}): Promise<FetchedSource> {
  if (!isUrl(url)) throw new InputError(`${url} is not an http or https URL`);
  const request: RequestOptions = {
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    getImpl: options.getImpl ?? pinnedGet,
    accept: ACCEPT,
    checkAddress: publicOrSameHost(url, options.resolve),
  };
  const response = await openUrl(url, request);
  if (response.status >= 400) {
    await response.discard();
    const reason = response.statusText ? ` ${response.statusText}` : '';
    throw new InputError(`${url}: HTTP ${response.status}${reason}; nothing was saved`);
  }
  const declaredKind = kindOfMime(response.mime);
  if (declaredKind === 'refused') {
    await response.discard();
    throw notAPage(url, response.mime);
  }
  const bytes = await response.readBody(options.maxBytes ?? DEFAULT_MAX_BYTES);
  const kind = declaredKind === 'sniff' ? sniffKind(url, response, bytes) : declaredKind;
  const fetched = isoDate(options.now ?? new Date());

  if (kind === 'pdf') return savePdf(url, response.finalUrl, bytes, root);
  if (bytes.length === 0) throw emptyError(url);
  if (looksBinary(bytes)) throw binaryError(url);
  const charset = charsetFromContentType(response.contentType);
  if (kind === 'html') {
    return saveHtml(url, response.finalUrl, bytes, charset, root, fetched, {
      ...request,
      timeoutMs: Math.min(request.timeoutMs, MAX_ASSET_TIMEOUT_MS),
      maxAssetBytes: options.maxAssetBytes ?? DEFAULT_MAX_ASSET_BYTES,
      maxAssets: options.maxAssets ?? DEFAULT_MAX_ASSETS,
    });
  }
  const decoded = decodeText(bytes, url, charset);
  if (decoded.text.trim() === '') throw emptyError(url);
  const title = firstHeading(decoded.text) ?? titleFromUrl(response.finalUrl);
  return saveMarkdown(url, response.finalUrl, title, decoded.text, root, fetched, [], decoded.warnings);
}

async function saveHtml(
  url: string,
  finalUrl: string,
  bytes: Uint8Array,
  charset: string | undefined,
  root: string,
  fetched: string,
  assetOptions: Parameters<typeof saveImageAssets>[2],
): Promise<FetchedSource> {
  const { article, warnings } = readHtmlArticle(url, bytes, { charset, baseUrl: finalUrl });
  const dropped = dropInlineImages(article.content);
  if (dropped > 0) warnings.push(`${dropped} inline (data:) image${dropped === 1 ? '' : 's'} left out`);
  const title = article.title ?? titleFromUrl(finalUrl);
  // Convert once before downloading anything, so a page with no text fails with nothing saved.
  if (articleToMarkdown({ title, content: article.content }).trim() === '') {
    throw new InputError(`${url} has no readable text; nothing was saved`);
  }
  const assets = await saveImageAssets(imageSources(article.content), root, assetOptions);
  rewriteImageSources(article.content, assets.links);
  const markdown = articleToMarkdown({ title, content: article.content, byline: article.byline });
  const saved = await saveMarkdown(url, finalUrl, title, markdown, root, fetched, assets.saved, [...warnings, ...assets.warnings], article.byline);
  return saved;
}

async function saveMarkdown(
  url: string,
  finalUrl: string,
  title: string,
  body: string,
  root: string,
  fetched: string,
  assets: string[],
  warnings: string[],
  byline: Byline = {},
): Promise<FetchedSource> {
  const frontmatter: Record<string, string> = { url, title, fetched };
  if (finalUrl !== url) frontmatter.final_url = finalUrl;
  if (byline.author) frontmatter.author = byline.author;
  if (byline.published) frontmatter.published = byline.published;
  const document = `---\n${YAML.stringify(frontmatter, { lineWidth: 0 })}---\n\n${body.trimEnd()}\n`;
  const placed = await placeFile(
    path.join(root, 'raw'),
    slugFor(title, finalUrl),
    '.md',
    Buffer.from(document, 'utf8'),
    (existing) => withoutFetchDate(existing.toString('utf8')) === withoutFetchDate(document),
  );
  return { rawPath: toPosixRelative(root, placed.absPath), title, assets, warnings, reused: placed.reused };
}

async function savePdf(url: string, finalUrl: string, bytes: Uint8Array, root: string): Promise<FetchedSource> {
  // Extract now so a damaged or protected PDF is refused before anything is saved.
  const { extractPdf } = await import('./pdf.js');
  const pdf = await extractPdf(url, bytes);
  const title = pdf.title ?? titleFromUrl(finalUrl);
  const placed = await placeFile(path.join(root, 'raw'), slugFor(title, finalUrl), '.pdf', bytes);
  return { rawPath: toPosixRelative(root, placed.absPath), title, assets: [], warnings: pdf.warnings, reused: placed.reused };
}

function kindOfMime(mime: string): PageKind | 'sniff' | 'refused' {
  if (mime === 'text/html' || mime === 'application/xhtml+xml') return 'html';
  if (mime === 'application/pdf' || mime === 'application/x-pdf') return 'pdf';
  if (mime === 'text/plain' || mime === 'text/markdown' || mime === 'text/x-markdown') return 'text';
  // Some servers label every download as octet-stream, and some send no type at all.
  if (mime === '' || mime === 'application/octet-stream' || mime === 'binary/octet-stream') return 'sniff';
  return 'refused';
}

/** Octet-stream is accepted only when it is a PDF; an unlabelled body may also be HTML or text. */
function sniffKind(url: string, response: OpenResponse, bytes: Uint8Array): PageKind {
  if (startsWithPdfMagic(bytes)) return 'pdf';
  if (response.mime !== '') throw notAPage(url, response.mime);
  if (looksBinary(bytes)) throw notAPage(url, 'binary data with no content type');
  return looksLikeHtml(bytes) ? 'html' : 'text';
}

function notAPage(url: string, what: string): InputError {
  return new InputError(`${url} is not a text, HTML or PDF page (it is ${what}); nothing was saved`);
}

function firstHeading(markdown: string): string | undefined {
  return /^#{1,2}\s+(.+?)\s*#*\s*$/m.exec(markdown)?.[1]?.trim() || undefined;
}

function titleFromUrl(url: string): string {
  const { hostname, pathname } = new URL(url);
  const last = pathname.split('/').filter(Boolean).pop();
  if (!last) return hostname;
  let decoded = last;
  try {
    decoded = decodeURIComponent(last);
  } catch {
    // keep the raw segment
  }
  return decoded.replace(/\.[a-z0-9]{1,5}$/i, '').replace(/[-_]+/g, ' ').trim() || hostname;
}

function slugFor(title: string, url: string): string {
  const { hostname, pathname } = new URL(url);
  return slugify(title) || slugify(`${hostname} ${pathname}`) || 'page';
}

/** The saved document minus its `fetched:` line, so a re-fetch of unchanged content is reused. */
function withoutFetchDate(document: string): string {
  return document.replace(/^fetched: .*\n/m, '');
}
