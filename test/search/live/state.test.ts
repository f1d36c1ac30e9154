import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderSearchState } from '../../../src/cli/render-search.js';
import { INDEX_FILE, openSearchIndex, searchDirectory } from '../../../src/search/index.js';
import { readSearchIndexState } from '../../../src/search/live/state.js';
import { TOPIC_PAGES, configWith, workspaceWith } from '../helpers.js';
import pc from 'picocolors';

const c = pc.createColors(false);

describe('readSearchIndexState (wiki status)', () => {
  it('says there is no index before the first search, without building one', async () => {
    const ws = await workspaceWith(TOPIC_PAGES);
    const state = await readSearchIndexState(ws.root, configWith(), {});
    expect(state).toMatchObject({ built: false, file: '.wiki/search/index.bin', embedder: 'built-in LSA (128 dimensions)' });
    expect(state.lanes).toEqual({ lexical: 'ok', semantic: 'ok', token: 'ok' });
    expect(renderSearchState(state, c)).toMatch(/^no index yet/);
    expect((await readSearchIndexState(ws.root, configWith(), {})).built).toBe(false);
  });

  it('reports pages and times from the saved index', async () => {
    const ws = await workspaceWith(TOPIC_PAGES);
    const index = await openSearchIndex(ws.root, ws.schema, configWith(), { env: {} });
    await index.close();
    const state = await readSearchIndexState(ws.root, configWith(), {});
    expect(state).toMatchObject({ built: true, pages: Object.keys(TOPIC_PAGES).length, builtAt: index.info().builtAt });
    expect(renderSearchState(state, c)).toMatch(/^6 pages indexed in \.wiki\/search\/index\.bin, updated /);
  });

  it('flags an unreadable index and lanes that are off', async () => {
    const ws = await workspaceWith(TOPIC_PAGES);
    const index = await openSearchIndex(ws.root, ws.schema, configWith(), { env: {} });
    await index.close();
    await writeFile(path.join(searchDirectory(ws.root), INDEX_FILE), 'garbage');
    const state = await readSearchIndexState(ws.root, configWith({ embedder: { kind: 'none' }, weights: { token: 0 } }), {});
    expect(state.built).toBe(false);
    expect(state.problem).toMatch(/unreadable/);
    expect(state.lanes).toEqual({ lexical: 'ok', semantic: 'skipped: search.embedder.kind is none', token: 'skipped: weight is 0' });
    expect(state.embedder).toBeUndefined();
  });
});
