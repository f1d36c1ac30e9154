/**
 * A tool call's argument text as parsed JSON, or `undefined` when it is not a JSON
 * object: the loop then tells the model its call was malformed instead of running it.
 * Empty text means "no arguments" (some local servers send "" for argument-less calls).
 */
export function parseToolArguments(raw: string): Record<string, unknown> | undefined {
  if (raw.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(raw);
    return isJsonObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Characters of tool-call arguments kept per byte of `limits.pageWriteBytes` (JSON escapes lengthen a page). */
export const ARGUMENT_CHARS_PER_PAGE_BYTE = 4;
/** Room beside the page itself: the path and the JSON around them. */
const ARGUMENT_OVERHEAD_CHARS = 64 * 1024;

/** The longest tool-call arguments a stream keeps, for a given page write cap. */
export function maxToolArgumentChars(pageWriteBytes: number): number {
  return ARGUMENT_CHARS_PER_PAGE_BYTE * pageWriteBytes + ARGUMENT_OVERHEAD_CHARS;
}

export const DEFAULT_MAX_TOOL_ARGUMENT_CHARS = maxToolArgumentChars(1024 * 1024);

/**
 * A tool call's argument text as it streams in, kept only up to `limit` characters: a
 * model sending a 100 MB page costs no more memory than one at the limit. Past it, the
 * text is dropped and only its length counted.
 */
export class CappedArguments {
  #text = '';
  #total = 0;
  constructor(readonly limit: number) {}

  append(piece: string): void {
    this.#total += piece.length;
    if (this.#total > this.limit) {
      if (this.#text.length > QUOTED_PREFIX_CHARS) this.#text = [...this.#text.slice(0, QUOTED_PREFIX_CHARS)].join('');
      return;
    }
    this.#text += piece;
  }

  /** The text kept: all of it, or only its start once it passed the limit. */
  get text(): string {
    return this.#text;
  }

  /** Total length sent, when it passed the limit. */
  get oversized(): { chars: number; limit: number } | undefined {
    return this.#total > this.limit ? { chars: this.#total, limit: this.limit } : undefined;
  }
}

/** How much of oversized arguments is kept, for the error message. */
const QUOTED_PREFIX_CHARS = 200;

export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
