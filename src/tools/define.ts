import { z } from 'zod';
import { SandboxError } from '../errors.js';
import { formatZodIssue } from '../util/zod.js';
import type { JsonSchema } from '../agent/types.js';
import type { Tool, ToolOutcome, TurnCall } from '../agent/tool.js';

/**
 * Build a Tool from a zod schema of its arguments: the JSON Schema the model sees is
 * generated from the same schema the arguments are checked against, so they cannot drift.
 * Whatever goes wrong inside `run` comes back as an error outcome; nothing is thrown.
 */
export function defineTool<Shape extends z.ZodRawShape>(spec: {
  name: string;
  description: string;
  args: z.ZodObject<Shape>;
  mutates: boolean;
  run(args: z.infer<z.ZodObject<Shape>>, signal?: AbortSignal): Promise<ToolOutcome>;
  /** See Tool.openTurn: the batch gets arguments already checked; what it throws becomes an error answer. */
  openTurn?(calls: readonly TurnCall[]): {
    run(index: number, args: z.infer<z.ZodObject<Shape>>, signal?: AbortSignal): Promise<ToolOutcome | undefined>;
    settle(signal?: AbortSignal): Promise<ReadonlyMap<number, ToolOutcome>>;
    readonly settlesAfter?: readonly string[];
  };
}): Tool {
  const parameters = toolParameters(spec.args);
  const expected = describeShape(parameters);
  /** Check the arguments, then run: every failure becomes an error answer. */
  const guarded = async <T>(args: Record<string, unknown>, signal: AbortSignal | undefined, run: (parsed: z.infer<z.ZodObject<Shape>>) => Promise<T>): Promise<T | ToolOutcome> => {
    if (signal?.aborted) return failure(`${spec.name} was cancelled before it ran`);
    const parsed = spec.args.safeParse(args ?? {});
    if (!parsed.success) {
      const reasons = parsed.error.issues.map((issue) => formatZodIssue(issue));
      return failure(`invalid arguments for ${spec.name}: ${reasons.join('; ')}. Expected ${spec.name}(${expected}).`);
    }
    try {
      return await run(parsed.data);
    } catch (error) {
      return errorOutcome(spec.name, error);
    }
  };
  const tool: Tool = {
    definition: { name: spec.name, description: spec.description, parameters },
    mutates: spec.mutates,
    run: async (args, signal) => guarded(args, signal, (parsed) => spec.run(parsed, signal)),
  };
  const openTurn = spec.openTurn;
  if (openTurn === undefined) return tool;
  return {
    ...tool,
    openTurn(calls) {
      const batch = openTurn(calls);
      return {
        run: async (index, args, signal) => guarded(args, signal, (parsed) => batch.run(index, parsed, signal)),
        settle: async (signal) => batch.settle(signal),
        ...(batch.settlesAfter === undefined ? {} : { settlesAfter: batch.settlesAfter }),
      };
    },
  };
}

/** The answer for what a tool threw: a sandbox refusal as such, anything else as a failure. */
export function errorOutcome(toolName: string, error: unknown): ToolOutcome {
  if (error instanceof SandboxError) return failure(`refused: ${error.message}`);
  return failure(`${toolName} failed: ${describeError(error)}`);
}

export function success(content: string, changed?: ToolOutcome['changed']): ToolOutcome {
  return changed && changed.length > 0 ? { content, isError: false, changed } : { content, isError: false };
}

export function failure(content: string): ToolOutcome {
  return { content, isError: true };
}

/** The argument schema as JSON Schema, without the noise providers reject or models ignore. */
function toolParameters(schema: z.ZodObject): JsonSchema {
  const json = z.toJSONSchema(schema, { io: 'input' }) as JsonSchema;
  delete json.$schema;
  return stripSafeIntegerBounds(json) as JsonSchema;
}

function stripSafeIntegerBounds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripSafeIntegerBounds);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if ((key === 'maximum' || key === 'minimum') && Math.abs(Number(inner)) === Number.MAX_SAFE_INTEGER) continue;
    out[key] = stripSafeIntegerBounds(inner);
  }
  return out;
}

/** `path: string, offset?: integer >= 0` — the shape quoted back to a model that got it wrong. */
function describeShape(parameters: JsonSchema): string {
  const properties = (parameters.properties ?? {}) as Record<string, Record<string, unknown>>;
  const required = new Set((parameters.required ?? []) as string[]);
  return Object.entries(properties)
    .map(([name, prop]) => {
      const bounds = [
        typeof prop.minimum === 'number' ? `>= ${prop.minimum}` : '',
        typeof prop.minLength === 'number' && prop.minLength > 0 ? 'non-empty' : '',
      ].filter(Boolean);
      return `${name}${required.has(name) ? '' : '?'}: ${String(prop.type ?? 'value')}${bounds.length ? ` ${bounds.join(' ')}` : ''}`;
    })
    .join(', ');
}

function describeError(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    const friendly: Record<string, string> = {
      EACCES: 'permission denied',
      EPERM: 'operation not permitted',
      ENOSPC: 'no space left on the disk',
      EISDIR: 'that path is a directory',
      ENOTDIR: 'a part of that path is a file, not a folder',
      EROFS: 'the file system is read-only',
    };
    return (code && friendly[code]) ?? error.message.replace(/, \w+ '[^']*'$/, '');
  }
  return String(error);
}
