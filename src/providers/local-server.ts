import type { ProviderChoice } from '../config/provider-choice.js';
import { isIP } from 'node:net';
import { isPublicAddress } from '../sources/address-policy.js';
import { DEFAULT_MODELS } from './defaults.js';

/**
 * A local server such as Ollama, llama.cpp or vLLM: a base URL on loopback (`localhost`) or a
 * private address, whatever key is set (a proxy that wants one still serves its own models),
 * or an OpenAI-compatible base URL reached without a key. It serves its own models, so no
 * list price applies. A base URL naming a public host with a key is a hosted API.
 */
export function isLocalServer(choice: ProviderChoice): boolean {
  if (choice.provider === undefined || choice.baseUrl === undefined) return false;
  return onLocalNetwork(choice.baseUrl) || (choice.provider === 'openai' && !choice.keySet);
}

/** Whether the URL's host is loopback or a private, link-local or otherwise non-public address (judged without DNS). */
function onLocalNetwork(baseUrl: string): boolean {
  let host: string;
  try {
    host = new URL(baseUrl).hostname.toLowerCase().replace(/^\[|\]$/g, '');
  } catch {
    return false;
  }
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  return isIP(host) !== 0 && !isPublicAddress(host);
}

/** What a run against a local server will ask for, and that its cost is unknown; undefined for any other provider. */
export function localServerNote(choice: ProviderChoice, model: string | undefined): string | undefined {
  if (!isLocalServer(choice)) return undefined;
  const asked = model ?? DEFAULT_MODELS[choice.provider ?? 'openai'];
  const unset = model === undefined ? ' (no model is set; ask for the one your server serves with `wiki config set model NAME` or --model)' : '';
  return `local server at ${choice.baseUrl}: asking for model "${asked}"${unset}; cost: unknown (local server)`;
}
