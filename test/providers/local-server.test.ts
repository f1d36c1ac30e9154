import { describe, expect, it } from 'vitest';
import type { ProviderChoice } from '../../src/config/provider-choice.js';
import { isLocalAddress, isLocalServer, localServerNote } from '../../src/providers/local-server.js';

/**
 * A base URL on loopback or a private address is a local server whatever key is set (no
 * list price); a public host with a key is a hosted endpoint, priced. Names are judged only
 * as the address the request goes to.
 */
function openai(baseUrl: string | undefined, keySet: boolean): ProviderChoice {
  return { provider: 'openai', from: 'test', baseUrl, baseUrlFrom: baseUrl ? 'OPENAI_BASE_URL' : undefined, keyVariable: 'OPENAI_API_KEY', keySet };
}

describe('isLocalServer', () => {
  it.each([
    'http://localhost:11434/v1',
    'http://LOCALHOST:11434/v1',
    'http://127.0.0.1:8080/v1',
    'http://127.8.9.10/v1',
    'http://[::1]:11434/v1',
    'http://10.1.2.3:8000/v1',
    'http://172.16.0.5/v1',
    'http://172.31.255.255/v1',
    'http://192.168.1.20:1234/v1',
    'http://169.254.10.10/v1',
    'http://[fd12:3456::1]/v1',
    'http://[fe80::1]/v1',
    'http://[::ffff:10.0.0.1]/v1',
    'http://[::ffff:127.0.0.1]/v1',
    // Decimal, hex and octal forms are the addresses they stand for: the request goes to loopback.
    'http://2130706433:11434/v1',
    'http://0x7f.0.0.1/v1',
    'http://0177.0.0.1/v1',
  ])('%s with a key set is a local server: no list price', (url) => {
    expect(isLocalServer(openai(url, true))).toBe(true);
    expect(localServerNote(openai(url, true), undefined)).toMatch(/cost: unknown \(local server\)/);
  });

  it.each([
    'https://api.openai.com/v1',
    'https://llm.example.com/v1',
    'http://8.8.8.8/v1',
    'http://[2606:4700::1111]/v1',
    'http://172.32.0.1/v1',
    'http://192.169.0.1/v1',
    'http://11.0.0.1/v1',
    // Names that merely start with a local one point wherever their owner says.
    'http://127.0.0.1.evil.com/v1',
    'http://localhost.example.com/v1',
    'http://10.0.0.1.nip.example/v1',
    'http://my-localhost/v1',
    // A decimal or hex form of a public address is that public address.
    'http://134744072/v1',
    'http://0x08.0x08.0x08.0x08/v1',
    'http://[::ffff:8.8.8.8]/v1',
  ])('%s with a key set is a hosted endpoint: priced, no local note', (url) => {
    expect(isLocalServer(openai(url, true))).toBe(false);
    expect(localServerNote(openai(url, true), undefined)).toBeUndefined();
  });

  it('any base URL reached without a key is a local server, as before', () => {
    expect(isLocalServer(openai('https://llm.example.com/v1', false))).toBe(true);
  });

  it('no base URL, or another provider, is never a local server', () => {
    expect(isLocalServer(openai(undefined, true))).toBe(false);
    expect(isLocalServer({ ...openai('http://localhost:8080', true), provider: 'anthropic' })).toBe(false);
  });

  it('a base URL that does not parse is no address at all', () => {
    expect(isLocalAddress('not a url')).toBe(false);
    expect(isLocalAddress('')).toBe(false);
  });
});
