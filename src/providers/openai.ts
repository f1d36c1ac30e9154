import OpenAI from 'openai';
import type { ChatModel, ChatRequest, ChatResponse } from '../agent/types.js';
import { DEFAULT_BASE_URLS, defaultContextTokens } from './defaults.js';
import { fromOpenAiCompletion, OpenAiStreamAccumulator, toOpenAiParams } from './openai-wire.js';
import { guardedCall } from './request-guard.js';
import { errorContext, sdkClientOptions, type ProviderErrorContext, type ProviderSettings } from './settings.js';
import { ProviderError } from '../errors.js';

/** OpenAI Chat Completions with function calling; also any OpenAI-compatible server by base URL. */
export class OpenAiChatModel implements ChatModel {
  readonly provider = 'openai' as const;
  readonly model: string;
  readonly contextWindow: number;
  readonly #client: OpenAI;
  readonly #settings: ProviderSettings;
  readonly #errors: ProviderErrorContext;

  constructor(settings: ProviderSettings) {
    this.model = settings.model;
    this.#settings = settings;
    this.#errors = errorContext('openai', settings);
    this.#client = new OpenAI(sdkClientOptions('openai', settings));
    this.contextWindow = defaultContextTokens('openai', this.#officialEndpoint());
  }

  #officialEndpoint(): boolean {
    return this.#settings.baseUrl === undefined || sameUrl(this.#settings.baseUrl, DEFAULT_BASE_URLS.openai);
  }

  async complete(request: ChatRequest): Promise<ChatResponse> {
    const params = toOpenAiParams(request, {
      model: this.model,
      officialEndpoint: this.#officialEndpoint(),
    });
    return guardedCall(
      {
        whole: async (signal) => {
          const response = fromOpenAiCompletion(await this.#client.chat.completions.create({ ...params, stream: false }, { signal }), this.model);
          if (!response) throw this.#noChoices();
          return response;
        },
        stream: (signal) => this.#client.chat.completions.create({ ...params, stream: true, stream_options: { include_usage: true } }, { signal }),
        accumulator: new OpenAiStreamAccumulator(this.#settings.maxToolArgumentChars),
      },
      { model: this.model, signal: request.signal, settings: this.#settings, errors: this.#errors },
    );
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
