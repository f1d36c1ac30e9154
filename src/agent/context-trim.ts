import type { Message, ToolCall, ToolResult } from './types.js';

/**
 * Old tool results dominate a long run's context: every file the model read stays in
 * the conversation and is re-sent on every call. Once the model has moved on, a long
 * result is replaced by a stub that says what it was, so it can be fetched again.
 * Messages are never removed, so every tool call keeps its result (providers reject
 * unpaired calls).
 *
 * Trimming rewrites an earlier message, which invalidates the provider's prompt cache
 * from there on; so a normal trim waits until enough can go at once (rare, large steps)
 * and leaves the conversation byte-stable in between. A window of a source (raw/) that
 * no later write has followed is never trimmed in a normal pass: the pages have not yet
 * taken in what it said.
 */
export interface TrimOptions {
  /** The last this-many tool messages (one per turn) stay whole. */
  keepRecentTurns: number;
  /** Older results longer than this many characters become a stub. */
  maxResultChars: number;
  /** Tools whose results always stay (writes: short, and they record what was done). */
  preserveTools: ReadonlySet<string>;
  /** Also shorten long string arguments of old tool calls (the content of earlier writes). */
  trimCallArguments: boolean;
  /** Trim only once the results that could go add up to this many characters. */
  trimAboveChars: number;
  /** Keep source windows that no later write has followed (off when the context overflowed). */
  keepUnwrittenSourceReads: boolean;
  /**
   * The most characters the messages may take (the run's context budget less the system
   * prompt, tool definitions and the reply). Above it a trim happens whatever the amount.
   */
  budgetChars?: number;
}

export type TrimMode = 'normal' | 'hard';

/** Before every model call. */
export const NORMAL_TRIM = {
  keepRecentTurns: 2,
  maxResultChars: 500,
  trimCallArguments: false,
  trimAboveChars: 100_000,
  keepUnwrittenSourceReads: true,
} as const;
/** After the provider reported a context overflow: only the last turn stays whole. */
export const HARD_TRIM = {
  keepRecentTurns: 1,
  maxResultChars: 200,
  trimCallArguments: true,
  trimAboveChars: 0,
  keepUnwrittenSourceReads: false,
} as const;

export function trimOptions(mode: TrimMode, preserveTools: ReadonlySet<string>, budgetChars?: number): TrimOptions {
  const base = { ...(mode === 'hard' ? HARD_TRIM : NORMAL_TRIM), preserveTools };
  if (budgetChars === undefined) return base;
  // A step is large (half the budget's worth, at most the usual) so trims stay rare within a small context.
  return { ...base, budgetChars, trimAboveChars: Math.min(base.trimAboveChars, Math.floor(budgetChars / 2)) };
}

/**
 * Characters the messages take as JSON, escapes and structure included: close to what
 * either wire format sends for them, and what a budget is checked against.
 */
export function messageChars(messages: readonly Message[]): number {
  return JSON.stringify(messages).length;
}

export interface TrimResult {
  messages: Message[];
  /** Characters removed from the context by this call (0 when nothing changed). */
  removedChars: number;
  /** Tool results and call arguments replaced by stubs. */
  trimmedItems: number;
}

const STUB_PREFIX = '[trimmed: ';

/** Pure: returns a new message list; messages it does not change are shared, not copied. */
export function trimContext(messages: readonly Message[], options: TrimOptions): TrimResult {
  const toolIndexes = messages.flatMap((message, index) => (message.role === 'tool' ? [index] : []));
  const keptFrom = toolIndexes.length - options.keepRecentTurns;
  if (keptFrom <= 0) return { messages: [...messages], removedChars: 0, trimmedItems: 0 };
  const firstKeptTool = toolIndexes[keptFrom] ?? messages.length;
  const firstKeptAssistant = lastAssistantBefore(messages, firstKeptTool);

  const calls = callsById(messages);
  const lastWrite = lastWriteIndex(messages, options.preserveTools);
  const protectedResult = (index: number, call: ToolCall | undefined): boolean =>
    options.keepUnwrittenSourceReads && index > lastWrite && call !== undefined && isSourceRead(call);
  // The stubs worked out while deciding whether to trim, reused when trimming.
  const stubs = new Map<ToolResult, string | undefined>();
  const stubOf = (result: ToolResult, call: ToolCall | undefined): string | undefined => {
    if (!stubs.has(result)) stubs.set(result, stubFor(result, call, options));
    return stubs.get(result);
  };
  if (options.trimAboveChars > 0) {
    let trimmable = 0;
    messages.forEach((message, index) => {
      if (message.role !== 'tool' || index >= firstKeptTool) return;
      for (const result of message.results) {
        const call = calls.get(result.callId);
        if (protectedResult(index, call)) continue;
        const stub = stubOf(result, call);
        if (stub !== undefined) trimmable += result.content.length - stub.length;
      }
    });
    const overBudget = options.budgetChars !== undefined && messageChars(messages) > options.budgetChars;
    if (trimmable < options.trimAboveChars && !overBudget) return { messages: [...messages], removedChars: 0, trimmedItems: 0 };
  }
  let removedChars = 0;
  let trimmedItems = 0;
  const trimmed = messages.map((message, index): Message => {
    if (message.role === 'tool' && index < firstKeptTool) {
      let changed = false;
      const results = message.results.map((result) => {
        const call = calls.get(result.callId);
        if (protectedResult(index, call)) return result;
        const stub = stubOf(result, call);
        if (stub === undefined) return result;
        changed = true;
        removedChars += result.content.length - stub.length;
        trimmedItems += 1;
        return { ...result, content: stub };
      });
      return changed ? { role: 'tool', results } : message;
    }
    if (message.role === 'assistant' && options.trimCallArguments && index < firstKeptAssistant) {
      let changed = false;
      const toolCalls = message.toolCalls.map((call) => {
        const shortened = shortenArguments(call, options.maxResultChars);
        if (shortened === undefined) return call;
        changed = true;
        removedChars += call.rawArguments.length - shortened.rawArguments.length;
        trimmedItems += 1;
        return shortened;
      });
      return changed ? { ...message, toolCalls } : message;
    }
    return message;
  });
  return { messages: trimmed, removedChars, trimmedItems };
}

