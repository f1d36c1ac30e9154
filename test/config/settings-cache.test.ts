import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  SETTINGS_CACHE_FORMAT,
  readSettingsCache,
  settingsCacheContent,
  settingsCachePath,
  settingsKey,
  writeSettingsCache,
  type CachedSettings,
  type SettingsTexts,
} from '../../src/config/settings-cache.js';
import { pathExists } from '../../src/util/fs.js';
import { tempDir } from '../helpers/cli.js';

const SETTINGS = {
  contract: { version: 1, key_pattern: '^[a-z-]+$', index: 'wiki/index.md', log: 'wiki/log.md', required: ['title'], types: { note: { folder: 'wiki/notes', required: [] } } },
  body: 'Prose.\n',
  config: { maxTurns: 40 },
  sources: { maxTurns: 'default' },
} as unknown as CachedSettings;

async function stateRoot(): Promise<string> {
  const root = await tempDir('wiki-settings-cache-');
  await mkdir(path.join(root, '.wiki'));
  return root;
}

describe('settingsKey', () => {
  const base: SettingsTexts = { schemaText: '---\ncontract: {}\n---\nProse.\n', configText: '{}' };
  const variants: Array<[string, SettingsTexts]> = [
    ['one more byte in schema.md', { ...base, schemaText: `${base.schemaText}\n` }],
    ['CRLF instead of LF in schema.md', { ...base, schemaText: base.schemaText.replace(/\n/g, '\r\n') }],
    ['a space in wiki.config.json', { ...base, configText: '{ }' }],
    ['no wiki.config.json instead of `{}`', { ...base, configText: undefined }],
    ['an empty wiki.config.json instead of none', { schemaText: base.schemaText, configText: '' }],
    ['the two texts swapped', { schemaText: '{}', configText: base.schemaText }],
  ];
  it.each(variants)('changes with %s', async (_name, texts) => {
    expect(await settingsKey(texts)).not.toBe(await settingsKey(base));
  });

  it('is the same for the same texts', async () => {
    const key = await settingsKey(base);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(await settingsKey({ ...base })).toBe(key);
  });
});

describe('the cache file', () => {
  it('reads back what was written, under the same key only', async () => {
    const root = await stateRoot();
    const key = 'a'.repeat(64);
    expect(await writeSettingsCache(root, settingsCacheContent(key, SETTINGS))).toBe(true);
    expect(await readSettingsCache(root, key)).toStrictEqual(SETTINGS);
    expect(await readSettingsCache(root, 'b'.repeat(64))).toBeUndefined();
    const file = JSON.parse(await readFile(settingsCachePath(root), 'utf8')) as { format: number; key: string };
    expect(file).toMatchObject({ format: SETTINGS_CACHE_FORMAT, key });
  });

  it('lives in .wiki/cache/settings.json and leaves no temporary file behind', async () => {
    const root = await stateRoot();
    expect(settingsCachePath(root)).toBe(path.join(root, '.wiki', 'cache', 'settings.json'));
    await writeSettingsCache(root, settingsCacheContent('c'.repeat(64), SETTINGS));
    expect(await readdir(path.join(root, '.wiki', 'cache'))).toEqual(['settings.json']);
  });

  it('is missing: nothing read, nothing thrown', async () => {
    expect(await readSettingsCache(await stateRoot(), 'a'.repeat(64))).toBeUndefined();
  });

  it('is not written where .wiki/ does not exist', async () => {
    const root = await tempDir('wiki-settings-cache-');
    expect(await writeSettingsCache(root, settingsCacheContent('a'.repeat(64), SETTINGS))).toBe(false);
    expect(await pathExists(path.join(root, '.wiki'))).toBe(false);
  });

  it('is refused when its content no longer matches its digest', async () => {
    const root = await stateRoot();
    const key = 'd'.repeat(64);
    await writeSettingsCache(root, settingsCacheContent(key, SETTINGS));
    const text = await readFile(settingsCachePath(root), 'utf8');
    await writeFile(settingsCachePath(root), text.replace('Prose.', 'Prose!'));
    expect(await readSettingsCache(root, key)).toBeUndefined();
  });
});
