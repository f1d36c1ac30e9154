import path from 'node:path';
import { ConfigError } from '../errors.js';
import { writeFileAtomic } from '../util/fs.js';
import { formatZodIssue } from '../util/zod.js';
import { configKeys, configSchema, type WikiConfig } from './schema.js';
import { CONFIG_FILE, ENV_OVERRIDES, overridesSet, readConfigText, secretsSet, type SecretName } from './sources.js';

export type ConfigSource = 'default' | 'file' | 'env' | 'flag';

export interface EffectiveConfig {
  config: WikiConfig;
  /** For every leaf path (`search.weights.lexical`), which layer set it. */
  sources: Record<string, ConfigSource>;
  /** Which environment variable set an env-sourced value. */
  envNames: Record<string, string>;
  secrets: Record<SecretName, boolean>;
}

type Json = Record<string, unknown>;

export async function readConfigFile(root: string): Promise<Json> {
  return parseConfigText(await readConfigText(root));
}

/** The file layer from wiki.config.json's text; no file (undefined) is `{}`. */
export function parseConfigText(text: string | undefined): Json {
  if (text === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(
      `${CONFIG_FILE}: not valid JSON (${(error as Error).message})`,
      `fix the file or delete it to use defaults`,
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ConfigError(`${CONFIG_FILE}: must hold a JSON object`, 'start from `{}`');
  }
  return value as Json;
}

/**
 * Validate a configuration; an invalid one is a ConfigError naming the field and where the
 * bad value came from (`origin` — or, given `blame`, the layer that set that field), so an
 * error caused by a flag or a variable does not send the user to a file they never changed.
 */
export function validateConfig(raw: Json, origin: string, blame?: (field: string) => { origin: string; fix: string } | undefined): WikiConfig {
  const result = configSchema.safeParse(raw);
  if (!result.success) {
    const issue = result.error.issues[0];
    const culprit = issue ? blame?.(issue.path.map(String).join('.')) : undefined;
    throw new ConfigError(
      `${culprit?.origin ?? origin}: invalid ${issue ? formatZodIssue(issue) : 'value'}`,
      culprit?.fix ?? `fix that field (see \`wiki config\` for the effective values)`,
    );
  }
  return result.data;
}

export function envLayer(env: NodeJS.ProcessEnv): { values: Json; names: Record<string, string> } {
  const values: Json = {};
  const names: Record<string, string> = {};
  for (const name of overridesSet(env)) {
    const { path: configPath, parse } = ENV_OVERRIDES[name] as (typeof ENV_OVERRIDES)[string];
    setPath(values, configPath, parse(env[name] as string));
    names[configPath] = name;
  }
  return { values, names };
}

/** Resolve flags > environment > file > defaults, remembering where each value came from. */
export async function loadConfig(
  root: string,
  options: { env?: NodeJS.ProcessEnv; flags?: Json } = {},
): Promise<EffectiveConfig> {
  return resolveConfig(await readConfigFile(root), options);
}

/** loadConfig over a file layer already read (see parseConfigText). */
export function resolveConfig(file: Json, options: { env?: NodeJS.ProcessEnv; flags?: Json } = {}): EffectiveConfig {
  const env = options.env ?? process.env;
  validateConfig(file, CONFIG_FILE);
  const { values: envValues, names: envNames } = envLayer(env);
  const flags = options.flags ?? {};
  const merged = deepMerge(deepMerge(file, envValues), flags);
  const config = validateConfig(merged, 'configuration', (field) =>
    hasPath(flags, field)
      ? { origin: `command-line flag for ${field}`, fix: 'give the flag a valid value' }
      : envNames[field]
        ? { origin: `environment variable ${envNames[field]}`, fix: `fix or unset ${envNames[field]}; ${CONFIG_FILE} is not the cause` }
        : undefined,
  );
  const sources: Record<string, ConfigSource> = {};
  for (const leaf of configKeys()) {
    sources[leaf] = hasPath(flags, leaf)
      ? 'flag'
      : hasPath(envValues, leaf)
        ? 'env'
        : hasPath(file, leaf)
          ? 'file'
          : 'default';
  }
  return { config, sources, envNames, secrets: secretsSet(env) };
}

/** `wiki config set KEY VALUE`: edit the file, validating the result before writing. */
export async function setConfigValue(root: string, key: string, rawValue: string): Promise<WikiConfig> {
  if (!/^[A-Za-z][A-Za-z0-9]*(\.[A-Za-z][A-Za-z0-9]*)*$/.test(key)) {
    throw new ConfigError(`config key "${key}" is not a dotted field path`, 'e.g. `wiki config set search.weights.lexical 1.2`');
  }
  const file = await readConfigFile(root);
  const value = parseConfigValue(rawValue);
  const next = structuredClone(file);
  if (value === null) deletePath(next, key);
  else setPath(next, key, value);
  if (!configKeys().includes(key)) {
    throw new ConfigError(`unknown config key "${key}"`, 'run `wiki config` to list the keys');
  }
  const config = validateConfig(next, `wiki config set ${key}`, () => ({
    origin: `wiki config set ${key}`,
    fix: `${CONFIG_FILE} was not changed; give a valid value (\`wiki config get ${key}\` shows the current one)`,
  }));
  await writeFileAtomic(path.join(root, CONFIG_FILE), `${JSON.stringify(next, null, 2)}\n`);
  return config;
}

/** JSON when it parses (numbers, booleans, null to unset), a plain string otherwise. */
export function parseConfigValue(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

export function leafPaths(value: Json, prefix = ''): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(value)) {
    const p = prefix ? `${prefix}.${k}` : k;
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) out.push(...leafPaths(v as Json, p));
    else out.push(p);
  }
  return out;
}

export function getPath(value: Json, dotted: string): unknown {
  let cur: unknown = value;
  for (const part of dotted.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Json)[part];
  }
  return cur;
}

function hasPath(value: Json, dotted: string): boolean {
  return getPath(value, dotted) !== undefined;
}

export function setPath(target: Json, dotted: string, value: unknown): void {
  const parts = dotted.split('.');
  let cur = target;
  for (const part of parts.slice(0, -1)) {
    const next = cur[part];
    if (next === null || typeof next !== 'object' || Array.isArray(next)) cur[part] = {};
    cur = cur[part] as Json;
  }
  cur[parts[parts.length - 1] as string] = value;
}

function deletePath(target: Json, dotted: string): void {
  const parts = dotted.split('.');
  let cur: unknown = target;
  for (const part of parts.slice(0, -1)) {
    if (cur === null || typeof cur !== 'object') return;
    cur = (cur as Json)[part];
  }
  if (cur !== null && typeof cur === 'object') delete (cur as Json)[parts[parts.length - 1] as string];
}

function deepMerge(base: Json, over: Json): Json {
  const out: Json = { ...base };
  for (const [k, v] of Object.entries(over)) {
    const prev = out[k];
    if (v && typeof v === 'object' && !Array.isArray(v) && prev && typeof prev === 'object' && !Array.isArray(prev)) {
      out[k] = deepMerge(prev as Json, v as Json);
    } else if (v !== undefined) {
      out[k] = v;
    }
  }
  return out;
}
