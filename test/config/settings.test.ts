import { readFileSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, setConfigValue } from '../../src/config/load.js';
import { loadSettings, saveSettings, type LoadedSettings, type SettingsOptions } from '../../src/config/settings.js';
import { ConfigError } from '../../src/errors.js';
import { settingsCachePath } from '../../src/config/settings-cache.js';
import { loadSchema } from '../../src/wiki/schema-loader.js';
import { pathExists } from '../../src/util/fs.js';
import { tempDir } from '../helpers/cli.js';

const TEMPLATE = readFileSync(new URL('../../templates/schema.md', import.meta.url), 'utf8');
/** Defaults filled in by validation (`required`, each type's `required`) must come back from the cache too. */
const MINIMAL_SCHEMA = [
  '---',
  'contract:',
  '  version: 1',
  "  key_pattern: '^[a-z0-9-]+$'",
  '  index: wiki/index.md',
  '  log: wiki/log.md',
  '  types:',
  '    note: { folder: wiki/notes, description: short notes }',
  '---',
  'Write short notes.',
  '',
].join('\n');

async function workspace(schemaText: string, configText?: string, options: { stateDir?: boolean } = {}): Promise<string> {
  const root = await tempDir('wiki-settings-');
  await writeFile(path.join(root, 'schema.md'), schemaText);
  if (configText !== undefined) await writeFile(path.join(root, 'wiki.config.json'), configText);
  if (options.stateDir !== false) await mkdir(path.join(root, '.wiki'));
  return root;
}

/** What the uncached loaders give for the same files, environment and flags. */
async function uncached(root: string, options: SettingsOptions) {
  return { schema: await loadSchema(root), config: await loadConfig(root, options) };
}

function settingsOf({ schema, config }: LoadedSettings) {
  return { schema, config };
}

/** Load, and keep what was validated afresh, as a finished command does. */
async function loadAndSave(root: string, options: SettingsOptions): Promise<LoadedSettings> {
  const loaded = await loadSettings(root, options);
  if (loaded.unsaved !== undefined) expect(await saveSettings(root, loaded.unsaved)).toBe(true);
  return loaded;
}

interface Case {
  name: string;
  schema: string;
  config?: string;
  env: Record<string, string>;
  flags?: Record<string, unknown>;
  /** Whether these settings may come from the cache at all. */
  cacheable: boolean;
}

const SECRET = 'sk-ant-do-not-store-1234';

const CASES: Case[] = [
  { name: 'template, no config file', schema: TEMPLATE, env: {}, cacheable: true },
  { name: 'template, empty config', schema: TEMPLATE, config: '{}', env: {}, cacheable: true },
  {
    name: 'minimal schema with defaults to fill, nested config values',
    schema: MINIMAL_SCHEMA,
    config: JSON.stringify({ model: 'file-model', maxTurns: 12, search: { k: 30, weights: { lexical: 1 }, embedder: { kind: 'none' } } }),
    env: {},
    cacheable: true,
  },
  {
    name: 'CRLF schema, provider and base URL from the file',
    schema: TEMPLATE.replace(/\n/g, '\r\n'),
    config: '{ "provider": "openai", "baseUrl": "http://127.0.0.1:9/v1" }\n',
    env: {},
    cacheable: true,
  },
  { name: 'secret variables set (reported, never stored)', schema: TEMPLATE, config: '{"maxTurns": 7}', env: { ANTHROPIC_API_KEY: SECRET, OPENAI_API_KEY: '' }, cacheable: true },
  { name: 'an override variable set but empty (not an override)', schema: TEMPLATE, config: '{}', env: { WIKI_MODEL: '' }, cacheable: true },
  { name: 'an override variable', schema: TEMPLATE, config: '{"model": "file-model"}', env: { WIKI_MODEL: 'env-model' }, cacheable: false },
  { name: 'an override of a nested key', schema: MINIMAL_SCHEMA, config: '{"search": {"k": 10}}', env: { WIKI_EMBEDDER: 'none', OPENAI_API_KEY: SECRET }, cacheable: false },
  { name: 'a flag', schema: TEMPLATE, config: '{"maxTurns": 12}', env: {}, flags: { maxTurns: 5 }, cacheable: false },
  { name: 'a flag and an override', schema: TEMPLATE, env: { WIKI_MAX_TURNS: '9' }, flags: { model: 'flag-model' }, cacheable: false },
];

