/**
 * THE scripted model server for provider and end-to-end tests. It listens on 127.0.0.1
 * and speaks both wire formats on one port, exactly as the real APIs do, so the real
 * SDK code runs against it:
 *
 *   POST /v1/messages          Anthropic Messages API   (JSON, or SSE when `"stream": true`)
 *   POST /v1/chat/completions  OpenAI Chat Completions  (JSON, or SSE chunks + `[DONE]`;
 *                              a final usage chunk when `stream_options.include_usage`)
 *
 * Usage:
 *
 *   const server = await startFakeLlmServer([
 *     { toolCalls: [{ name: 'read_file', arguments: { path: 'raw/a.md' } }] },
 *     { fault: 'status', status: 429, retryAfter: 0 },
 *     { text: 'Done.', usage: { inputTokens: 50, outputTokens: 5, cacheReadTokens: 900 } },
 *   ]);
 *   // in-process SDK:  baseURL: server.anthropicBaseUrl  /  server.openaiBaseUrl
 *   // spawned CLI:     env: { ...process.env, ...server.env('anthropic') }
 *   ...
 *   expect(server.requests).toHaveLength(3);   // every HTTP request, retries included
 *   expect(server.remaining()).toBe(0);        // the whole script was played
 *   expect(server.problems).toEqual([]);       // no unknown path, bad JSON or exhausted script
 *   await server.close();
 *
 * Every HTTP request consumes one step, in order, whichever format it uses; an SDK retry
 * is a new request. The script may instead be a function `(request) => step` (sync or
 * async) that decides from the recorded request, e.g. on `request.toolResults`.
 *
 * Steps (types below):
 *   FakeTurn                       a reply: text, tool calls (arguments object or raw string),
 *                                  stopReason (neutral) or wireStopReason (verbatim), usage
 *                                  (neutral; OpenAI prompt_tokens = input + cache read + cache write)
 *   { fault: 'status', status }    an HTTP error in the format's error body; `retryAfter` (s) /
 *                                  `retryAfterMs` set the retry headers; `message`, `code`,
 *                                  `errorType` shape the body, `body` replaces it
 *   { fault: 'stall' }             never answers (`afterHeaders: true`: starts the stream, then
 *                                  goes silent); the socket is freed by the client or close()
 *   { fault: 'cut-stream' }        starts the answer (SSE events, or half a JSON body), then
 *                                  destroys the socket before message_stop / [DONE]
 *   { fault: 'malformed-tool-json' } a tool call whose arguments are not valid JSON (`raw`);
 *                                  Anthropic JSON responses carry it as a string `input`, which
 *                                  the real API never does; in SSE it is input_json_delta pieces
 *   { fault: 'stream-error' }      a streamed response that starts, then sends an error event
 *                                  (Anthropic `event: error`, OpenAI `{"error": …}` chunk);
 *                                  a JSON request gets HTTP 500 instead
 * Any step may carry `delayMs` (wait before answering).
 *
 * When an array script runs out, the server answers 400 "script exhausted" (not retried by
 * the SDKs) and notes it in `problems`.
 *
 * Split: fake-llm-wire.ts (script types), fake-llm-anthropic.ts and fake-llm-openai.ts (the
 * two formats), fake-llm-record.ts (what is recorded of each request).
 */
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  anthropicErrorBody,
  anthropicMessage,
  anthropicStart,
  anthropicStreamError,
  anthropicStreamEvents,
} from './fake-llm-anthropic.js';
import {
  openAiChunker,
  openAiCompletion,
  openAiDeltaChoice,
  openAiErrorBody,
  openAiStreamError,
  openAiStreamEvents,
} from './fake-llm-openai.js';
import { DEFAULT_ERROR_MESSAGES, type FakeToolCall, type FakeTurn, type FakeUsage, type RenderContext, type SseEvent } from './fake-llm-wire.js';
import { record, type RecordedRequest, type RecordedToolResult, type WireApi } from './fake-llm-record.js';

export type { FakeToolCall, FakeTurn, FakeUsage, RecordedRequest, RecordedToolResult, WireApi };

interface StepTiming {
  /** Wait this long before answering. */
  delayMs?: number;
}

