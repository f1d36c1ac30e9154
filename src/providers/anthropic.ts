import Anthropic from '@anthropic-ai/sdk';
import type { ChatModel, ChatRequest, ChatResponse } from '../agent/types.js';
import { AnthropicStreamAccumulator, fromAnthropicMessage, toAnthropicParams } from './anthropic-wire.js';
import { defaultContextTokens } from './defaults.js';
import { guardedCall } from './request-guard.js';
import { errorContext, sdkClientOptions, type ProviderErrorContext, type ProviderSettings } from './settings.js';

/** Claude through the Messages API: tool_use/tool_result, prompt caching, SSE or JSON. */
export class AnthropicChatModel implements ChatModel {
  readonly provider = 'anthropic' as const;
  readonly model: string;
  readonly contextWindow = defaultContextTokens('anthropic', true);
  readonly #client: Anthropic;
  readonly #settings: ProviderSettings;
  readonly #errors: ProviderErrorContext;

  constructor(settings: ProviderSettings) {
    this.model = settings.model;
    this.#settings = settings;
    this.#errors = errorContext('anthropic', settings);
    this.#client = new Anthropic(sdkClientOptions('anthropic', settings));
  }

  async complete(request: ChatRequest): Promise<ChatResponse> {
    const params = toAnthropicParams(request, this.model);
    return guardedCall(
      {
        whole: async (signal) => fromAnthropicMessage(await this.#client.messages.create({ ...params, stream: false }, { signal }), this.model),
        stream: (signal) => this.#client.messages.create({ ...params, stream: true }, { signal }),
        accumulator: new AnthropicStreamAccumulator(this.#settings.maxToolArgumentChars),
      },
      { model: this.model, signal: request.signal, settings: this.#settings, errors: this.#errors },
    );
  }
}