describe('loadSettings gives exactly what the uncached loaders give', () => {
  it.each(CASES)('$name', async ({ schema, config, env, flags, cacheable }) => {
    const root = await workspace(schema, config);
    const options: SettingsOptions = { env, ...(flags ? { flags } : {}) };
    const expected = await uncached(root, options);

    // A miss validates, and offers the result for the cache only when nothing but the files decided it.
    const miss = await loadSettings(root, options);
    expect(settingsOf(miss)).toStrictEqual(expected);
    expect(miss.unsaved !== undefined).toBe(cacheable);
    if (miss.unsaved !== undefined) expect(await saveSettings(root, miss.unsaved)).toBe(true);

    // A hit (nothing left to save) gives the same, deep and exact.
    const again = await loadSettings(root, options);
    expect(again.unsaved).toBeUndefined();
    expect(settingsOf(again)).toStrictEqual(expected);

    // A cache made without overrides is never used with them.
    await loadAndSave(root, { env: {} });
    expect(settingsOf(await loadSettings(root, options))).toStrictEqual(expected);
    expect(await readFile(settingsCachePath(root), 'utf8')).not.toContain(SECRET);
  });

  it('hands out separate objects on each hit, so a caller that changes one does not change the next', async () => {
    const root = await workspace(TEMPLATE, '{}');
    await loadAndSave(root, { env: {} });
    const first = await loadSettings(root, { env: {} });
    first.config.config.maxTurns = 999;
    expect((await loadSettings(root, { env: {} })).config.config.maxTurns).toBe(40);
  });
});

