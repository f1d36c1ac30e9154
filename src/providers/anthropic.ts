import Anthropic from '@anthropic-ai/sdk';
import type { ChatModel, ChatRequest, ChatResponse } from '../agent/types.js';
import { AnthropicStreamAccumulator, fromAnthropicMessage, toAnthropicParams } from './anthropic-wire.js';
import { DEFAULT_BASE_URLS } from './defaults.js';
import { abortedError, isTransportFailure, streamCutError, streamStallError, toProviderError } from './errors.js';
import { limitedFetch } from './rate-limiter.js';
import { RequestGuard } from './request-guard.js';
import { errorContext, type ProviderErrorContext, type ProviderSettings } from './settings.js';

/** Claude through the Messages API: tool_use/tool_result, prompt caching, SSE or JSON. */
export class AnthropicChatModel implements ChatModel {
  readonly provider = 'anthropic' as const;
  readonly model: string;
  readonly #client: Anthropic;
  readonly #settings: ProviderSettings;
  readonly #errors: ProviderErrorContext;

  constructor(settings: ProviderSettings) {
    this.model = settings.model;
    this.#settings = settings;
    this.#errors = errorContext('anthropic', settings);
    // Everything explicit, so the SDK reads nothing from the environment or credential files.
    this.#client = new Anthropic({
      apiKey: settings.apiKey,
      baseURL: settings.baseUrl ?? DEFAULT_BASE_URLS.anthropic,
      timeout: settings.timeoutMs,
      maxRetries: settings.maxRetries,
      ...(settings.limiter ? { fetch: limitedFetch(settings.limiter) } : {}),
    });
  }

  async complete(request: ChatRequest): Promise<ChatResponse> {
    const params = toAnthropicParams(request, this.model);
    const guard = new RequestGuard(request.signal, this.#settings.timeoutMs);
    const stream = new AnthropicStreamAccumulator();
    let receiving = false;
    try {
      if (!this.#settings.stream) {
        const message = await this.#client.messages.create({ ...params, stream: false }, { signal: guard.signal });
        return fromAnthropicMessage(message, this.model);
      }
      const events = await this.#client.messages.create({ ...params, stream: true }, { signal: guard.signal });
      receiving = true;
      guard.touch();
      for await (const event of events) {
        guard.touch();
        stream.add(event);
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
}
