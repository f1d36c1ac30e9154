import { readFileSync } from 'node:fs';
import matter from 'gray-matter';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { ConfigError } from '../../src/errors.js';
import { readSchemaFrontmatter } from '../../src/wiki/schema-frontmatter.js';
import { parseSchema } from '../../src/wiki/schema-loader.js';

const TEMPLATE = readFileSync(new URL('../../templates/schema.md', import.meta.url), 'utf8');
const crlf = (text: string): string => text.replace(/\r?\n/g, '\r\n');

type Reading = { data: unknown; body: string } | { error: string };

/** How schema.md was read before: gray-matter with the yaml library as its YAML engine. */
function grayMatterReading(text: string): Reading {
  try {
    const parsed = matter(text, { engines: { yaml: (s: string) => YAML.parse(s) as object } });
    return { data: parsed.data ?? {}, body: parsed.content };
  } catch (error) {
    return { error: firstLine(error) };
  }
}

function reading(text: string): Reading {
  try {
    return readSchemaFrontmatter(text);
  } catch (error) {
    return { error: firstLine(error) };
  }
}

function firstLine(error: unknown): string {
  return (error as Error).message.split('\n')[0] ?? '';
}

describe('readSchemaFrontmatter reads schema.md exactly as gray-matter did', () => {
  const cases: Array<[string, string]> = [
    ['the template', TEMPLATE],
    ['the template with CRLF line ends', crlf(TEMPLATE)],
    ['the template after a BOM', `\uFEFF${TEMPLATE}`],
    ['the template after a BOM, CRLF', `\uFEFF${crlf(TEMPLATE)}`],
    ['no frontmatter', '# Schema\n\nJust prose.\n'],
    ['no frontmatter, BOM', '\uFEFF# Schema\n'],
    ['an empty file', ''],
    ['only a BOM', '\uFEFF'],
    ['empty frontmatter', '---\n---\n# Body\n'],
    ['empty frontmatter, CRLF', '---\r\n---\r\n# Body\r\n'],
    ['empty frontmatter and nothing else', '---\n---'],
    ['frontmatter of comments only', '---\n# a comment\n  # another\n---\nbody\n'],
    ['bad YAML', '---\ncontract: [\n---\nbody\n'],
    ['bad YAML, CRLF', '---\r\ncontract:\r\n  key: [a, b\r\n---\r\nbody\r\n'],
    ['bad YAML on a later line', '---\ncontract:\n  version: 1\n  index: "unclosed\n---\n'],
    ['a duplicate key', '---\ncontract: 1\ncontract: 2\n---\n'],
    ['no closing line', '---\ncontract:\n  version: 1\n'],
    ['spaces after the delimiters', '---  \ncontract: {version: 1}\n---   \nbody\n'],
    ['a yaml label', '---yaml\ncontract: {version: 1}\n---\nbody\n'],
    ['a YML label with spaces', '--- YML \ncontract: {version: 1}\n---\nbody\n'],
    ['a label on an empty block', '---toml\n---\nbody\n'],
    ['four dashes: not frontmatter', '----\ncontract: 1\n----\nbody\n'],
    ['a closing line with more after the dashes', '---\ncontract: 1\n---more\nbody\n'],
    ['a blank line after the closing line', '---\ncontract: 1\n---\n\nbody\n'],
    ['nothing after the closing dashes', '---\ncontract: 1\n---'],
    ['a lone CR after the closing dashes', '---\ncontract: 1\n---\rbody'],
    ['only the opening dashes', '---'],
    ['the opening dashes and a space', '--- '],
    ['a null document', '---\n~\n---\nbody\n'],
    ['a scalar document', '---\nhello\n---\nbody\n'],
    ['a list document', '---\n- contract\n---\nbody\n'],
    ['dates and numbers', '---\ncreated: 2026-01-21\nn: 0x10\ncontract: {version: 1}\n---\nbody\n'],
    ['a document end marker', '---\ncontract: 1\n...\n---\nbody\n'],
    ['dashes inside a block scalar', '---\nnote: |\n  text\n---\nbody\n'],
  ];
  it.each(cases)('%s', (_name, text) => {
    expect(reading(text)).toEqual(grayMatterReading(text));
  });

  it('reads a label other than yaml as an error (gray-matter fails for it too, or parses JSON)', () => {
    expect(reading('---toml\ncontract = 1\n---\n')).toEqual({ error: 'the frontmatter is marked "toml"; schema.md\'s frontmatter is YAML' });
    expect(grayMatterReading('---toml\ncontract = 1\n---\n')).toHaveProperty('error');
  });
});

function schemaError(text: string): { type: string; message: string } | undefined {
  try {
    parseSchema(text);
    return undefined;
  } catch (error) {
    return { type: error instanceof ConfigError ? 'ConfigError' : String(error), message: (error as Error).message };
  }
}

describe('parseSchema errors from the frontmatter', () => {
  it('bad YAML: the message gray-matter gave, with its line and column', () => {
    const text = '---\ncontract:\n  version: 1\n  index: [wiki/index.md\n---\n';
    const before = grayMatterReading(text);
    expect(before).toHaveProperty('error');
    expect(schemaError(text)).toEqual({ type: 'ConfigError', message: `schema.md: frontmatter is not valid YAML (${(before as { error: string }).error})` });
  });

  it.each([
    ['a scalar', '---\nhello\n---\n'],
    ['a list', '---\n- contract\n---\n'],
    ['null', '---\n~\n---\n'],
  ])('frontmatter that is %s has no contract field', (_name, text) => {
    expect(schemaError(text)).toEqual({ type: 'ConfigError', message: 'schema.md: frontmatter has no `contract` field' });
  });
});
