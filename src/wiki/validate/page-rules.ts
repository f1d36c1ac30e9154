import path from 'node:path';
import { folderForType, requiredFields, typeForPath, type Contract } from '../contract.js';
import { matchesKeyPattern } from '../keys.js';
import { slugify } from '../slug.js';
import { sourcesOf, type Page } from '../page.js';
import { accessFieldFindings } from './access-rules.js';
import { langFieldFindings } from './lang-rules.js';
import { deniedPathReason } from '../../confine/paths.js';
import { finding, type Finding } from './finding.js';

/**
 * Rules that look at one page on its own: frontmatter, required fields and their types,
 * the key pattern, provenance and an empty body. Shared by the whole-wiki validator and
 * write-time validation so both say exactly the same thing.
 */

export function frontmatterFindings(page: Page): Finding[] {
  if (!page.parseError) return [];
  // page.ts says where, in the file's numbering, and in which field: `line 3, field "summary": …`.
  const located = /^line (\d+)(?:, field "([^"]+)")?: (.*)$/.exec(page.parseError);
  const line = located ? Number(located[1]) : 1;
  const what = located?.[2] ? `frontmatter field "${located[2]}" does not parse` : 'frontmatter does not parse';
  return [
    finding('frontmatter', page.path, `${what}: ${located ? located[3] : page.parseError}`, {
      line,
      fix: 'correct the YAML between the --- lines (quote values holding ":" or "#")',
    }),
  ];
}

export function keyPatternFindings(page: Page, contract: Contract): Finding[] {
  if (matchesKeyPattern(page.key, contract.key_pattern)) return [];
  const suggested = slugify(page.key);
  const fix = suggested && suggested !== page.key ? `rename the file to ${suggested}.md` : `rename the file to match ${contract.key_pattern}`;
  return [finding('key-pattern', page.path, `key "${page.key}" does not match the key pattern ${contract.key_pattern}`, { fix })];
}

const DATE_FIELDS = new Set(['created', 'updated', 'stale_since', 'archived_since']);
const TEXT_FIELDS = new Set(['title', 'summary']);
const LIST_FIELDS = new Set(['tags', 'refs', 'sources']);
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ][0-9:.+\-Z]*)?$/;

function isBlank(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  return false;
}

/** Why a present value has the wrong shape for a known field, or undefined when it is fine. */
function shapeProblem(field: string, value: unknown): string | undefined {
  if (TEXT_FIELDS.has(field) && typeof value !== 'string') return 'should be text';
  if (LIST_FIELDS.has(field)) {
    const ok = typeof value === 'string' || (Array.isArray(value) && value.every((item) => typeof item === 'string'));
    if (!ok) return 'should be a list of strings';
  }
  if (DATE_FIELDS.has(field) && !(typeof value === 'string' && ISO_DATE.test(value) && isRealDate(value.slice(0, 10)))) {
    return 'should be a date (YYYY-MM-DD)';
  }
  return undefined;
}

