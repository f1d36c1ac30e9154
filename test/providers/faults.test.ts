import { describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/cli.js';
import { fakeServers } from '../helpers/use-fake-llm.js';
import type { WireApi } from '../helpers/fake-llm-server.js';
import { FIRST_TURN, baseUrlOf, closedPort, modelFor, providerError, request } from './harness.js';

/**
 * Provider faults, each through the real SDK and its retry logic: every one ends in a
 * ProviderError of a distinct kind with a one-line reason that names the fix.
 */
const MODES: Array<{ api: WireApi; stream: boolean }> = [
  { api: 'anthropic', stream: false },
  { api: 'anthropic', stream: true },
  { api: 'openai', stream: false },
  { api: 'openai', stream: true },
];

const KEY_VARIABLE: Record<WireApi, string> = { anthropic: 'ANTHROPIC_API_KEY', openai: 'OPENAI_API_KEY' };

const serve = fakeServers();

describe.each(MODES)('$api provider, stream=$stream', ({ api, stream }) => {
  it('waits out a 429 with retry-after and then succeeds', async () => {
    const fake = await serve([{ fault: 'status', status: 429, retryAfter: 1 }, { text: 'recovered' }]);
    const started = Date.now();
    const response = await modelFor(api, baseUrlOf(api, fake), { stream, maxRetries: 2 }).complete(request(FIRST_TURN));
    expect(response.text).toBe('recovered');
    expect(fake.requests).toHaveLength(2);
    // retry-after: 1 is honoured (the default first backoff would be under 0.5 s).
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('gives up on a 500 after the configured retries with a server error', async () => {
    const fake = await serve(() => ({ fault: 'status', status: 500, retryAfterMs: 5 }));
    const error = await providerError(modelFor(api, baseUrlOf(api, fake), { stream, maxRetries: 2 }).complete(request(FIRST_TURN)));
    expect(fake.requests).toHaveLength(3);
    expect(error.kind).toBe('server');
    expect(error.message).toBe(`server error (500) from ${baseUrlOf(api, fake)} after 2 retries`);
  });

  it('reports a 529 overload after retries as a server error', async () => {
    const fake = await serve(() => ({ fault: 'status', status: 529, retryAfterMs: 5 }));
    const error = await providerError(modelFor(api, baseUrlOf(api, fake), { stream, maxRetries: 1 }).complete(request(FIRST_TURN)));
    expect(fake.requests).toHaveLength(2);
    expect(error.kind).toBe('server');
    expect(error.message).toContain('529 overloaded');
    expect(error.message).toContain('after 1 retry');
  });

  it('gives up on a 429 after the retries with a rate-limit error, distinct from a server error', async () => {
    const fake = await serve(() => ({ fault: 'status', status: 429, retryAfterMs: 5 }));
    const error = await providerError(modelFor(api, baseUrlOf(api, fake), { stream, maxRetries: 1 }).complete(request(FIRST_TURN)));
    expect(fake.requests).toHaveLength(2);
    expect(error.kind).toBe('rate-limited');
    expect(error.message).toBe(`rate limited by ${baseUrlOf(api, fake)} (429) after 1 retry`);
  });

  it('fails a 401 at once with an auth error naming the key variable', async () => {
    const fake = await serve(() => ({ fault: 'status', status: 401 }));
    const error = await providerError(modelFor(api, baseUrlOf(api, fake), { stream }).complete(request(FIRST_TURN)));
    expect(fake.requests).toHaveLength(1);
    expect(error.kind).toBe('auth');
    expect(error.message).toBe(`authentication failed (401) — check ${KEY_VARIABLE[api]}`);
    expect(error.hint).toContain('Invalid API key.');
  });

  it('tells a keyless local-server user which key to set on a 401', async () => {
    const fake = await serve([{ fault: 'status', status: 401 }]);
    const error = await providerError(
      modelFor(api, baseUrlOf(api, fake), { stream, keyIsPlaceholder: true, apiKey: 'not-needed' }).complete(request(FIRST_TURN)),
    );
    expect(error.message).toBe(`authentication failed (401) — ${baseUrlOf(api, fake)} wants a key: set ${KEY_VARIABLE[api]}`);
  });

  it('reports a refused connection as unreachable, naming the URL', async () => {
    const url = `http://127.0.0.1:${await closedPort()}${api === 'openai' ? '/v1' : ''}`;
    const error = await providerError(modelFor(api, url, { stream, maxRetries: 0 }).complete(request(FIRST_TURN)));
    expect(error.kind).toBe('unreachable');
    expect(error.message).toBe(`cannot reach ${url} — is the server running?`);
    expect(error.hint).toContain('ECONNREFUSED');
  });

  it('times out a server that never answers, after the retries', async () => {
    const fake = await serve(() => ({ fault: 'stall' }));
    const error = await providerError(modelFor(api, baseUrlOf(api, fake), { stream, timeoutMs: 300, maxRetries: 1 }).complete(request(FIRST_TURN)));
    expect(error.kind).toBe('timeout');
    expect(error.message).toBe(`no response from ${baseUrlOf(api, fake)} within 0.3s after 1 retry`);
    expect(fake.requests).toHaveLength(2);
  });

  it('reports a response cut off in the middle as a bad response, without retrying', async () => {
    const fake = await serve([{ fault: 'cut-stream' }, { text: 'never asked for' }]);
    const error = await providerError(modelFor(api, baseUrlOf(api, fake), { stream }).complete(request(FIRST_TURN)));
    expect(error.kind).toBe('bad-response');
    expect(error.message).toBe(
      stream
        ? `the response stream was cut off before the model finished (${baseUrlOf(api, fake)})`
        : `the response from ${baseUrlOf(api, fake)} was cut off before it was complete`,
    );
    expect(fake.requests).toHaveLength(1);
  });

  it('turns a context-window overflow into its own kind, so the loop can trim and retry', async () => {
    const overflow =
      api === 'anthropic'
        ? { fault: 'status' as const, status: 400, message: 'prompt is too long: 215000 tokens > 200000 maximum' }
        : { fault: 'status' as const, status: 400, message: "This model's maximum context length is 128000 tokens.", code: 'context_length_exceeded' };
    const fake = await serve([overflow]);
    const error = await providerError(modelFor(api, baseUrlOf(api, fake), { stream }).complete(request(FIRST_TURN)));
    expect(error.kind).toBe('context-overflow');
    expect(error.message).toContain(overflow.message);
    expect(fake.requests).toHaveLength(1);
  });

  it('reports an unknown model as a configuration problem (exit 2)', async () => {
    const fake = await serve([{ fault: 'status', status: 404, message: 'model: claude-nope not found' }]);
    const error = await providerError(modelFor(api, baseUrlOf(api, fake), { stream, model: 'claude-nope' }).complete(request(FIRST_TURN)));
    expect(error.kind).toBe('bad-request');
    expect(error.exitCode).toBe(2);
    expect(error.message).toContain(`model 'claude-nope' is not available`);
  });

  it('rejects other 4xx at once as a bad request carrying the server message', async () => {
    const fake = await serve([{ fault: 'status', status: 422, message: 'tools.0.name: invalid' }]);
    const error = await providerError(modelFor(api, baseUrlOf(api, fake), { stream }).complete(request(FIRST_TURN)));
    expect(error.kind).toBe('bad-request');
    expect(error.message).toBe(`request rejected by ${baseUrlOf(api, fake)} (422: tools.0.name: invalid)`);
    expect(fake.requests).toHaveLength(1);
  });

  it('cancels a pending request when the caller aborts', async () => {
    const fake = await serve(() => ({ fault: 'stall' }));
    const controller = new AbortController();
    const pending = providerError(modelFor(api, baseUrlOf(api, fake), { stream }).complete(request(FIRST_TURN, { signal: controller.signal })));
    // Aborted once the server holds the request, not after a fixed delay a loaded machine may outlast.
    await waitFor(() => fake.requests.length === 1, 'the request to reach the server');
    controller.abort();
    const error = await pending;
    expect(error.kind).toBe('aborted');
    expect(fake.requests).toHaveLength(1);
  });
});

describe.each(['anthropic', 'openai'] as const)('%s provider, streaming only', (api) => {
  it('times out a stream that starts and then goes silent', async () => {
    const fake = await serve([{ fault: 'stall', afterHeaders: true }]);
    const error = await providerError(modelFor(api, baseUrlOf(api, fake), { stream: true, timeoutMs: 300 }).complete(request(FIRST_TURN)));
    expect(error.kind).toBe('timeout');
    expect(error.message).toBe(`the response stream from ${baseUrlOf(api, fake)} stalled for 0.3s`);
  });

  it('reports an error event that is not a server failure as a bad response', async () => {
    const fake = await serve([{ fault: 'stream-error', message: 'invalid tool name', errorType: 'invalid_request_error' }]);
    const error = await providerError(modelFor(api, baseUrlOf(api, fake), { stream: true }).complete(request(FIRST_TURN)));
    expect(error.kind).toBe('bad-response');
    expect(error.message).toContain('invalid tool name');
  });

  it('reports an overload error event in the middle of a stream as a server error', async () => {
    const fake = await serve([{ fault: 'stream-error', message: 'Overloaded' }]);
    const error = await providerError(modelFor(api, baseUrlOf(api, fake), { stream: true }).complete(request(FIRST_TURN)));
    expect(error.kind).toBe('server');
    expect(error.message).toContain('reported an error in the middle of the response: Overloaded');
  });
});
