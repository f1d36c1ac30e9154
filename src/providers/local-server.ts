import type { ProviderChoice } from '../config/provider-choice.js';
import { DEFAULT_MODELS } from './defaults.js';

/**
 * An OpenAI-compatible server reached without a key (OPENAI_BASE_URL or `baseUrl`, no
 * OPENAI_API_KEY): a local server such as Ollama or llama.cpp. It serves its own models,
 * so no list price applies.
 */
export function isLocalServer(choice: ProviderChoice): boolean {
  return choice.provider === 'openai' && choice.baseUrl !== undefined && !choice.keySet;
}

/** What a run against a local server will ask for, and that its cost is unknown; undefined for any other provider. */
export function localServerNote(choice: ProviderChoice, model: string | undefined): string | undefined {
  if (!isLocalServer(choice)) return undefined;
  const asked = model ?? DEFAULT_MODELS.openai;
  const unset = model === undefined ? ' (no model is set; ask for the one your server serves with `wiki config set model NAME` or --model)' : '';
  return `local server at ${choice.baseUrl}: asking for model "${asked}"${unset}; cost: unknown (local server)`;
}
