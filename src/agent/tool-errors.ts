import type { ToolCall, ToolDefinition } from './types.js';

/**
 * Error results the loop itself hands back to the model. Each says what was wrong and
 * how to send the call correctly, so the model can fix it on the next turn.
 */

const QUOTE_LIMIT = 200;

export function unknownToolMessage(call: ToolCall, available: readonly string[]): string {
  const names = available.length > 0 ? available.join(', ') : '(none)';
  return `Unknown tool "${call.name}"; nothing was run. The available tools are: ${names}. Call one of them by its exact name.`;
}

export function unparsableArgumentsMessage(call: ToolCall, definition: ToolDefinition): string {
  return (
    `The arguments of this ${call.name} call are not valid JSON, so it was not run. ` +
    `You sent: ${quotePrefix(call.rawArguments)}. ` +
    `Send the arguments as one JSON object${describeParameters(definition)}.`
  );
}

export function nonObjectArgumentsMessage(call: ToolCall, definition: ToolDefinition): string {
  return (
    `The arguments of this ${call.name} call must be a JSON object, so it was not run. ` +
    `You sent: ${quotePrefix(call.rawArguments)}. ` +
    `Send one JSON object${describeParameters(definition)}.`
  );
}

export function oversizedArgumentsMessage(call: ToolCall, oversized: { chars: number; limit: number }): string {
  return (
    `The arguments of this ${call.name} call were ${oversized.chars} characters, past the ${oversized.limit}-character limit for one tool call, ` +
    `so they were dropped unread and nothing was run. A page may hold at most limits.pageWriteBytes and one append limits.appendBytes ` +
    `(wiki.config.json): send less, and split a long subject into several pages.`
  );
}

export function toolThrewMessage(call: ToolCall, error: unknown): string {
  const reason = error instanceof Error ? error.message : String(error);
  return `${call.name} failed unexpectedly: ${reason}. Check the arguments and try again, or take another approach.`;
}

export function notRunMessage(call: ToolCall): string {
  return `${call.name} was not run: the run was interrupted before this call started.`;
}

export function overCallLimitMessage(name: string, limit: number, asked: number): string {
  return (
    `${name} was not run: this turn asked for ${asked} tool calls, and at most ${limit} run per turn ` +
    `(limits.toolCallsPerTurn in wiki.config.json). Ask for the rest in your next turn, a few at a time.`
  );
}

export function overSearchLimitMessage(limit: number, asked: number): string {
  return (
    `search_wiki was not run: this turn asked for ${asked} searches, and at most ${limit} run per turn ` +
    `(limits.searchesPerTurn in wiki.config.json). Read the results you have, then search again next turn if you still need to.`
  );
}

export function overResultBudgetMessage(name: string, bytes: number, limit: number): string {
  return (
    `The result of this ${name} call (${bytes} bytes) was not returned: this turn's tool results reached the ` +
    `${limit}-byte limit per turn (limits.toolResultBytesPerTurn in wiki.config.json). ` +
    `Call it again in your next turn, or read a smaller window (read_file with offset and limit).`
  );
}

export function stoppedMessage(call: ToolCall): string {
  return `${call.name} was stopped: the run was interrupted while this call was running, so it has no result.`;
}

function quotePrefix(raw: string): string {
  if (raw.length === 0) return '(nothing)';
  return raw.length > QUOTE_LIMIT ? `${JSON.stringify(raw.slice(0, QUOTE_LIMIT))}… (${raw.length} chars in all)` : JSON.stringify(raw);
}

/** ` with these fields: path (string, required), limit (integer)` from the tool's JSON Schema. */
export function describeParameters(definition: ToolDefinition): string {
  const properties = definition.parameters['properties'];
  if (typeof properties !== 'object' || properties === null) return '';
  const requiredList = definition.parameters['required'];
  const required = new Set(Array.isArray(requiredList) ? requiredList.filter((n): n is string => typeof n === 'string') : []);
  const fields = Object.entries(properties as Record<string, unknown>).map(([name, schema]) => {
    const type =
      typeof schema === 'object' && schema !== null && typeof (schema as Record<string, unknown>)['type'] === 'string'
        ? String((schema as Record<string, unknown>)['type'])
        : undefined;
    const notes = [type, required.has(name) ? 'required' : undefined].filter((n): n is string => n !== undefined);
    return notes.length > 0 ? `${name} (${notes.join(', ')})` : name;
  });
  return fields.length > 0 ? ` with these fields: ${fields.join(', ')}` : '';
}