export function isRealDate(ymd: string): boolean {
  const [y, m, d] = ymd.split('-').map(Number);
  if (y === undefined || m === undefined || d === undefined) return false;
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

export function requiredFieldFindings(page: Page, contract: Contract): Finding[] {
  if (page.parseError) return []; // the frontmatter finding says it all; fields are unknowable
  const fm = page.frontmatter;
  const findings: Finding[] = [];
  for (const field of requiredFields(contract, page.type)) {
    if (isBlank(fm[field])) {
      findings.push(
        finding('required-field', page.path, `missing required field \`${field}\`${page.type ? ` (type ${page.type})` : ''}`, {
          fix: `add \`${field}:\` to the frontmatter`,
        }),
      );
    }
  }
  for (const [field, value] of Object.entries(fm)) {
    if (value === undefined || value === null) continue;
    const problem = shapeProblem(field, value);
    if (problem) {
      findings.push(finding('required-field', page.path, `field \`${field}\` ${problem}`, { fix: `correct \`${field}\` in the frontmatter` }));
    }
  }
  findings.push(...typeFindings(page, contract));
  return findings;
}

function typeFindings(page: Page, contract: Contract): Finding[] {
  const declared = page.frontmatter.type;
  if (declared === undefined || declared === null) return [];
  const known = Object.keys(contract.types);
  if (typeof declared !== 'string' || !Object.hasOwn(contract.types, declared)) {
    return [
      finding('required-field', page.path, `field \`type\` is ${JSON.stringify(declared)}, not one of: ${known.join(', ')}`, {
        fix: 'set `type` to a type defined in schema.md, or remove it to take the type from the folder',
      }),
    ];
  }
  const folderType = typeForPath(contract, page.path);
  if (folderType && folderType !== declared) {
    return [
      finding('required-field', page.path, `type \`${declared}\` does not match the folder, which holds ${folderType} pages`, {
        fix: `move the page to ${folderForType(contract, declared)}/ or set \`type: ${folderType}\``,
      }),
    ];
  }
  return [];
}

/** A `sources` entry as a workspace-relative file path, or undefined when it cannot name one. */
export function sourceFilePath(entry: string): string | undefined {
  const withoutFragment = entry.split('#')[0]?.trim() ?? '';
  if (withoutFragment === '' || /^[a-z][a-z0-9+.-]*:/i.test(withoutFragment) || withoutFragment.startsWith('/')) return undefined;
  const normal = path.posix.normalize(withoutFragment.replace(/\\/g, '/'));
  if (normal === '..' || normal.startsWith('../')) return undefined;
  return normal.replace(/^\.\//, '');
}

/** A file no tool may read (built-in deny list and `deny`, sandbox.deny): it answers as an absent one. */
export function isDeniedPath(file: string, deny: readonly string[] = []): boolean {
  return deniedPathReason(file, deny) !== undefined;
}

/**
 * `rawExists` as the validator asks it: a denied file (built-in list or sandbox.deny) does
 * not exist, so neither `sources` nor a from-comment (nor its line range) tells a denied
 * file from an absent one.
 */
export function readableSource(rawExists: (rawPath: string) => boolean, deny: readonly string[] = []): (rawPath: string) => boolean {
  return (rawPath) => !isDeniedPath(rawPath, deny) && rawExists(rawPath);
}

export function sourceFindings(page: Page, contract: Contract, rawExists: (rawPath: string) => boolean): Finding[] {
  // An archived page is a record: its sources may be gone (`wiki rm` keeps a page a person wrote in).
  if (page.parseError || isArchived(page)) return [];
  const sources = sourcesOf(page.frontmatter);
  if (sources.length === 0) {
    // A type that requires `sources` already gets a required-field error.
    if (requiredFields(contract, page.type).includes('sources')) return [];
    return [
      finding('no-sources', page.path, 'no `sources`: nothing records which raw files this page draws on', {
        fix: 'list the raw files the page is based on in `sources`',
      }),
    ];
  }
  const findings: Finding[] = [];
  for (const entry of sources) {
    const file = sourceFilePath(entry);
    // A denied file (.env, keys…) answers exactly like a missing one, so `sources` is no existence oracle.
    if (file === undefined || isDeniedPath(file) || !rawExists(file)) {
      findings.push(
        finding('missing-source', page.path, `source "${entry}" is not a file in the workspace`, {
          fix: 'correct the path (relative to the workspace root, e.g. raw/paper.md) or remove the entry',
        }),
      );
    }
  }
  return findings;
}

/** A body with nothing but whitespace, comments and headings says nothing. */
export function isEmptyBody(body: string): boolean {
  const text = body
    .replace(/<!--[\s\S]*?-->/g, '')
    .split('\n')
    .filter((line) => !/^\s*#{1,6}(\s|$)/.test(line))
    .join('\n');
  return text.trim() === '';
}

export function emptyPageFindings(page: Page): Finding[] {
  if (!isEmptyBody(page.body)) return [];
  return [finding('empty-page', page.path, 'the page has no body text', { line: page.bodyLine, fix: 'write the page body, or remove the page' })];
}

/** Every single-page rule for a content page. */
export function contentPageFindings(page: Page, contract: Contract, rawExists: (rawPath: string) => boolean): Finding[] {
  return [
    ...frontmatterFindings(page),
    ...keyPatternFindings(page, contract),
    ...requiredFieldFindings(page, contract),
    ...sourceFindings(page, contract, rawExists),
    ...emptyPageFindings(page),
    ...accessFieldFindings(page, contract),
    ...langFieldFindings(page),
  ];
}

/** A page marked `archived_since`: kept as a record, not held to its sources still existing. */
export function isArchived(page: Page): boolean {
  const mark = page.frontmatter.archived_since;
  return mark !== undefined && mark !== null && mark !== '';
}
