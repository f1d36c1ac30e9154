import OpenAI from 'openai';
import type { ChatModel, ChatRequest, ChatResponse } from '../agent/types.js';
import { DEFAULT_BASE_URLS } from './defaults.js';
import {
  abortedError,
  isTransportFailure,
  streamCutError,
  streamStallError,
  toProviderError,
} from './errors.js';
import { fromOpenAiCompletion, OpenAiStreamAccumulator, toOpenAiParams } from './openai-wire.js';
import { limitedFetch } from './rate-limiter.js';
import { RequestGuard } from './request-guard.js';
import { errorContext, type ProviderErrorContext, type ProviderSettings } from './settings.js';
import { ProviderError } from '../errors.js';

/** OpenAI Chat Completions with function calling; also any OpenAI-compatible server by base URL. */
export class OpenAiChatModel implements ChatModel {
  readonly provider = 'openai' as const;
  readonly model: string;
  readonly #client: OpenAI;
  readonly #settings: ProviderSettings;
  readonly #errors: ProviderErrorContext;

  constructor(settings: ProviderSettings) {
    this.model = settings.model;
    this.#settings = settings;
    this.#errors = errorContext('openai', settings);
    this.#client = new OpenAI({
      apiKey: settings.apiKey,
      baseURL: settings.baseUrl ?? DEFAULT_BASE_URLS.openai,
      timeout: settings.timeoutMs,
      maxRetries: settings.maxRetries,
      ...(settings.limiter ? { fetch: limitedFetch(settings.limiter) } : {}),
    });
  }

  async complete(request: ChatRequest): Promise<ChatResponse> {
    const params = toOpenAiParams(request, {
      model: this.model,
      officialEndpoint: this.#settings.baseUrl === undefined || sameUrl(this.#settings.baseUrl, DEFAULT_BASE_URLS.openai),
    });
    const guard = new RequestGuard(request.signal, this.#settings.timeoutMs);
    const stream = new OpenAiStreamAccumulator();
    let receiving = false;
    try {
      if (!this.#settings.stream) {
        const completion = await this.#client.chat.completions.create({ ...params, stream: false }, { signal: guard.signal });
        const response = fromOpenAiCompletion(completion, this.model);
        if (!response) throw this.#noChoices();
        return response;
      }
      const chunks = await this.#client.chat.completions.create(
        { ...params, stream: true, stream_options: { include_usage: true } },
        { signal: guard.signal },
      );
      receiving = true;
      guard.touch();
      for await (const chunk of chunks) {
        guard.touch();
        stream.add(chunk);
      }
      // The SDK ends the iteration quietly when its signal aborts.
      if (guard.cancelled) throw abortedError();
      if (guard.stalled) throw streamStallError(this.#errors);
      if (!stream.finished) throw streamCutError(this.#errors);
      return stream.result(this.model);
    } catch (error) {
      if (guard.cancelled) throw abortedError();
      if (guard.stalled) throw streamStallError(this.#errors);
      if (receiving && isTransportFailure(error)) throw streamCutError(this.#errors, error);
      throw toProviderError(error, this.#errors);
    } finally {
      guard.dispose();
    }
  }

  #noChoices(): ProviderError {
    return new ProviderError(
      'bad-response',
      `the response from ${this.#errors.baseUrl} held no answer (no choices)`,
      'run again; if it keeps happening, the server does not speak Chat Completions',
    );
  }
}

function sameUrl(a: string, b: string): boolean {
  return a.replace(/\/+$/, '') === b.replace(/\/+$/, '');
}
