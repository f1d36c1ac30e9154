import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { SECRET_ENV, type SecretName } from './sources.js';

/** The file in the workspace root an API key may be kept in (git-ignored by `wiki init`; never readable by the model's tools). */
export const DOTENV_FILE = '.env';

/** Keys this process took from the workspace's .env (not set in the environment). */
const fromDotenv = new Set<SecretName>();

/**
 * Read the API keys (ANTHROPIC_API_KEY, OPENAI_API_KEY) from `<root>/.env` into `env`,
 * each only when the environment does not set it already: a variable the shell sets wins.
 * Only the keys are read — never a base URL or another setting, so a .env that came with a
 * shared workspace cannot send the wiki (or a key) to another server. A missing or
 * unreadable file is no error.
 */
export function readKeysFromDotenv(root: string, env: NodeJS.ProcessEnv = process.env): SecretName[] {
  let text: string;
  try {
    text = readFileSync(path.join(root, DOTENV_FILE), 'utf8');
  } catch {
    return [];
  }
  const values = parseEnv(text);
  const applied: SecretName[] = [];
  for (const name of SECRET_ENV) {
    const value = values[name]?.trim();
    if (!value || env[name]) continue;
    env[name] = value;
    fromDotenv.add(name);
    applied.push(name);
  }
  return applied;
}

/** Whether `name` was taken from the workspace's .env in this process. */
export function isFromDotenv(name: string): boolean {
  return fromDotenv.has(name as SecretName);
}
