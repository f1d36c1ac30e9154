import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import TurndownService from 'turndown';
import { InputError } from '../errors.js';
import { bylineLine, readByline, type Byline } from './byline.js';

/**
 * HTML → markdown: Readability picks the main content (dropping navigation, footers and
 * other page chrome), turndown converts it with ATX headings so the `#`/`##` lines act as
 * section markers. When Readability finds no article, the whole body is converted instead.
 */

/** The few DOM members this module uses; linkedom's nodes provide them. */
export interface HtmlElement {
  readonly tagName: string;
  innerHTML: string;
  readonly textContent: string | null;
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
  querySelectorAll(selectors: string): Iterable<HtmlElement>;
  remove(): void;
}

/** The links of the element tree, for a walk without recursion. */
interface TreeNode {
  readonly firstElementChild: TreeNode | null;
  readonly nextElementSibling: TreeNode | null;
  readonly parentElement: TreeNode | null;
}

interface HtmlDocument {
  readonly documentElement: TreeNode | null;
  readonly title: string;
  readonly body: HtmlElement | null;
  querySelector(selectors: string): HtmlElement | null;
  querySelectorAll(selectors: string): Iterable<HtmlElement>;
}

export interface Article {
  title: string | undefined;
  /** The content element (main article, or the whole body as a fallback), ready to convert. */
  content: HtmlElement;
  /** False when Readability found no article and the whole body is used. */
  foundArticle: boolean;
  /** Who wrote it and when, as the page says (kept in the text and the saved frontmatter). */
  byline: Byline;
}

const NOISE = 'script, style, noscript, template, iframe, object, embed, canvas, svg, form, button, select, input, textarea';

export function parseHtmlDocument(html: string): HtmlDocument {
  return (parseHTML(html) as unknown as { document: HtmlDocument }).document;
}

/**
 * Pick the article out of `html`. With `baseUrl`, relative link and image URLs are made
 * absolute first (honouring `<base href>`), so the result can be saved anywhere.
 */
export function extractArticle(html: string, options: { label: string; baseUrl?: string; maxDepth: number }): Article {
  const { baseUrl } = options;
  const document = parseHtmlDocument(html);
  // Before anything recursive reads it: Readability and turndown are quadratic in depth and overflow the stack past a few thousand levels.
  const depth = elementDepth(document);
  if (depth > options.maxDepth) {
    throw new InputError(
      `${options.label} nests its elements ${depth} levels deep, over the ${options.maxDepth} allowed (limits.htmlDepth in wiki.config.json); it was not read`,
      'pages this deep are built to exhaust a reader; raise the limit only for a file you trust',
    );
  }
  prepare(document, baseUrl);
  const pageTitle = cleanTitle(document.title) ?? cleanTitle(document.querySelector('h1')?.textContent);

  // Readability rewrites the document it reads, so it gets its own copy.
  const forReadability = parseHtmlDocument(html);
  prepare(forReadability, baseUrl);
  let parsed: ReturnType<Readability['parse']> = null;
  try {
    parsed = new Readability(forReadability as never, { charThreshold: 200 }).parse();
  } catch {
    parsed = null;
  }
  const articleHtml = parsed?.content?.trim();
  if (articleHtml && (parsed?.textContent ?? '').trim() !== '') {
    const content = parseHtmlDocument(`<!doctype html><html><body>${articleHtml}</body></html>`).body;
    if (content) {
      removeAll(content, NOISE);
      return { title: cleanTitle(parsed?.title) ?? pageTitle, content, foundArticle: true, byline: readByline(document, parsed) };
    }
  }
  const body = document.body ?? parseHtmlDocument('<!doctype html><html><body></body></html>').body;
  if (!body) throw new Error('linkedom produced no <body>');
  const byline = readByline(document, parsed);
  removeAll(body, `${NOISE}, head`);
  return { title: pageTitle, content: body, foundArticle: false, byline };
}

/**
 * Convert an article's content to markdown, headed by `# title` unless it already starts
 * with it, then the byline (author and date) when the content does not already give it.
 */
export function articleToMarkdown(article: Pick<Article, 'title' | 'content'> & { byline?: Byline }): string {
  let markdown = tidy(turndown().turndown(article.content.innerHTML));
  const line = article.byline && markdown.trim() !== '' && !(article.byline.author && markdown.includes(article.byline.author)) ? bylineLine(article.byline) : undefined;
  const title = article.title;
  if (title && !startsWithTitle(markdown, title)) markdown = `# ${escapeHeading(title)}\n\n${markdown}`;
  if (line) {
    const [first = '', ...rest] = markdown.trimStart().split('\n');
    markdown = /^#{1,2}\s/.test(first) ? `${first}\n\n${line}\n${rest.join('\n')}` : `${line}\n\n${markdown.trimStart()}`;
  }
  return markdown.trim() === '' ? '' : `${markdown.trim()}\n`;
}

/** The distinct `src` URLs of the images in `content`, in document order. */
export function imageSources(content: HtmlElement): string[] {
  const seen = new Set<string>();
  for (const image of content.querySelectorAll('img')) {
    const src = image.getAttribute('src')?.trim();
    if (src) seen.add(src);
  }
  return [...seen];
}

