import { createHash } from 'node:crypto';
import { keyFromPath } from '../../wiki/keys.js';
import { extractInlineLinks } from '../../wiki/links.js';
import { parseFrontmatterYaml, refsOf, stringField, tagsOf, type Frontmatter } from '../../wiki/frontmatter-fields.js';
import { splitFrontmatter } from '../../wiki/frontmatter-split.js';
import { parseSimpleFrontmatter } from './simple-frontmatter.js';
import { isSurfaced, unparsedFrontmatter } from '../../wiki/access.js';
import { pageLanguage } from '../language/page-language.js';

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
  /**
   * False for a page never surfaced (`usage_mode: never`): a search names the holders of a
   * result's links and backlinks only when they may be shown, and reads this rather than
   * each holder's file.
   */
  surfaced: boolean;
  /** The language the page is analysed in (a code from language/languages.ts): its `lang`, else detected, else English. */
  lang: string;
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

/**
 * Body text as a reader sees it, for snippets: provenance comments dropped, `[[key|label]]`
 * as its label and `[[key]]` (or `[[key#heading]]`) as the key's words, as in the index.
 */
export function readableBody(body: string): string {
  return body.replace(COMMENT, ' ').replace(WIKILINK, (_, target: string, label: string | undefined) =>
    label?.trim() ? label.trim() : target.replace(/[-_/]+/g, ' ').trim(),
  );
}

function firstHeading(body: string): string | undefined {
  const match = /^#\s+(.+)$/m.exec(body);
  return match?.[1]?.trim();
}

/**
 * What search needs of a page, read with the page model's own building blocks (the
 * same split, YAML reading and link rules as `parsePage`) but without gray-matter, which
 * doubles the cost of a full build and keeps a cached copy of every text it has seen.
 * Frontmatter in the simple form pages are written with skips the YAML parser (same
 * result). A frontmatter that does not parse counts as empty but for a `usage_mode: never`
 * its text declares, as in `parsePage`. `fallbackLanguage`: the language of a page that
 * neither states nor shows one (see language/page-language.ts).
 */
export function pageDocument(pagePath: string, content: string, fallbackLanguage?: string): PageDocument {
  const { yaml, body } = splitFrontmatter(content);
  let frontmatter: Frontmatter = {};
  if (yaml !== undefined) {
    try {
      frontmatter = parseSimpleFrontmatter(yaml) ?? parseFrontmatterYaml(yaml);
    } catch {
      frontmatter = unparsedFrontmatter(yaml);
    }
  } else if (content.trimStart().startsWith('---')) {
    frontmatter = unparsedFrontmatter(content);
  }
  const key = keyFromPath(pagePath);
  const title = stringField(frontmatter, 'title')?.trim() || firstHeading(body) || key;
  const summary = stringField(frontmatter, 'summary')?.trim() ?? '';
  const targets = [...refsOf(frontmatter), ...(body.includes('[[') ? extractInlineLinks(body).map((link) => link.target) : [])];
  return {
    path: pagePath,
    key,
    title: detached(title),
    summary: detached(summary),
    tags: tagsOf(frontmatter).map(detached),
    body: plainBody(body),
    links: [...new Set(targets.filter(Boolean))].map(detached),
    hash: contentHash(content),
    surfaced: isSurfaced({ frontmatter }),
    lang: pageLanguage(frontmatter['lang'], title, summary, body, fallbackLanguage),
  };
}

/**
 * A copy of `part` that does not hold on to the text it was cut from. V8 represents a
 * substring as a view of its parent string, so a page record keeping its title would
 * keep the whole page text alive for as long as the index is open (22 MB at 10k pages),
 * and every collection until then would copy or mark it. Joining makes a new string,
 * and slicing that one keeps only it.
 */
function detached(part: string): string {
  return ` ${part}`.slice(1);
}

/** A key reads as words: `scaled-dot-product` → "scaled dot product". */
export function keyWords(key: string): string {
  return key.replace(/[-_.]+/g, ' ');
}

/** All of a page's searchable text in one string (token lane, remote embedders). */
export function documentText(doc: PageDocument): string {
  return [doc.title, keyWords(doc.key), doc.summary, doc.tags.join(' '), doc.body].filter(Boolean).join('\n');
}
