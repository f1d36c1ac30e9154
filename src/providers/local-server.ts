import { BlockList, isIP } from 'node:net';
import type { ProviderChoice } from '../config/provider-choice.js';
import { DEFAULT_MODELS } from './defaults.js';

/** Addresses that never leave this machine or its network: loopback, private, link-local, unique local. */
const LOCAL_NETWORKS = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 32],
  ['127.0.0.0', 8],
  ['10.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['169.254.0.0', 16],
] as const) {
  LOCAL_NETWORKS.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
] as const) {
  LOCAL_NETWORKS.addSubnet(network, prefix, 'ipv6');
}

/**
 * Whether `baseUrl` names a server on this machine or a private network. The host is read
 * as the URL parser reads it — the address the request goes to — so decimal and hex forms
 * count by the address they stand for, an IPv4-mapped IPv6 address by its IPv4 part, and a
 * name only when it is `localhost` itself (`localhost.example.com` or `127.0.0.1.evil.com`
 * are names anyone can point anywhere).
 */
export function isLocalAddress(baseUrl: string): boolean {
  let hostname: string;
  try {
    hostname = new URL(baseUrl).hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '');
  } catch {
    return false;
  }
  if (hostname === 'localhost') return true;
  const family = isIP(hostname);
  return family !== 0 && LOCAL_NETWORKS.check(hostname, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * An OpenAI-compatible server such as Ollama or llama.cpp: reached without a key
 * (OPENAI_BASE_URL or `baseUrl`, no OPENAI_API_KEY), or at a loopback or private address
 * whatever key is set (such servers take any placeholder key). It serves its own models,
 * so no list price applies.
 */
export function isLocalServer(choice: ProviderChoice): boolean {
  return choice.provider === 'openai' && choice.baseUrl !== undefined && (!choice.keySet || isLocalAddress(choice.baseUrl));
}

/** What a run against a local server will ask for, and that its cost is unknown; undefined for any other provider. */
export function localServerNote(choice: ProviderChoice, model: string | undefined): string | undefined {
  if (!isLocalServer(choice)) return undefined;
  const asked = model ?? DEFAULT_MODELS.openai;
  const unset = model === undefined ? ' (no model is set; ask for the one your server serves with `wiki config set model NAME` or --model)' : '';
  return `local server at ${choice.baseUrl}: asking for model "${asked}"${unset}; cost: unknown (local server)`;
}
