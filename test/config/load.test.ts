import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, setConfigValue } from '../../src/config/load.js';
import { chooseProvider } from '../../src/config/provider-choice.js';
import { ConfigError } from '../../src/errors.js';
import { tempDir } from '../helpers/cli.js';

async function workspaceWith(config: unknown): Promise<string> {
  const dir = await tempDir();
  await writeFile(path.join(dir, 'wiki.config.json'), JSON.stringify(config));
  return dir;
}

describe('loadConfig precedence: flags > env > file > defaults', () => {
  it('takes each value from the highest layer that sets it and says where', async () => {
    const root = await workspaceWith({ model: 'file-model', maxTurns: 10, search: { k: 30 } });
    const { config, sources, envNames } = await loadConfig(root, {
      env: { WIKI_MODEL: 'env-model', WIKI_MAX_TURNS: '20' },
      flags: { maxTurns: 5 },
    });
    expect(config.model).toBe('env-model');
    expect(config.maxTurns).toBe(5);
    expect(config.search.k).toBe(30);
    expect(config.search.weights.semantic).toBe(1.5);
    expect(sources).toMatchObject({ model: 'env', maxTurns: 'flag', 'search.k': 'file', 'search.weights.semantic': 'default' });
    expect(envNames.model).toBe('WIKI_MODEL');
  });

  it('reports secrets only as set or not set', async () => {
    const root = await workspaceWith({});
    const effective = await loadConfig(root, { env: { ANTHROPIC_API_KEY: 'sk-secret' } });
    expect(effective.secrets).toEqual({ ANTHROPIC_API_KEY: true, OPENAI_API_KEY: false });
    expect(JSON.stringify(effective)).not.toContain('sk-secret');
  });

  const invalid: Array<{ name: string; config: unknown; field: RegExp }> = [
    { name: 'wrong type', config: { maxTurns: 'ten' }, field: /maxTurns/ },
    { name: 'nested wrong value', config: { search: { weights: { lexical: -1 } } }, field: /search\.weights\.lexical/ },
    { name: 'unknown provider', config: { provider: 'mystery' }, field: /provider/ },
    { name: 'unknown key', config: { colour: 'blue' }, field: /colour/ },
  ];
  it.each(invalid)('rejects $name with the field path', async ({ config, field }) => {
    const root = await workspaceWith(config);
    await expect(loadConfig(root, { env: {} })).rejects.toThrow(field);
    await expect(loadConfig(root, { env: {} })).rejects.toBeInstanceOf(ConfigError);
  });

  it('rejects a file that is not JSON', async () => {
    const root = await tempDir();
    await writeFile(path.join(root, 'wiki.config.json'), '{ nope');
    await expect(loadConfig(root, { env: {} })).rejects.toThrow(/not valid JSON/);
  });
});

describe('setConfigValue', () => {
  it('writes a validated value and refuses an invalid one without writing', async () => {
    const root = await workspaceWith({ maxTurns: 12 });
    await setConfigValue(root, 'search.weights.token', '0.3');
    const after = await loadConfig(root, { env: {} });
    expect(after.config.search.weights.token).toBe(0.3);
    expect(after.config.maxTurns).toBe(12);
    await expect(setConfigValue(root, 'maxTurns', '"many"')).rejects.toThrow(/maxTurns/);
    await expect(setConfigValue(root, 'nonsense', '1')).rejects.toThrow(/nonsense/);
    expect((await loadConfig(root, { env: {} })).config.maxTurns).toBe(12);
  });

  it('unsets with null', async () => {
    const root = await workspaceWith({ model: 'x' });
    await setConfigValue(root, 'model', 'null');
    expect((await loadConfig(root, { env: {} })).config.model).toBeUndefined();
  });
});

describe('chooseProvider', () => {
  const cases: Array<{ name: string; file: unknown; env: Record<string, string>; provider: string | undefined; from: RegExp }> = [
    { name: 'nothing set', file: {}, env: {}, provider: undefined, from: /not configured/ },
    { name: 'anthropic key', file: {}, env: { ANTHROPIC_API_KEY: 'k' }, provider: 'anthropic', from: /ANTHROPIC_API_KEY/ },
    { name: 'openai key', file: {}, env: { OPENAI_API_KEY: 'k' }, provider: 'openai', from: /OPENAI_API_KEY/ },
    { name: 'both keys: anthropic first', file: {}, env: { OPENAI_API_KEY: 'k', ANTHROPIC_API_KEY: 'k' }, provider: 'anthropic', from: /ANTHROPIC/ },
    { name: 'local server by base URL', file: {}, env: { OPENAI_BASE_URL: 'http://localhost:11434/v1' }, provider: 'openai', from: /OPENAI_BASE_URL/ },
    { name: 'config file wins over keys', file: { provider: 'openai' }, env: { ANTHROPIC_API_KEY: 'k' }, provider: 'openai', from: /wiki\.config\.json/ },
    { name: 'env override', file: { provider: 'openai' }, env: { WIKI_PROVIDER: 'anthropic' }, provider: 'anthropic', from: /WIKI_PROVIDER/ },
  ];
  it.each(cases)('$name', async ({ file, env, provider, from }) => {
    const root = await workspaceWith(file);
    const choice = chooseProvider(await loadConfig(root, { env }), env);
    expect(choice.provider).toBe(provider);
    expect(choice.from).toMatch(from);
  });
});

describe('configKeys', () => {
  it('lists unset optional keys as well as defaulted ones', async () => {
    const { configKeys } = await import('../../src/config/schema.js');
    expect(configKeys()).toEqual(expect.arrayContaining(['provider', 'model', 'baseUrl', 'maxTurns', 'search.embedder.baseUrl', 'search.weights.lexical', 'git.autoCommit']));
    expect(configKeys()).not.toContain('search');
  });
});

describe('limits settings', () => {
  const cases: Array<{ key: string; value: string; ok: boolean }> = [
    { key: 'limits.toolCallsPerTurn', value: '16', ok: true },
    { key: 'limits.toolCallsPerTurn', value: '0', ok: false },
    { key: 'limits.toolResultBytesPerTurn', value: '65536', ok: true },
    { key: 'limits.toolResultBytesPerTurn', value: '100', ok: false },
    { key: 'limits.transcriptEventBytes', value: '1048576', ok: true },
    { key: 'limits.transcriptEventBytes', value: '"big"', ok: false },
  ];
  it.each(cases)('wiki config set $key $value → ok: $ok', async ({ key, value, ok }) => {
    const root = await tempDir();
    const attempt = setConfigValue(root, key, value);
    if (ok) {
      await attempt;
      expect(String((await loadConfig(root, { env: {} })).config.limits[key.split('.')[1] as 'toolCallsPerTurn'])).toBe(value);
    } else {
      await expect(attempt).rejects.toThrow(ConfigError);
      await expect(attempt).rejects.toThrow(key);
    }
  });
});
