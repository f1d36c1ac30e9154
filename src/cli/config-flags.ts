import { Option, type Command } from 'commander';
import { UsageError } from '../errors.js';
import { firstOperand } from './argv.js';
import { load } from './lazy.js';

/**
 * Every flag that overrides a wiki.config.json key. Its value becomes the configuration's
 * flag layer (flags > environment > file > defaults, config/load.ts), so `wiki config` and a
 * run see one value and `wiki config` names the flag as its source. What values it takes,
 * its default and its limits are the schema's (config/schema.ts), read for the help and for
 * the check: nothing here repeats them. `unset` says what holds when the key has no default.
 * An entry's name is the flag's option name as commander spells it (`--base-url` → baseUrl).
 */
export const CONFIG_FLAGS = {
  provider: { flag: '--provider <name>', key: 'provider', help: 'model provider', unset: 'the one whose API key is set' },
  model: { flag: '--model <id>', key: 'model', help: 'model id', unset: "the provider's default model" },
  baseUrl: { flag: '--base-url <url>', key: 'baseUrl', help: 'API base URL, e.g. http://localhost:11434/v1 for Ollama', unset: "the provider's" },
  maxTurns: { flag: '--max-turns <n>', key: 'maxTurns', help: 'stop after this many model calls' },
  maxTokens: { flag: '--max-tokens <n>', key: 'maxTokens', help: 'stop once the run has used this many tokens in total', unset: 'no cap' },
  maxCost: { flag: '--max-cost <usd>', key: 'maxCost', help: 'stop once the estimated cost of a known model reaches this many US dollars', unset: 'no cap' },
  lang: { flag: '--lang <tag>', key: 'language', help: 'the language the model writes pages, answers and reviews in', unset: 'the language of the sources' },
  to: { flag: '--to <tag>', key: 'language', help: 'the language to write the pages anew in', unset: 'none: it is required' },
  jobs: { flag: '--jobs <n>', key: 'ingest.jobs', help: 'sources ingested at once, each its own model run' },
  maxVisibility: { flag: '--max-visibility <level>', key: 'mcp.maxVisibility', help: 'serve only pages at or below this visibility level' },
  review: { flag: '--review', key: 'review', help: 'write a proposal instead of changing wiki/: see it with `wiki review`, land it page by page' },
} as const satisfies Record<string, { flag: string; key: string; help: string; unset?: string }>;

export type ConfigFlagName = keyof typeof CONFIG_FLAGS;

/** The config flags each command was given, in the order added. */
const flagsOf = new WeakMap<Command, ConfigFlagName[]>();

/** Add config flags to `command`; their help is completed from the schema when asked for (describeConfigFlags). */
export function addConfigFlags(command: Command, names: readonly ConfigFlagName[]): Command {
  for (const name of names) {
    const spec = CONFIG_FLAGS[name];
    command.addOption(new Option(spec.flag, `${spec.help} (config ${spec.key})`));
  }
  flagsOf.set(command, [...(flagsOf.get(command) ?? []), ...names]);
  return command;
}

/**
 * The flag layer of the configuration for `command`: each config flag given, checked
 * against its key's schema (a bad value is a usage error naming the flag and what it
 * takes) and placed at its key's path, e.g. `--jobs 8` → `{ ingest: { jobs: 8 } }`.
 */
export async function configFlagLayer(command: Command): Promise<Record<string, unknown>> {
  const names = flagsOf.get(command) ?? [];
  const given = command.opts<Record<string, unknown>>();
  // A switch (`--review`, `--no-review`) is a boolean; every other flag a string to check against its key.
  const present = names.filter((name) => typeof given[name] === 'string' || typeof given[name] === 'boolean');
  const layer: Record<string, unknown> = {};
  if (present.length === 0) return layer;
  const [{ keySchema, describeValues }] = await load('keySchema');
  for (const name of present) {
    const { flag, key } = CONFIG_FLAGS[name];
    const [spelled] = flag.split(' ');
    const raw = given[name] as string | boolean;
    const schema = keySchema(key);
    const value = typeof raw === 'boolean' ? raw : schema.type === 'integer' || schema.type === 'number' ? (raw.trim() === '' ? Number.NaN : Number(raw)) : raw;
    if (!schema.accepts(value)) {
      const why = schema.refusal(value);
      throw new UsageError(
        `${spelled} takes ${describeValues(schema)}, not "${raw}"${why === undefined ? '' : `: ${why}`}`,
        `the flag sets ${key} for this run; \`wiki config ${spelled} VALUE\` shows what a run would use`,
      );
    }
    setPath(layer, key, value);
  }
  return layer;
}

const HELP_WORDS: ReadonlySet<string> = new Set(['--help', '-h']);

/**
 * When `argv` asks for the help of a command with config flags, complete their help with
 * what the schema says: the values each takes and its default. Loaded only then, so no
 * other start-up pays for the schema library.
 */
export async function describeConfigFlags(program: Command, argv: readonly string[]): Promise<void> {
  const args = argv.slice(2);
  const operand = firstOperand(args);
  const name = operand === 'help' ? firstOperand(args.slice(args.indexOf('help') + 1)) : args.some((arg) => HELP_WORDS.has(arg)) ? operand : undefined;
  const command = program.commands.find((candidate) => candidate.name() === name);
  const names = command ? (flagsOf.get(command) ?? []) : [];
  if (!command || names.length === 0) return;
  const [{ keySchema, describeValues }] = await load('keySchema');
  for (const option of command.options) {
    // `--no-review` shares `--review`'s attribute; it keeps its own help.
    const flagName = option.negate ? undefined : names.find((candidate) => option.attributeName() === candidate);
    if (flagName === undefined) continue;
    const spec: { help: string; key: string; unset?: string } = CONFIG_FLAGS[flagName];
    const schema = keySchema(spec.key);
    const fallback = schema.default === undefined ? (spec.unset ?? 'unset') : String(schema.default);
    const values = schema.type === 'string' && !schema.choices && !schema.url && !schema.description ? '' : `: ${describeValues(schema)}`;
    option.description = `${spec.help} (config ${spec.key}${values}; default ${fallback})`;
  }
}

function setPath(target: Record<string, unknown>, dotted: string, value: unknown): void {
  const parts = dotted.split('.');
  let node = target;
  for (const part of parts.slice(0, -1)) node = (node[part] ??= {}) as Record<string, unknown>;
  node[parts[parts.length - 1] as string] = value;
}