/** Point every `<img>` whose src is a key of `replacements` at the new value. */
export function rewriteImageSources(content: HtmlElement, replacements: ReadonlyMap<string, string>): void {
  for (const image of content.querySelectorAll('img')) {
    const src = image.getAttribute('src')?.trim();
    const replacement = src === undefined ? undefined : replacements.get(src);
    if (replacement !== undefined) {
      image.setAttribute('src', replacement);
      image.removeAttribute('srcset');
    }
  }
}

/** Drop inline `data:` images (they would put megabytes of base64 in the markdown). */
export function dropInlineImages(content: HtmlElement): number {
  let dropped = 0;
  for (const image of [...content.querySelectorAll('img')]) {
    if ((image.getAttribute('src') ?? '').trim().toLowerCase().startsWith('data:')) {
      image.remove();
      dropped++;
    }
  }
  return dropped;
}

/** The deepest element nesting of a parsed document, walked without recursion. */
function elementDepth(document: HtmlDocument): number {
  let node: TreeNode | null = document.documentElement;
  let depth = 0;
  let deepest = 0;
  while (node) {
    deepest = Math.max(deepest, depth);
    if (node.firstElementChild) {
      node = node.firstElementChild;
      depth += 1;
      continue;
    }
    while (node && !node.nextElementSibling) {
      node = node.parentElement;
      depth -= 1;
    }
    if (node) node = node.nextElementSibling;
  }
  return deepest;
}

function prepare(document: HtmlDocument, baseUrl: string | undefined): void {
  // A `javascript:` link is page behaviour, not a reference worth keeping in a source.
  for (const link of document.querySelectorAll('a[href]')) {
    if (/^\s*javascript:/i.test(link.getAttribute('href') ?? '')) link.removeAttribute('href');
  }
  if (baseUrl) absolutizeUrls(document, baseUrl);
}

function absolutizeUrls(document: HtmlDocument, pageUrl: string): void {
  let base = pageUrl;
  const declaredBase = document.querySelector('base[href]')?.getAttribute('href');
  if (declaredBase) base = resolveUrl(declaredBase, pageUrl) ?? pageUrl;
  for (const [selector, attribute] of [
    ['a[href]', 'href'],
    ['img[src]', 'src'],
  ] as const) {
    for (const element of document.querySelectorAll(selector)) {
      const value = element.getAttribute(attribute)?.trim();
      if (!value || value.startsWith('#') || /^(data|mailto|tel|javascript):/i.test(value)) continue;
      const absolute = resolveUrl(value, base);
      if (absolute) element.setAttribute(attribute, absolute);
    }
  }
  // srcset candidates would need the same treatment; the plain src is enough for markdown.
  for (const image of document.querySelectorAll('img[srcset]')) image.removeAttribute('srcset');
}

function resolveUrl(value: string, base: string): string | undefined {
  try {
    return new URL(value, base).href;
  } catch {
    return undefined;
  }
}

function removeAll(root: HtmlElement, selectors: string): void {
  for (const element of [...root.querySelectorAll(selectors)]) element.remove();
}

function cleanTitle(title: string | null | undefined): string | undefined {
  const cleaned = title?.replace(/\s+/g, ' ').trim();
  return cleaned ? cleaned : undefined;
}

function startsWithTitle(markdown: string, title: string): boolean {
  const firstLine = markdown.trimStart().split('\n', 1)[0] ?? '';
  const heading = /^#{1,2}\s+(.*)$/.exec(firstLine)?.[1];
  return heading !== undefined && normalise(heading) === normalise(title);
}

function normalise(text: string): string {
  return text.replace(/\\/g, '').replace(/\s+/g, ' ').trim().toLowerCase();
}

function escapeHeading(title: string): string {
  return title.replace(/\n/g, ' ');
}

function tidy(markdown: string): string {
  return markdown
    .replace(/[ \t]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n');
}

let service: TurndownService | undefined;

function turndown(): TurndownService {
  if (service) return service;
  service = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    emDelimiter: '*',
    hr: '---',
  });
  service.remove(['script', 'style', 'noscript', 'template']);
  addTableRules(service);
  return service;
}

/** GitHub-style pipe tables, so tabular data survives as rows and columns. */
function addTableRules(converter: TurndownService): void {
  converter.addRule('tableCell', {
    filter: ['th', 'td'],
    replacement: (content) => ` ${content.replace(/\s*\n+\s*/g, ' ').replace(/\|/g, '\\|').trim()} |`,
  });
  converter.addRule('tableRow', {
    filter: 'tr',
    replacement: (content, node) => {
      const row = `|${content}\n`;
      if (!isFirstRow(node as unknown as RowNode)) return row;
      const cells = (node as unknown as RowNode).querySelectorAll('th, td').length;
      return `${row}|${' --- |'.repeat(Math.max(cells, 1))}\n`;
    },
  });
  converter.addRule('tableSection', {
    filter: ['thead', 'tbody', 'tfoot'],
    replacement: (content) => content,
  });
  converter.addRule('table', {
    filter: 'table',
    replacement: (content) => `\n\n${content.trim()}\n\n`,
  });
}

interface RowNode {
  querySelectorAll(selectors: string): { length: number };
  closest(selectors: string): { querySelector(selectors: string): unknown } | null;
}

function isFirstRow(row: RowNode): boolean {
  return row.closest('table')?.querySelector('tr') === row;
}
