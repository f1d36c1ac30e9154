import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { ConfigError } from '../../src/errors.js';
import { DEFAULT_MODELS } from '../../src/providers/defaults.js';
import { createChatModel, type ProviderOverrides } from '../../src/providers/select.js';
import { startFakeLlmServer, type FakeLlmServer } from '../helpers/fake-llm-server.js';
import { tempDir } from '../helpers/cli.js';
import { FIRST_TURN, providerError, request } from './harness.js';

let server: FakeLlmServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function effective(env: NodeJS.ProcessEnv = {}, flags: Record<string, unknown> = {}) {
  return loadConfig(await tempDir(), { env, flags });
}

function configError(run: () => unknown): ConfigError {
  try {
    run();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('createChatModel: which provider and model', () => {
  it.each([
    { env: { ANTHROPIC_API_KEY: 'a' }, provider: 'anthropic', model: DEFAULT_MODELS.anthropic },
    { env: { OPENAI_API_KEY: 'o' }, provider: 'openai', model: DEFAULT_MODELS.openai },
    { env: { ANTHROPIC_API_KEY: 'a', OPENAI_API_KEY: 'o' }, provider: 'anthropic', model: DEFAULT_MODELS.anthropic },
    { env: { OPENAI_BASE_URL: 'http://localhost:11434/v1' }, provider: 'openai', model: DEFAULT_MODELS.openai },
    { env: { ANTHROPIC_API_KEY: 'a', WIKI_MODEL: 'claude-x' }, provider: 'anthropic', model: 'claude-x' },
    { env: { ANTHROPIC_API_KEY: 'a', OPENAI_API_KEY: 'o', WIKI_PROVIDER: 'openai' }, provider: 'openai', model: DEFAULT_MODELS.openai },
  ])('$env → $provider / $model', async ({ env, provider, model }) => {
    const chat = createChatModel(await effective(env), env);
    expect(chat.provider).toBe(provider);
    expect(chat.model).toBe(model);
  });

  it('lets flags override configuration and environment', async () => {
    const env = { ANTHROPIC_API_KEY: 'a', OPENAI_API_KEY: 'o' };
    const chat = createChatModel(await effective(env), env, { provider: 'OpenAI', model: 'qwen3' });
    expect(chat.provider).toBe('openai');
    expect(chat.model).toBe('qwen3');
  });
});

describe('createChatModel: configuration errors name what to set', () => {
  it.each<{ env: NodeJS.ProcessEnv; overrides: ProviderOverrides; message: string; hint: string }>([
    {
      env: {},
      overrides: {},
      message: 'no model provider is configured',
      hint: 'set ANTHROPIC_API_KEY (or OPENAI_API_KEY, or OPENAI_BASE_URL for a local server)',
    },
    {
      env: { ANTHROPIC_API_KEY: 'a' },
      overrides: { provider: 'openai' },
      message: 'OPENAI_API_KEY is not set (provider openai: command-line flag)',
      hint: 'set OPENAI_API_KEY, or OPENAI_BASE_URL for a local server',
    },
    {
      env: { OPENAI_API_KEY: 'o' },
      overrides: { provider: 'anthropic' },
      message: 'ANTHROPIC_API_KEY is not set (provider anthropic: command-line flag)',
      hint: 'set ANTHROPIC_API_KEY, or choose another provider with --provider',
    },
    { env: { ANTHROPIC_API_KEY: 'a' }, overrides: { provider: 'gemini' }, message: "unknown provider 'gemini'", hint: '--provider anthropic or --provider openai' },
    { env: { ANTHROPIC_API_KEY: 'a' }, overrides: { baseUrl: 'localhost:8080' }, message: "--base-url 'localhost:8080' is not an http(s) URL", hint: 'http://' },
    { env: { ANTHROPIC_API_KEY: 'a' }, overrides: { model: ' ' }, message: '--model is empty', hint: '--model' },
  ])('$message', async ({ env, overrides, message, hint }) => {
    const config = await effective(env);
    const error = configError(() => createChatModel(config, env, overrides));
    expect(error.message).toBe(message);
    expect(error.hint).toContain(hint);
    expect(error.exitCode).toBe(2);
  });
});

describe('createChatModel: the model it builds talks where the configuration says', () => {
  it('reaches a local OpenAI-compatible server from OPENAI_BASE_URL alone, with a placeholder key', async () => {
    server = await startFakeLlmServer([{ text: 'local answer' }]);
    const env = { OPENAI_BASE_URL: server.openaiBaseUrl };
    const response = await createChatModel(await effective(env), env, { model: 'llama3' }).complete(request(FIRST_TURN));
    expect(response.text).toBe('local answer');
    expect(server.requests[0]!.headers.authorization).toBe('Bearer not-needed');
    expect(server.requests[0]!.body.model).toBe('llama3');
  });

  it('honours ANTHROPIC_BASE_URL and the key from the given environment', async () => {
    server = await startFakeLlmServer([{ text: 'hi' }]);
    const env = { ANTHROPIC_API_KEY: 'sk-from-env', ANTHROPIC_BASE_URL: server.anthropicBaseUrl };
    await createChatModel(await effective(env), env).complete(request(FIRST_TURN));
    const headers = server.requests[0]!.headers;
    expect(`${headers['x-api-key'] ?? ''} ${headers.authorization ?? ''}`).toContain('sk-from-env');
    expect(server.requests[0]!.body.model).toBe(DEFAULT_MODELS.anthropic);
  });

  it('takes a --base-url flag over the environment', async () => {
    server = await startFakeLlmServer([{ text: 'hi' }]);
    const env = { OPENAI_API_KEY: 'o', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' };
    await createChatModel(await effective(env), env, { baseUrl: server.openaiBaseUrl }).complete(request(FIRST_TURN));
    expect(server.requests).toHaveLength(1);
  });

  it('applies stream, maxRetries and requestTimeoutMs from the configuration', async () => {
    server = await startFakeLlmServer(() => ({ fault: 'status', status: 503, retryAfterMs: 5 }));
    const env = { OPENAI_API_KEY: 'o', OPENAI_BASE_URL: server.openaiBaseUrl };
    const config = await effective(env, { stream: false, maxRetries: 1, requestTimeoutMs: 2000 });
    const error = await providerError(createChatModel(config, env).complete(request(FIRST_TURN)));
    expect(server.requests.map((sent) => sent.stream)).toEqual([false, false]);
    expect(error.message).toContain('after 1 retry');
  });
});
