import { describe, expect, it } from 'vitest';
import type { ProviderChoice } from '../../src/config/provider-choice.js';
import { isLocalServer } from '../../src/providers/local-server.js';

function choice(provider: 'openai' | 'anthropic', baseUrl: string | undefined, keySet: boolean): ProviderChoice {
  return { provider, from: 'test', baseUrl, baseUrlFrom: baseUrl ? 'test' : undefined, keyVariable: provider === 'openai' ? 'OPENAI_API_KEY' : 'ANTHROPIC_API_KEY', keySet };
}

describe('isLocalServer: a base URL on loopback or a private address is a local server whatever key is set', () => {
  it.each([
    'http://localhost:11434/v1',
    'http://api.localhost:8080/v1',
    'http://127.0.0.1:8080/v1',
    'http://[::1]:8080/v1',
    'http://10.1.2.3/v1',
    'http://192.168.1.20:1234/v1',
    'http://172.16.0.5/v1',
    'http://169.254.10.10/v1',
    'http://[fd00::5]/v1',
  ])('%s, with a key, for either provider', (url) => {
    expect(isLocalServer(choice('openai', url, true))).toBe(true);
    expect(isLocalServer(choice('anthropic', url, true))).toBe(true);
  });

  it('an OpenAI-compatible base URL with no key is a local server too', () => {
    expect(isLocalServer(choice('openai', 'https://llm.example.org/v1', false))).toBe(true);
  });

  it('good work: a public host with a key, or no base URL at all, is a hosted API with its list price', () => {
    expect(isLocalServer(choice('openai', 'https://api.example.com/v1', true))).toBe(false);
    expect(isLocalServer(choice('anthropic', 'https://8.8.8.8/v1', true))).toBe(false);
    expect(isLocalServer(choice('openai', undefined, true))).toBe(false);
    expect(isLocalServer(choice('anthropic', undefined, false))).toBe(false);
  });
});
