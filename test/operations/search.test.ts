import { access } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { UsageError } from '../../src/errors.js';
import { searchWorkspace } from '../../src/operations/search.js';
import { INDEX_FILE, searchDirectory } from '../../src/search/index.js';
import { TOPIC_PAGES, workspaceWith } from '../search/helpers.js';

describe('searchWorkspace', () => {
  it('searches, keeps contributions only when explaining, and leaves the index persisted', async () => {
    const ws = await workspaceWith(TOPIC_PAGES);
    const config = await loadConfig(ws.root, { env: {} });
    const plain = await searchWorkspace(ws.root, ws.schema, config, { query: 'telescope', limit: 2, env: {} });
    expect(plain.results).toHaveLength(2);
    expect(plain.results.every((r) => r.contributions === undefined)).toBe(true);
    const explained = await searchWorkspace(ws.root, ws.schema, config, { query: 'telescope', explain: true, env: {} });
    expect(explained.results[0]?.contributions).toBeDefined();
    await expect(access(path.join(searchDirectory(ws.root), INDEX_FILE))).resolves.toBeUndefined();
  });

  it.each([
    ['an empty query', { query: '  ' }],
    ['a limit of 0', { query: 'bread', limit: 0 }],
    ['a fractional limit', { query: 'bread', limit: 1.5 }],
  ])('refuses %s as a usage error', async (_name, request) => {
    const ws = await workspaceWith(TOPIC_PAGES);
    const config = await loadConfig(ws.root, { env: {} });
    await expect(searchWorkspace(ws.root, ws.schema, config, { ...request, env: {} })).rejects.toThrow(UsageError);
  });
});
