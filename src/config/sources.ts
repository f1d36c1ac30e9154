import { readFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Where configuration comes from besides defaults — the file, environment overrides and
 * secret variables — apart from the schema that validates it (schema.ts): a command whose
 * settings are unchanged since they were last validated reads these without loading the
 * schema library (see settings.ts).
 */
export const CONFIG_FILE = 'wiki.config.json';

/** Secret variables: reported as set/unset, never printed. */
export const SECRET_ENV = ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY'] as const;

export type SecretName = (typeof SECRET_ENV)[number];

/** Non-secret environment overrides, by config path. */
export const ENV_OVERRIDES: Record<string, { path: string; parse: (raw: string) => unknown }> = {
  WIKI_PROVIDER: { path: 'provider', parse: (v) => v },
  WIKI_MODEL: { path: 'model', parse: (v) => v },
  WIKI_BASE_URL: { path: 'baseUrl', parse: (v) => v },
  WIKI_MAX_TURNS: { path: 'maxTurns', parse: (v) => Number(v) },
  WIKI_EMBEDDER: { path: 'search.embedder.kind', parse: (v) => v },
};

/** Overrides that only choose the model: a command that calls no model (search, graph, facts) is not stopped by a bad one. */
const MODEL_OVERRIDES: readonly string[] = ['WIKI_PROVIDER', 'WIKI_MODEL', 'WIKI_BASE_URL'];

/** `env` without the overrides that only choose the model. */
export function withoutModelOverrides(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const copy = { ...env };
  for (const name of MODEL_OVERRIDES) delete copy[name];
  return copy;
}

/** The override variables that take effect: set and not empty. */
export function overridesSet(env: NodeJS.ProcessEnv): string[] {
  return Object.keys(ENV_OVERRIDES).filter((name) => {
    const raw = env[name];
    return raw !== undefined && raw !== '';
  });
}

/** Which secret variables are set; their values never leave the environment. */
export function secretsSet(env: NodeJS.ProcessEnv): Record<SecretName, boolean> {
  return Object.fromEntries(SECRET_ENV.map((name) => [name, Boolean(env[name])])) as Record<SecretName, boolean>;
}

/** The text of wiki.config.json, or undefined when it cannot be read (then defaults apply). */
export async function readConfigText(root: string): Promise<string | undefined> {
  try {
    return await readFile(path.join(root, CONFIG_FILE), 'utf8');
  } catch {
    return undefined;
  }
}