export type FakeFault = StepTiming &
  (
    | {
        fault: 'status';
        status: number;
        /** Seconds, sent as `retry-after`. */
        retryAfter?: number;
        /** Milliseconds, sent as `retry-after-ms` (both SDKs prefer it). */
        retryAfterMs?: number;
        message?: string;
        /** OpenAI `error.code` (e.g. 'context_length_exceeded'). */
        code?: string;
        /** Anthropic `error.type` / OpenAI `error.type`. */
        errorType?: string;
        /** Replaces the whole error body. */
        body?: unknown;
        headers?: Record<string, string>;
      }
    | { fault: 'stall'; afterHeaders?: boolean }
    | { fault: 'cut-stream'; text?: string }
    | { fault: 'malformed-tool-json'; name?: string; raw?: string; text?: string }
    | { fault: 'stream-error'; message?: string; errorType?: string }
  );

export type ScriptStep = (FakeTurn & StepTiming) | FakeFault;

export type Script = ScriptStep[] | ((request: RecordedRequest) => ScriptStep | Promise<ScriptStep>);

export interface FakeLlmServerOptions {
  /** Model name reported in responses (default 'fake-model'). */
  model?: string;
  /** Characters per streamed text / argument piece (default 7, so everything arrives in several pieces). */
  chunkSize?: number;
  /** Pause between streamed events (default 0). */
  eventDelayMs?: number;
}

export interface FakeLlmServer {
  /** http://127.0.0.1:PORT */
  url: string;
  /** Base URL for the Anthropic SDK / ANTHROPIC_BASE_URL (the SDK appends /v1/messages). */
  anthropicBaseUrl: string;
  /** Base URL for the OpenAI SDK / OPENAI_BASE_URL: `${url}/v1`. */
  openaiBaseUrl: string;
  requests: RecordedRequest[];
  /** Protocol problems seen: unknown path, unparsable body, exhausted script. */
  problems: string[];
  /** Steps not yet played (array scripts; always 0 for a function script). */
  remaining(): number;
  /** Environment for a spawned CLI: base URL and a test key for `api`, the other provider's variables unset. */
  env(api: WireApi): Record<string, string | undefined>;
  close(): Promise<void>;
}

