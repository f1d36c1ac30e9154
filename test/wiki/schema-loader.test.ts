import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors.js';
import { requiredFields, typeForPath } from '../../src/wiki/contract.js';
import { parseSchema } from '../../src/wiki/schema-loader.js';

const TEMPLATE = readFileSync(new URL('../../templates/schema.md', import.meta.url), 'utf8');

describe('parseSchema', () => {
  it('reads the default template: contract and prose', () => {
    const schema = parseSchema(TEMPLATE);
    expect(Object.keys(schema.contract.types)).toEqual(['source', 'concept', 'entity']);
    expect(schema.contract.index).toBe('wiki/index.md');
    expect(schema.body).toContain('## Workflow: ingest a source');
    expect(schema.text).toBe(TEMPLATE);
    expect(typeForPath(schema.contract, 'wiki/entities/ada-lovelace.md')).toBe('entity');
    expect(requiredFields(schema.contract, 'source')).toEqual(['title', 'summary', 'sources']);
  });

  const broken: Array<{ name: string; text: string; field: RegExp }> = [
    { name: 'no frontmatter contract', text: '# just prose', field: /no `contract` field/ },
    { name: 'YAML does not parse', text: '---\ncontract: [\n---\n', field: /not valid YAML/ },
    { name: 'missing key_pattern', text: TEMPLATE.replace(/ {2}key_pattern:.*\n/, ''), field: /contract\.key_pattern/ },
    { name: 'invalid key_pattern regex', text: TEMPLATE.replace(/key_pattern: .*/, "key_pattern: '(['"), field: /contract\.key_pattern: must be a valid regular expression/ },
    { name: 'index outside wiki/', text: TEMPLATE.replace('index: wiki/index.md', 'index: index.md'), field: /contract\.index/ },
    { name: 'type folder outside wiki/', text: TEMPLATE.replace('folder: wiki/sources', 'folder: raw'), field: /contract\.types\.source\.folder/ },
    { name: 'wrong version', text: TEMPLATE.replace('version: 1', 'version: 2'), field: /contract\.version/ },
  ];
  it.each(broken)('rejects $name, naming the field', ({ text, field }) => {
    expect(() => parseSchema(text)).toThrow(ConfigError);
    expect(() => parseSchema(text)).toThrow(field);
  });
});