describe('an edited file is validated afresh, even with a valid cache from before', () => {
  const edits: Array<{ name: string; file: string; text: string }> = [
    { name: 'a contract that no longer validates', file: 'schema.md', text: TEMPLATE.replace('version: 1', 'version: 2') },
    { name: 'schema.md YAML that does not parse', file: 'schema.md', text: '---\ncontract: [\n---\n' },
    { name: 'schema.md without a contract', file: 'schema.md', text: '# prose only\n' },
    { name: 'a config value of the wrong type', file: 'wiki.config.json', text: '{ "maxTurns": "lots" }\n' },
    { name: 'a config file that is not JSON', file: 'wiki.config.json', text: '{ nope' },
    { name: 'an unknown config key', file: 'wiki.config.json', text: '{ "colour": "blue" }' },
  ];
  it.each(edits)('$name: the same ConfigError as without a cache', async ({ file, text }) => {
    const root = await workspace(TEMPLATE, '{ "maxTurns": 12 }');
    await loadAndSave(root, { env: {} });
    await writeFile(path.join(root, file), text);
    const expected = await uncached(root, { env: {} }).then(
      () => undefined,
      (error: unknown) => error,
    );
    const actual = await loadSettings(root, { env: {} }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(expected).toBeInstanceOf(ConfigError);
    expect(actual).toBeInstanceOf(ConfigError);
    expect({ message: (actual as ConfigError).message, hint: (actual as ConfigError).hint }).toEqual({
      message: (expected as ConfigError).message,
      hint: (expected as ConfigError).hint,
    });
  });

  it('a valid edit takes effect, and a deleted config file means defaults again', async () => {
    const root = await workspace(TEMPLATE, '{ "maxTurns": 12 }');
    expect((await loadAndSave(root, { env: {} })).config.config.maxTurns).toBe(12);
    await writeFile(path.join(root, 'wiki.config.json'), '{ "maxTurns": 13 }');
    expect((await loadAndSave(root, { env: {} })).config.config.maxTurns).toBe(13);
    await rm(path.join(root, 'wiki.config.json'));
    const defaults = await loadAndSave(root, { env: {} });
    expect(defaults.config.config.maxTurns).toBe(40);
    expect(defaults.config.sources.maxTurns).toBe('default');
    await writeFile(path.join(root, 'schema.md'), MINIMAL_SCHEMA);
    expect(Object.keys((await loadAndSave(root, { env: {} })).schema.contract.types)).toEqual(['note']);
  });

  it('wiki config set changes the file, so the next load validates it', async () => {
    const root = await workspace(TEMPLATE, '{ "maxTurns": 12 }');
    await loadAndSave(root, { env: {} });
    await setConfigValue(root, 'search.weights.token', '0.3');
    const next = await loadSettings(root, { env: {} });
    expect(next.unsaved).toBeDefined();
    expect(next.config.config.search.weights.token).toBe(0.3);
    expect(next.config.sources['search.weights.token']).toBe('file');
    expect(settingsOf(next)).toStrictEqual(await uncached(root, { env: {} }));
  });
});

describe('a cache that cannot be trusted is ignored, then rewritten', () => {
  type Damage = (file: string) => Promise<void>;
  interface CacheFileShape {
    format?: number;
    key?: string;
    settings?: { config: { maxTurns: number } };
  }
  const rewriteJson = (change: (value: CacheFileShape) => void): Damage => async (file) => {
    const value = JSON.parse(await readFile(file, 'utf8')) as CacheFileShape;
    change(value);
    await writeFile(file, JSON.stringify(value));
  };
  const damages: Array<{ name: string; damage: Damage; rewritable: boolean }> = [
    { name: 'not JSON', damage: (file) => writeFile(file, '{"format": 1, "key": '), rewritable: true },
    { name: 'empty', damage: (file) => writeFile(file, ''), rewritable: true },
    { name: 'JSON of another kind', damage: (file) => writeFile(file, '[1, 2, 3]'), rewritable: true },
    { name: 'another cache format', damage: rewriteJson((v) => (v.format = 999)), rewritable: true },
    { name: 'the key of other files or another build', damage: rewriteJson((v) => (v.key = 'f'.repeat(64))), rewritable: true },
    { name: 'settings edited by hand', damage: rewriteJson((v) => {
        if (v.settings) v.settings.config.maxTurns = 999;
      }), rewritable: true },
    { name: 'settings removed', damage: rewriteJson((v) => delete v.settings), rewritable: true },
    {
      name: 'a folder where the file should be',
      damage: async (file) => {
        await rm(file);
        await mkdir(file);
      },
      rewritable: false,
    },
  ];
  it.each(damages)('$name', async ({ damage, rewritable }) => {
    const root = await workspace(TEMPLATE, '{ "maxTurns": 12 }');
    const expected = await uncached(root, { env: {} });
    await loadAndSave(root, { env: {} });
    await damage(settingsCachePath(root));
    const loaded = await loadSettings(root, { env: {} });
    expect(settingsOf(loaded)).toStrictEqual(expected);
    expect(loaded.unsaved).toBeDefined();
    expect(await saveSettings(root, loaded.unsaved as string)).toBe(rewritable);
    const after = await loadSettings(root, { env: {} });
    expect(settingsOf(after)).toStrictEqual(expected);
    expect(after.unsaved === undefined).toBe(rewritable);
  });
});

describe('where the cache cannot be kept, commands work as without one', () => {
  it('a workspace without .wiki/ gets none for a cache', async () => {
    const root = await workspace(TEMPLATE, '{}', { stateDir: false });
    const loaded = await loadSettings(root, { env: {} });
    expect(await saveSettings(root, loaded.unsaved as string)).toBe(false);
    expect(await pathExists(path.join(root, '.wiki'))).toBe(false);
    expect(settingsOf(await loadSettings(root, { env: {} }))).toStrictEqual(await uncached(root, { env: {} }));
  });

  it.each([
    ['.wiki is a file', '.wiki'],
    ['.wiki/cache is a file', '.wiki/cache'],
  ])('%s: nothing is written, nothing fails', async (_name, blocker) => {
    const root = await workspace(TEMPLATE, '{}', { stateDir: blocker !== '.wiki' });
    await writeFile(path.join(root, blocker), 'not a folder');
    const loaded = await loadSettings(root, { env: {} });
    expect(settingsOf(loaded)).toStrictEqual(await uncached(root, { env: {} }));
    expect(await saveSettings(root, loaded.unsaved as string)).toBe(false);
    expect((await loadSettings(root, { env: {} })).unsaved).toBeDefined();
  });

  it('a workspace without schema.md fails as before', async () => {
    const root = await tempDir('wiki-settings-');
    await expect(loadSettings(root, { env: {} })).rejects.toThrow(`no schema.md in ${root}`);
  });
});