function stubFor(result: ToolResult, call: ToolCall | undefined, options: TrimOptions): string | undefined {
  if (result.isError || options.preserveTools.has(result.name)) return undefined;
  if (result.content.length <= options.maxResultChars || result.content.startsWith(STUB_PREFIX)) return undefined;
  const what = call === undefined ? result.name : describeCall(call);
  const window = /^\[[^\]\n]*?(lines \d+-\d+)/.exec(result.content)?.[1];
  const stub = `${STUB_PREFIX}result of ${what}, ${formatCount(result.content.length)} chars${window ? ` (${window})` : ''}, already used — call again to see it]`;
  return stub.length < result.content.length ? stub : undefined;
}

/**
 * The assistant message with the string arguments of its refused calls stubbed when the
 * call's arguments are longer than `maxChars`: the model's own oversized call (a page
 * far past the write limit) is not re-sent on every later turn.
 */
export function shortenRefusedCalls(message: Message, results: readonly ToolResult[], maxChars: number): Message {
  if (message.role !== 'assistant') return message;
  const refused = new Set(results.filter((result) => result.isError).map((result) => result.callId));
  let changed = false;
  const toolCalls = message.toolCalls.map((call) => {
    if (!refused.has(call.id) || call.rawArguments.length <= maxChars) return call;
    const shortened = shortenArguments(call, STUB_ARGUMENT_CHARS);
    if (shortened === undefined) return call;
    changed = true;
    return shortened;
  });
  return changed ? { ...message, toolCalls } : message;
}

const STUB_ARGUMENT_CHARS = 200;

/** Page text shorter than this stays in the conversation as written. */
const WRITTEN_CONTENT_KEEP_CHARS = 300;

/**
 * The assistant message with the content of its accepted writes replaced by a stub saying
 * where the text now is: the page is in the workspace, so re-sending it on every later turn
 * only costs. Done before the message is first sent back, so the conversation's prefix
 * never changes for it (the prompt cache keeps working). Refused writes keep their
 * content: the model corrects them from what it sent.
 */
export function stubWrittenContent(message: Message, results: readonly ToolResult[], writeTools: ReadonlySet<string>): Message {
  if (message.role !== 'assistant') return message;
  const accepted = new Set(results.filter((result) => !result.isError && writeTools.has(result.name)).map((result) => result.callId));
  let changed = false;
  const toolCalls = message.toolCalls.map((call) => {
    const content = call.arguments?.['content'];
    const target = call.arguments?.['path'];
    if (!accepted.has(call.id) || typeof content !== 'string' || typeof target !== 'string' || content.length <= WRITTEN_CONTENT_KEEP_CHARS) return call;
    const how = call.name === 'append_to_file' ? 'appended to' : 'written to';
    const args = { ...call.arguments, content: `${STUB_PREFIX}${formatCount(content.length)} chars ${how} ${target}; read_file(path="${target}") shows the page as it is now]` };
    changed = true;
    return { ...call, arguments: args, rawArguments: JSON.stringify(args) };
  });
  return changed ? { ...message, toolCalls } : message;
}

function shortenArguments(call: ToolCall, maxChars: number): ToolCall | undefined {
  if (call.arguments === undefined) return undefined;
  let changed = false;
  const args: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(call.arguments)) {
    if (typeof value === 'string' && value.length > maxChars && !value.startsWith(STUB_PREFIX)) {
      args[key] = `${STUB_PREFIX}${formatCount(value.length)} chars sent earlier]`;
      changed = true;
    } else {
      args[key] = value;
    }
  }
  if (!changed) return undefined;
  const rawArguments = JSON.stringify(args);
  return rawArguments.length < call.rawArguments.length ? { ...call, arguments: args, rawArguments } : undefined;
}

/** `read_file(wiki/x.md, offset=2000)`: enough to repeat the call. */
export function describeCall(call: ToolCall): string {
  const parts = Object.entries(call.arguments ?? {}).flatMap(([key, value]) => {
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return [];
    const text = typeof value === 'string' && value.length > 60 ? `${value.slice(0, 60)}…` : String(value);
    return [key === 'path' || key === 'query' ? text : `${key}=${text}`];
  });
  return `${call.name}(${parts.join(', ')})`;
}

/** A read of a source file: what the pages are written from. */
function isSourceRead(call: ToolCall): boolean {
  const path = call.arguments?.['path'];
  return call.name === 'read_file' && typeof path === 'string' && path.replace(/^\.\//, '').startsWith('raw/');
}

/** Index of the last assistant message that calls a write tool (-1 when none has). */
function lastWriteIndex(messages: readonly Message[], writeTools: ReadonlySet<string>): number {
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const message = messages[i];
    if (message?.role === 'assistant' && message.toolCalls.some((call) => writeTools.has(call.name))) return i;
  }
  return -1;
}

function callsById(messages: readonly Message[]): Map<string, ToolCall> {
  const calls = new Map<string, ToolCall>();
  for (const message of messages) {
    if (message.role === 'assistant') for (const call of message.toolCalls) calls.set(call.id, call);
  }
  return calls;
}

function lastAssistantBefore(messages: readonly Message[], index: number): number {
  for (let i = index - 1; i >= 0; i -= 1) if (messages[i]?.role === 'assistant') return i;
  return 0;
}

function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}
