import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../src/errors.js';
import { isContextOverflow, retriesPhrase, toProviderError } from '../../src/providers/errors.js';
import type { ProviderErrorContext } from '../../src/providers/settings.js';

const CONTEXT: ProviderErrorContext = {
  provider: 'openai',
  baseUrl: 'http://localhost:11434/v1',
  model: 'llama3',
  keyVariable: 'OPENAI_API_KEY',
  baseUrlVariable: 'OPENAI_BASE_URL',
  keyIsPlaceholder: true,
  maxRetries: 2,
  timeoutMs: 600_000,
};

describe('isContextOverflow: the servers phrase it differently', () => {
  it.each([
    { status: 400, detail: 'prompt is too long: 215000 tokens > 200000 maximum', code: undefined, overflow: true },
    { status: 400, detail: 'input length and `max_tokens` exceed context limit: 190000 + 20000 > 200000', code: undefined, overflow: true },
    { status: 400, detail: "This model's maximum context length is 8192 tokens. However, you requested 9000 tokens", code: undefined, overflow: true },
    { status: 400, detail: 'anything', code: 'context_length_exceeded', overflow: true },
    { status: 400, detail: 'the request exceeds the available context size, try increasing it', code: 'exceed_context_size_error', overflow: true },
    { status: 413, detail: 'Request exceeds the maximum allowed number of bytes.', code: undefined, overflow: true },
    { status: 400, detail: 'tools.0.input_schema: must be an object', code: undefined, overflow: false },
    { status: 429, detail: 'too many tokens per minute', code: undefined, overflow: false },
    { status: 500, detail: 'prompt is too long', code: undefined, overflow: false },
  ])('$status $detail → $overflow', ({ status, detail, code, overflow }) => {
    expect(isContextOverflow(status, detail, code)).toBe(overflow);
  });
});

describe('toProviderError', () => {
  it('passes a ProviderError through untouched', () => {
    const original = new ProviderError('auth', 'x');
    expect(toProviderError(original, CONTEXT)).toBe(original);
  });

  it('treats an AbortError as a cancelled request', () => {
    const abort = new Error('This operation was aborted');
    abort.name = 'AbortError';
    expect(toProviderError(abort, CONTEXT).kind).toBe('aborted');
  });

  it('reports anything else as an unexpected response, keeping the cause', () => {
    const cause = new SyntaxError('Unexpected token < in JSON at position 0');
    const error = toProviderError(cause, CONTEXT);
    expect(error.kind).toBe('bad-response');
    expect(error.message).toBe('unexpected response from http://localhost:11434/v1: Unexpected token < in JSON at position 0');
    expect(error.cause).toBe(cause);
  });
});

describe('retriesPhrase', () => {
  it.each([
    [0, 'with retries turned off'],
    [1, 'after 1 retry'],
    [5, 'after 5 retries'],
  ])('%i → %s', (retries, phrase) => {
    expect(retriesPhrase(retries)).toBe(phrase);
  });
});
