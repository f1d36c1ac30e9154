import { createRequire } from 'node:module';
import type YamlModule from 'yaml';
import { targetToKey } from './links.js';

/**
 * Reading a page's frontmatter fields, apart from the page model (page.ts): the search
 * index and its build worker read pages with these alone, without the contract's schema
 * library or, for pages in the simple form (see search/simple-frontmatter.ts), YAML.
 */
export type Frontmatter = Record<string, unknown>;

let yamlParse: ((text: string) => unknown) | undefined;

/** page.ts hands over the YAML library it loads anyway; elsewhere it is required on first use. */
export function useYamlParser(parse: (text: string) => unknown): void {
  yamlParse ??= parse;
}

/** YAML 1.2 core schema: dates stay strings. */
function parseYaml(yaml: string): unknown {
  yamlParse ??= (createRequire(import.meta.url)('yaml') as typeof YamlModule).parse;
  return yamlParse(yaml);
}

export function parseFrontmatterYaml(yaml: string): Frontmatter {
  return asFrontmatter(parseYaml(yaml));
}

/** A parsed block as page frontmatter: nothing is `{}`; anything but a mapping throws. */
export function asFrontmatter(value: unknown): Frontmatter {
  if (value === null || value === undefined) return {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new Error('frontmatter must be a mapping of field: value');
  }
  return value as Frontmatter;
}

/** `refs` as keys; tolerates `[[key]]` spelled inside the list. */
export function refsOf(frontmatter: Frontmatter): string[] {
  return stringList(frontmatter.refs).map((ref) => targetToKey(ref.replace(/^\[\[|\]\]$/g, '').split('|')[0] ?? ''));
}

export function sourcesOf(frontmatter: Frontmatter): string[] {
  return stringList(frontmatter.sources);
}

export function tagsOf(frontmatter: Frontmatter): string[] {
  return stringList(frontmatter.tags);
}

export function stringList(value: unknown): string[] {
  if (typeof value === 'string') return value.trim() ? [value.trim()] : [];
  if (!Array.isArray(value)) return [];
  return value.filter((v): v is string => typeof v === 'string' && v.trim() !== '').map((v) => v.trim());
}

export function stringField(frontmatter: Frontmatter, field: string): string | undefined {
  const value = frontmatter[field];
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}
