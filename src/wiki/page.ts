import YAML from 'yaml';
import { unparsedFrontmatter } from './access.js';
import { typeForPath, type Contract } from './contract.js';
import { asFrontmatter, refsOf, useYamlLibrary, type Frontmatter } from './frontmatter-fields.js';
import { readFrontmatter } from './frontmatter.js';
import { splitFrontmatter } from './frontmatter-split.js';
import { keyFromPath } from './keys.js';
import { extractInlineLinks, type InlineLink } from './links.js';

export { splitFrontmatter, type SplitResult } from './frontmatter-split.js';

export type { Frontmatter } from './frontmatter-fields.js';
export { parseFrontmatterYaml, refsOf, sourcesOf, stringField, stringList, tagsOf } from './frontmatter-fields.js';

useYamlLibrary(YAML);

export interface PageLink {
  /** Target page key. */
  target: string;
  /** `ref` from the frontmatter `refs` list, `inline` from a `[[…]]` in the body. */
  kind: 'ref' | 'inline';
  /** 1-based line in the whole file, when known. */
  line?: number;
  raw: string;
  heading?: string;
  label?: string;
}

export interface Page {
  /** Workspace-relative path, `/`-separated, e.g. `wiki/concepts/attention.md`. */
  path: string;
  key: string;
  /** `type` from the frontmatter, else from the folder; undefined when neither says. */
  type: string | undefined;
  frontmatter: Frontmatter;
  body: string;
  /** Line of the file on which the body starts (1-based). */
  bodyLine: number;
  links: PageLink[];
  /** Set when the frontmatter does not parse; links still come from the body. */
  parseError?: string;
}

/** Frontmatter fields in the order pages are written; unknown fields follow in their own order. */
export const FIELD_ORDER = [
  'title',
  'summary',
  'type',
  'tags',
  'refs',
  'sources',
  'created',
  'updated',
  'stale_since',
  'archived_since',
] as const;

/** Parse one page. Pure: never throws; a broken frontmatter is recorded in `parseError`. */
export function parsePage(pagePath: string, text: string, contract?: Contract): Page {
  const { yaml, body, bodyLine } = splitFrontmatter(text);
  let frontmatter: Frontmatter = {};
  let parseError: string | undefined;
  if (yaml !== undefined) {
    try {
      frontmatter = asFrontmatter(readFrontmatter(text).data);
    } catch (error) {
      parseError = locatedYamlError(firstLine((error as Error).message), text);
      frontmatter = unparsedFrontmatter(yaml);
    }
  } else if (text.trimStart().startsWith('---')) {
    parseError = 'frontmatter block is not closed with a `---` line';
    frontmatter = unparsedFrontmatter(text);
  }
  const key = keyFromPath(pagePath);
  const declaredType = typeof frontmatter.type === 'string' ? frontmatter.type : undefined;
  const type = declaredType ?? (contract ? typeForPath(contract, pagePath) : undefined);
  const links = [
    ...refsOf(frontmatter).map((target): PageLink => ({ target, kind: 'ref', raw: target })),
    ...extractInlineLinks(body).map((link) => inlineToPageLink(link, bodyLine)),
  ];
  const page: Page = { path: pagePath, key, type, frontmatter, body, bodyLine, links };
  if (parseError) page.parseError = parseError;
  return page;
}

function inlineToPageLink(link: InlineLink, bodyLine: number): PageLink {
  const pageLink: PageLink = { target: link.target, kind: 'inline', line: bodyLine + link.line - 1, raw: link.raw };
  if (link.heading) pageLink.heading = link.heading;
  if (link.label) pageLink.label = link.label;
  return pageLink;
}

/** Frontmatter with known fields first in FIELD_ORDER, then the rest in their original order. */
export function orderFrontmatter(frontmatter: Frontmatter): Frontmatter {
  // Entries and fromEntries, never `field in {}` or `obj[field] =`: fields named `constructor`,
  // `toString` or `__proto__` must survive as ordinary fields.
  const own = (field: string): boolean => Object.hasOwn(frontmatter, field) && frontmatter[field] !== undefined;
  const known: string[] = FIELD_ORDER.filter(own);
  const rest = Object.keys(frontmatter).filter((field) => own(field) && !known.includes(field));
  return Object.fromEntries([...known, ...rest].map((field) => [field, frontmatter[field]]));
}

/** Serialise a page: stable field order, lists in flow style, body unchanged. */
export function serialisePage(frontmatter: Frontmatter, body: string): string {
  const doc = new YAML.Document(orderFrontmatter(frontmatter));
  YAML.visit(doc, {
    Seq(_, node) {
      if (node.items.every((item) => YAML.isScalar(item))) node.flow = true;
    },
  });
  const yaml = doc.toString({ lineWidth: 0, flowCollectionPadding: false });
  const separator = body.startsWith('\n') || body === '' ? '' : '\n';
  return `---\n${yaml}---\n${separator}${body}`;
}

/**
 * A YAML error said once, in the file's numbering, with the field it is in:
 * `line 3, field "summary": Nested mappings are not allowed in compact mappings` (the parser
 * said "at line 3, column 10", and a played model read that beside the finding's own line 4
 * as two places). An error noticed at the start of a line (an unclosed `[`) lies in the field
 * before it. The line numbers the YAML parser gives are the file's: its text starts with the
 * newline after the opening `---`.
 */
function locatedYamlError(message: string, text: string): string {
  const at = /^(.*?)\s+at line (\d+), column (\d+):?\s*$/.exec(message);
  if (!at) return message;
  const reason = at[1] ?? message;
  const lines = text.replace(/^\uFEFF/, '').split('\n');
  let line = Number(at[2]);
  const fieldAt = (n: number): string | undefined => /^([^\s#:][^:]*?)\s*:(?:\s|$)/.exec(lines[n - 1] ?? '')?.[1];
  const opensQuote = (n: number): boolean => /^[^\s#:][^:]*?\s*:\s+["']/.test(lines[n - 1] ?? '');
  if (/missing closing/i.test(reason)) {
    // The parser notices an unclosed quote where the text ends: the field is the one that opened it.
    for (let n = line; n >= 2; n--) {
      if (!opensQuote(n)) continue;
      line = n;
      break;
    }
  } else if (Number(at[3]) === 1 && !/unique/i.test(reason)) {
    for (let n = line - 1; n >= 2; n--) {
      if (fieldAt(n) === undefined) continue;
      line = n;
      break;
    }
  } else {
    for (let n = line; n >= 2 && fieldAt(line) === undefined; n--) if (fieldAt(n) !== undefined) line = n;
  }
  const field = fieldAt(line);
  return `line ${line}${field === undefined ? '' : `, field "${field}"`}: ${reason}`;
}

function firstLine(message: string): string {
  return message.split('\n')[0] ?? message;
}
