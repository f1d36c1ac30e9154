import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { ConfigError } from '../../src/errors.js';
import { readFrontmatter } from '../../src/wiki/frontmatter.js';
import { parsePage } from '../../src/wiki/page.js';
import { parseSchema } from '../../src/wiki/schema-loader.js';

const TEMPLATE = readFileSync(new URL('../../templates/schema.md', import.meta.url), 'utf8');
const crlf = (text: string): string => text.replace(/\r?\n/g, '\r\n');

type Reading = { data: unknown; body: string } | { error: string };

function reading(text: string): Reading {
  try {
    return readFrontmatter(text);
  } catch (error) {
    return { error: firstLine(error) };
  }
}

function firstLine(error: unknown): string {
  return (error as Error).message.split('\n')[0] ?? '';
}

/** The error the yaml library gives for `block`: line numbers count from the opening `---` line. */
function yamlError(block: string): string {
  try {
    YAML.parse(block);
  } catch (error) {
    return firstLine(error);
  }
  throw new Error('expected the block not to parse');
}

describe('readFrontmatter: gray-matter with the yaml library as its one engine', () => {
  const cases: Array<[string, string, Reading]> = [
    ['no frontmatter', '# Schema\n\nJust prose.\n', { data: {}, body: '# Schema\n\nJust prose.\n' }],
    ['no frontmatter, BOM', '\uFEFF# Schema\n', { data: {}, body: '# Schema\n' }],
    ['an empty file', '', { data: {}, body: '' }],
    ['empty frontmatter', '---\n---\n# Body\n', { data: {}, body: '# Body\n' }],
    ['empty frontmatter, CRLF', '---\r\n---\r\n# Body\r\n', { data: {}, body: '# Body\r\n' }],
    ['frontmatter of comments only', '---\n# a comment\n  # another\n---\nbody\n', { data: {}, body: 'body\n' }],
    ['a BOM before the block', '\uFEFF---\ntitle: A\n---\nbody\n', { data: { title: 'A' }, body: 'body\n' }],
    ['no closing line: all block, no body', '---\ncontract:\n  version: 1\n', { data: { contract: { version: 1 } }, body: '' }],
    ['a yaml label', '---yaml\ncontract: {version: 1}\n---\nbody\n', { data: { contract: { version: 1 } }, body: 'body\n' }],
    ['a YML label with spaces', '--- YML \ncontract: {version: 1}\n---\nbody\n', { data: { contract: { version: 1 } }, body: 'body\n' }],
    ['a label on an empty block', '---toml\n---\nbody\n', { data: {}, body: 'body\n' }],
    ['four dashes: not frontmatter', '----\ncontract: 1\n----\nbody\n', { data: {}, body: '----\ncontract: 1\n----\nbody\n' }],
    ['a closing line with more after the dashes', '---\ncontract: 1\n---more\nbody\n', { data: { contract: 1 }, body: 'more\nbody\n' }],
    ['a blank line after the closing line', '---\ncontract: 1\n---\n\nbody\n', { data: { contract: 1 }, body: '\nbody\n' }],
    ['a null document', '---\n~\n---\nbody\n', { data: {}, body: 'body\n' }],
    ['a scalar document', '---\nhello\n---\nbody\n', { data: 'hello', body: 'body\n' }],
    ['a list document', '---\n- contract\n---\nbody\n', { data: ['contract'], body: 'body\n' }],
    ['dates stay strings, numbers are numbers', '---\ncreated: 2026-01-21\nn: 0x10\n---\nbody\n', { data: { created: '2026-01-21', n: 16 }, body: 'body\n' }],
    ['a duplicate key', '---\ncontract: 1\ncontract: 2\n---\n', { error: yamlError('\ncontract: 1\ncontract: 2') }],
    ['bad YAML', '---\ncontract: [\n---\nbody\n', { error: yamlError('\ncontract: [') }],
    ['a toml label', '---toml\ncontract = 1\n---\n', { error: 'the frontmatter is marked "toml"; frontmatter is YAML' }],
    ['a json label', '---json\n{"contract": 1}\n---\n', { error: 'the frontmatter is marked "json"; frontmatter is YAML' }],
    ['a js label', '---js\n{ contract: 1 }\n---\n', { error: 'the frontmatter is marked "js"; frontmatter is YAML' }],
  ];
  it.each(cases)('%s', (_name, text, expected) => {
    expect(reading(text)).toEqual(expected);
  });

  it('never evaluates a block labelled as JavaScript', () => {
    const marker = '__frontmatterEvaluated';
    expect(reading(`---javascript\nglobalThis.${marker} = true\n---\n`)).toHaveProperty('error');
    expect((globalThis as Record<string, unknown>)[marker]).toBeUndefined();
  });

  it.each([
    ['LF', TEMPLATE],
    ['CRLF', crlf(TEMPLATE)],
    ['after a BOM', `\uFEFF${TEMPLATE}`],
  ])('reads the schema.md template (%s): the contract mapping and the prose', (_name, text) => {
    const read = readFrontmatter(text);
    expect(read.data).toMatchObject({ contract: { version: 1 } });
    expect(read.body.replace(/\r\n/g, '\n')).toBe(TEMPLATE.slice(TEMPLATE.indexOf('\n---', 3) + 5));
  });

  it('parsePage reads a page through it: a non-mapping block is a parse error, not a crash', () => {
    expect(parsePage('wiki/concepts/a.md', '---\ntitle: A\ncreated: 2026-01-21\n---\nbody\n').frontmatter).toEqual({ title: 'A', created: '2026-01-21' });
    expect(parsePage('wiki/concepts/a.md', '---\n- a\n---\nbody\n').parseError).toBe('frontmatter must be a mapping of field: value');
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
  it('bad YAML: the yaml library\'s message, with its line and column in the file', () => {
    const text = '---\ncontract:\n  version: 1\n  index: [wiki/index.md\n---\n';
    const message = yamlError('\ncontract:\n  version: 1\n  index: [wiki/index.md');
    expect(message).toMatch(/line 4/);
    expect(schemaError(text)).toEqual({ type: 'ConfigError', message: `schema.md: frontmatter is not valid YAML (${message})` });
  });

  it.each([
    ['a scalar', '---\nhello\n---\n'],
    ['a list', '---\n- contract\n---\n'],
    ['null', '---\n~\n---\n'],
  ])('frontmatter that is %s has no contract field', (_name, text) => {
    expect(schemaError(text)).toEqual({ type: 'ConfigError', message: 'schema.md: frontmatter has no `contract` field' });
  });
});
