import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildSystemPrompt } from '../../src/operations/prompt.js';
import { parsePage } from '../../src/wiki/page.js';
import { parseSchema } from '../../src/wiki/schema-loader.js';

const schema = parseSchema(readFileSync(new URL('../../templates/schema.md', import.meta.url), 'utf8'));
const page = (path: string, summary: string) =>
  parsePage(path, `---\ntitle: T\nsummary: ${summary}\n---\nbody\n`, schema.contract);

describe('buildSystemPrompt', () => {
  it('holds the whole schema, the operation, the date and the linkable keys', () => {
    const prompt = buildSystemPrompt({
      schema,
      operation: 'ingest',
      today: '2026-11-21',
      pages: [page('wiki/concepts/b.md', 'Bee'), page('wiki/entities/a.md', 'Ay'), page('wiki/index.md', 'Catalog')],
      pageLimit: 10,
    });
    expect(prompt.startsWith(schema.text.trim())).toBe(true);
    expect(prompt).toContain('Workflow: ingest a source');
    expect(prompt).toContain('Today is 2026-11-21');
    expect(prompt).toContain('- a (entity, wiki/entities/a.md): Ay\n- b (concept, wiki/concepts/b.md): Bee');
    expect(prompt).not.toContain('wiki/index.md)');
  });

  it('caps the list and points the model to search_wiki', () => {
    const pages = Array.from({ length: 5 }, (_, i) => page(`wiki/concepts/p${i}.md`, `S${i}`));
    const prompt = buildSystemPrompt({ schema, operation: 'query', today: '2026-11-21', pages, pageLimit: 2 });
    expect(prompt).toContain('- p0 ');
    expect(prompt).toContain('- p1 ');
    expect(prompt).not.toContain('- p2 ');
    expect(prompt).toContain('… and 3 more not listed here: use search_wiki');
  });

  it('says so when the wiki is empty', () => {
    const prompt = buildSystemPrompt({ schema, operation: 'query-save', today: '2026-11-21', pages: [], pageLimit: 10 });
    expect(prompt).toContain('The wiki has no pages yet');
    expect(prompt).toContain('write the answer as a page in wiki/concepts/');
  });
});
