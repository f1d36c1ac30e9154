import { afterEach, describe, expect, it } from 'vitest';
import { rm } from 'node:fs/promises';
import { openSearchIndex } from '../../../src/search/index.js';
import { configWith, pageText, workspaceWith, type TestWorkspace } from '../helpers.js';

/**
 * The wiki's configured language (search's own `language` option): the language of a page
 * that neither states one nor shows one in its words, and one of the languages every query is
 * analysed in.
 */

let ws: TestWorkspace | undefined;
afterEach(async () => {
  if (ws) await rm(ws.root, { recursive: true, force: true });
  ws = undefined;
});

// Too few function words to tell German from English: undecided.
const SHORT_GERMAN = pageText('Kinder', 'Spielplätze', 'Kinder, Spielplätze, Schaukeln.');
const ENGLISH = pageText('Children', 'Books for young readers', 'Children read picture books before they read novels.');

async function keysFor(query: string, language: string | undefined): Promise<string[]> {
  const config = { ...configWith(), language };
  const index = await openSearchIndex(ws!.root, ws!.schema, config, { env: {} });
  try {
    return (await index.search(query, { snippets: false })).results.map((hit) => hit.key);
  } finally {
    await index.close();
  }
}

describe('the wiki’s language', () => {
  it('is the language of a page that does not tell its own; English is unchanged', async () => {
    ws = await workspaceWith({ 'wiki/concepts/kinder.md': SHORT_GERMAN, 'wiki/concepts/children.md': ENGLISH });
    expect(await keysFor('Kind', undefined)).not.toContain('kinder');
    expect(await keysFor('Kind', 'de')).toContain('kinder');
    expect(await keysFor('book', 'de')).toEqual(['children']);
  });

  it('an index saved under one language is rebuilt under another, never read as it was', async () => {
    ws = await workspaceWith({ 'wiki/concepts/kinder.md': SHORT_GERMAN });
    expect(await keysFor('Kind', 'de-AT')).toEqual(['kinder']);
    expect(await keysFor('Kind', undefined)).toEqual([]);
    expect(await keysFor('Kind', 'de')).toEqual(['kinder']);
  });

  it('a value that is no language tag is no language: pages fall back to English', async () => {
    ws = await workspaceWith({ 'wiki/concepts/kinder.md': SHORT_GERMAN });
    expect(await keysFor('Kind', 'Deutsch!')).toEqual([]);
  });
});
