import { createHash } from 'node:crypto';
import type { Contract } from '../wiki/contract.js';
import { parsePage, stringField, tagsOf } from '../wiki/page.js';

/** What the search index keeps of one page, derived from its text alone. */
export interface PageDocument {
  path: string;
  key: string;
  title: string;
  summary: string;
  tags: string[];
  /** Body as plain searchable text: provenance comments dropped, wikilinks as their words. */
  body: string;
  /** Outgoing link targets (page keys), unique, in order of first appearance. */
  links: string[];
  /** Content hash of the file (sha1, hex): decides whether a touched file really changed. */
  hash: string;
}

export function contentHash(content: string): string {
  return createHash('sha1').update(content).digest('hex');
}

const COMMENT = /<!--[\s\S]*?-->/g;
const WIKILINK = /\[\[([^\[\]\n|#]*)(?:#[^\[\]\n|]*)?(?:\|([^\[\]\n]*))?\]\]/g;

/** Body text for indexing and snippets: `[[key|label]]` reads as "label key". */
export function plainBody(body: string): string {
  return body.replace(COMMENT, ' ').replace(WIKILINK, (_, target: string, label: string | undefined) => {
    const words = target.replace(/[-_/]+/g, ' ').trim();
    return label ? `${label.trim()} ${words}` : words;
  });
}

function firstHeading(body: string): string | undefined {
  const match = /^#\s+(.+)$/m.exec(body);
  return match?.[1]?.trim();
}

export function pageDocument(pagePath: string, content: string, contract?: Contract): PageDocument {
  const page = parsePage(pagePath, content, contract);
  const title = stringField(page.frontmatter, 'title')?.trim() || firstHeading(page.body) || page.key;
  const links: string[] = [];
  for (const link of page.links) if (link.target && !links.includes(link.target)) links.push(link.target);
  return {
    path: pagePath,
    key: page.key,
    title,
    summary: stringField(page.frontmatter, 'summary')?.trim() ?? '',
    tags: tagsOf(page.frontmatter),
    body: plainBody(page.body),
    links,
    hash: contentHash(content),
  };
}

/** A key reads as words: `scaled-dot-product` → "scaled dot product". */
export function keyWords(key: string): string {
  return key.replace(/[-_.]+/g, ' ');
}

/** All of a page's searchable text in one string (token lane, remote embedders). */
export function documentText(doc: PageDocument): string {
  return [doc.title, keyWords(doc.key), doc.summary, doc.tags.join(' '), doc.body].filter(Boolean).join('\n');
}
