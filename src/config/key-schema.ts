import { z } from 'zod';
import { configSchema } from './schema.js';

/**
 * One config key as the schema declares it: what values it takes, its default and its
 * limits, read off `configSchema` so a flag's help and its check never write them again.
 */
export interface KeySchema {
  key: string;
  type: 'integer' | 'number' | 'string' | 'boolean';
  default?: unknown;
  minimum?: number;
  maximum?: number;
  choices?: readonly string[];
  /** A string that must be a URL. */
  url?: true;
  /** What the values are, in words, where the schema says (`.describe()`). */
  description?: string;
  /** Whether `value` is one the key takes. */
  accepts(value: unknown): boolean;
  /** Why the schema's own check refuses `value` (a custom refinement's message), beyond its type and limits. */
  refusal(value: unknown): string | undefined;
}

interface JsonSchemaNode {
  type?: string;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  enum?: string[];
  format?: string;
  description?: string;
  properties?: Record<string, JsonSchemaNode>;
}

interface ZodLike {
  def: { type: string; shape?: Record<string, ZodLike>; innerType?: ZodLike };
}

let jsonSchema: JsonSchemaNode | undefined;

export function keySchema(key: string): KeySchema {
  jsonSchema ??= z.toJSONSchema(configSchema, { io: 'input', unrepresentable: 'any' }) as JsonSchemaNode;
  let node: JsonSchemaNode | undefined = jsonSchema;
  let zod: ZodLike | undefined = configSchema as unknown as ZodLike;
  for (const part of key.split('.')) {
    node = node?.properties?.[part];
    zod = unwrap(zod)?.def.shape?.[part];
  }
  const type = node?.type;
  if (!node || !zod || (type !== 'integer' && type !== 'number' && type !== 'string' && type !== 'boolean')) {
    throw new Error(`config key ${key} is not a single value in the config schema`);
  }
  const leaf = unwrap(zod) as unknown as z.ZodType;
  return {
    key,
    type,
    ...(node.default === undefined ? {} : { default: node.default }),
    // Number.MAX_SAFE_INTEGER is zod's way of saying "no upper limit" for integers.
    ...(node.minimum === undefined ? {} : { minimum: node.minimum }),
    ...(node.maximum === undefined || node.maximum >= Number.MAX_SAFE_INTEGER ? {} : { maximum: node.maximum }),
    ...(node.enum ? { choices: node.enum } : {}),
    ...(node.format === 'uri' ? { url: true } : {}),
    ...(node.description === undefined ? {} : { description: node.description }),
    accepts: (value) => leaf.safeParse(value).success,
    refusal: (value) => leaf.safeParse(value).error?.issues.find((issue) => issue.code === 'custom')?.message,
  };
}

/** The values a key takes, in words: `a whole number from 1 to 32`, `one of anthropic, openai`. */
export function describeValues(schema: KeySchema): string {
  if (schema.choices) return `one of ${schema.choices.join(', ')}`;
  if (schema.url) return 'a URL';
  if (schema.description !== undefined) return schema.description;
  if (schema.type === 'string') return 'any text';
  if (schema.type === 'boolean') return 'true or false';
  const noun = schema.type === 'integer' ? 'a whole number' : 'a number';
  const { minimum: min, maximum: max } = schema;
  if (min !== undefined && max !== undefined) return `${noun} from ${min} to ${max}`;
  if (min !== undefined) return `${noun} ≥ ${min}`;
  if (max !== undefined) return `${noun} ≤ ${max}`;
  return noun;
}

function unwrap(schema: ZodLike | undefined): ZodLike | undefined {
  let inner = schema;
  while (inner?.def.innerType && inner.def.type !== 'object') inner = inner.def.innerType;
  return inner;
}