export async function startFakeLlmServer(script: Script, options: FakeLlmServerOptions = {}): Promise<FakeLlmServer> {
  const requests: RecordedRequest[] = [];
  const problems: string[] = [];
  const steps = Array.isArray(script) ? [...script] : undefined;
  let cursor = 0;
  const model = options.model ?? 'fake-model';
  const chunkSize = options.chunkSize ?? 7;
  const eventDelayMs = options.eventDelayMs ?? 0;

  const nextStep = async (request: RecordedRequest): Promise<ScriptStep | undefined> => {
    if (!steps) return (script as (request: RecordedRequest) => ScriptStep | Promise<ScriptStep>)(request);
    const step = steps[cursor];
    if (step !== undefined) cursor += 1;
    return step;
  };

  const server = http.createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      problems.push(`handler failed: ${error instanceof Error ? error.message : String(error)}`);
      if (!res.headersSent) sendJson(res, 500, { error: { message: 'fake server handler failed' } });
      else res.destroy();
    });
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const raw = await readBody(req);
    const api: WireApi | undefined =
      req.method === 'POST' && path === '/v1/messages' ? 'anthropic' : req.method === 'POST' && path === '/v1/chat/completions' ? 'openai' : undefined;
    if (!api) {
      problems.push(`unexpected ${req.method ?? '?'} ${path}`);
      sendJson(res, 404, { error: { message: `fake LLM server: no route for ${req.method ?? '?'} ${path}` } });
      return;
    }
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      problems.push(`unparsable body on ${path}`);
      sendJson(res, 400, api === 'anthropic' ? anthropicErrorBody(400, 'body is not JSON') : openAiErrorBody(400, 'body is not JSON'));
      return;
    }
    const recorded = record(requests.length, api, path, req.headers, body);
    requests.push(recorded);
    const step = await nextStep(recorded);
    if (step === undefined) {
      const message = `fake LLM server: script exhausted after ${steps?.length ?? 0} steps (request #${recorded.index})`;
      problems.push(message);
      sendJson(res, 400, api === 'anthropic' ? anthropicErrorBody(400, message) : openAiErrorBody(400, message));
      return;
    }
    if (step.delayMs) await sleep(step.delayMs);
    const context: RenderContext = { n: recorded.index, model, chunkSize };
    await respond(res, recorded, step, context);
  }

  async function respond(res: http.ServerResponse, request: RecordedRequest, step: ScriptStep, context: RenderContext): Promise<void> {
    const anthropic = request.api === 'anthropic';
    if (!('fault' in step)) {
      await sendTurn(res, request, step, context);
      return;
    }
    switch (step.fault) {
      case 'status': {
        const message = step.message ?? DEFAULT_ERROR_MESSAGES[step.status] ?? `HTTP ${step.status}`;
        const body = step.body ?? (anthropic ? anthropicErrorBody(step.status, message, step.errorType) : openAiErrorBody(step.status, message, step.code, step.errorType));
        const headers: Record<string, string> = { ...step.headers };
        if (step.retryAfter !== undefined) headers['retry-after'] = String(step.retryAfter);
        if (step.retryAfterMs !== undefined) headers['retry-after-ms'] = String(step.retryAfterMs);
        sendJson(res, step.status, body, headers);
        return;
      }
      case 'stall':
        if (step.afterHeaders && request.stream) {
          startSse(res);
          writeEvent(res, anthropic ? anthropicStart({}, context) : openAiChunker({}, context, false)([openAiDeltaChoice({ role: 'assistant', content: '' })]));
        }
        return; // never answers; the client gives up or close() frees the socket
      case 'cut-stream': {
        const turn: FakeTurn = { text: step.text ?? 'This answer is cut off in the middle of a sentence and never' };
        if (request.stream) {
          const events = anthropic ? anthropicStreamEvents(turn, context) : openAiStreamEvents(turn, context, includeUsage(request));
          startSse(res);
          // Everything up to the middle of the text, then the socket dies.
          for (const event of events.slice(0, Math.max(2, Math.floor(events.length / 2)))) {
            writeEvent(res, event);
            if (eventDelayMs) await sleep(eventDelayMs);
          }
        } else {
          const json = JSON.stringify(anthropic ? anthropicMessage(turn, context) : openAiCompletion(turn, context));
          res.writeHead(200, { 'content-type': 'application/json' });
          res.write(json.slice(0, Math.floor(json.length / 2)));
        }
        await sleep(20);
        res.destroy();
        return;
      }
      case 'malformed-tool-json': {
        const call: FakeToolCall = { name: step.name ?? 'write_file', arguments: step.raw ?? '{"path": "wiki/concepts/x.md", "content": "unterminated' };
        await sendTurn(res, request, { text: step.text ?? '', toolCalls: [call] }, context);
        return;
      }
      case 'stream-error': {
        const message = step.message ?? 'Overloaded';
        const type = step.errorType ?? (anthropic ? 'overloaded_error' : 'server_error');
        if (!request.stream) {
          sendJson(res, 500, anthropic ? anthropicErrorBody(500, message, type) : openAiErrorBody(500, message, undefined, type));
          return;
        }
        const first = anthropic ? anthropicStart({}, context) : openAiChunker({}, context, false)([openAiDeltaChoice({ role: 'assistant', content: '' })]);
        startSse(res);
        writeEvent(res, first);
        writeEvent(res, anthropic ? anthropicStreamError(message, type) : openAiStreamError(message, type));
        res.end();
        return;
      }
    }
  }

  async function sendTurn(res: http.ServerResponse, request: RecordedRequest, turn: FakeTurn, context: RenderContext): Promise<void> {
    const anthropic = request.api === 'anthropic';
    if (!request.stream) {
      sendJson(res, 200, anthropic ? anthropicMessage(turn, context) : openAiCompletion(turn, context));
      return;
    }
    const events = anthropic ? anthropicStreamEvents(turn, context) : openAiStreamEvents(turn, context, includeUsage(request));
    startSse(res);
    for (const event of events) {
      if (res.destroyed) return;
      writeEvent(res, event);
      if (eventDelayMs) await sleep(eventDelayMs);
    }
    res.end();
  }

  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    anthropicBaseUrl: url,
    openaiBaseUrl: `${url}/v1`,
    requests,
    problems,
    remaining: () => (steps ? steps.length - cursor : 0),
    env: (api) =>
      api === 'anthropic'
        ? { ANTHROPIC_BASE_URL: url, ANTHROPIC_API_KEY: 'test-key', OPENAI_BASE_URL: undefined, OPENAI_API_KEY: undefined }
        : { OPENAI_BASE_URL: `${url}/v1`, OPENAI_API_KEY: 'test-key', ANTHROPIC_BASE_URL: undefined, ANTHROPIC_API_KEY: undefined },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function includeUsage(request: RecordedRequest): boolean {
  const options = request.body.stream_options;
  return typeof options === 'object' && options !== null && (options as Record<string, unknown>).include_usage === true;
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), ...headers });
  res.end(text);
}

function startSse(res: http.ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' });
  res.flushHeaders();
}

function writeEvent(res: http.ServerResponse, event: SseEvent): void {
  if (res.destroyed) return;
  res.write(`${event.event ? `event: ${event.event}\n` : ''}data: ${event.data}\n\n`);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
