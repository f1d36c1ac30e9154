/**
 * A run's context window (`contextTokens`): what every request and its reply must fit in.
 * Estimated, as everywhere in the project, at 4 characters a token.
 */
export const CHARS_PER_TOKEN = 4;

/** The reply's share of a small context window: at most a quarter, never above `maxOutputTokens`. */
export function replyTokens(maxOutputTokens: number, contextTokens: number | undefined): number {
  return contextTokens === undefined ? maxOutputTokens : Math.min(maxOutputTokens, Math.floor(contextTokens / 4));
}

/** Characters the messages may take: the window less the reply, the system prompt and the tool definitions. */
export function messageBudgetChars(contextTokens: number, replyTokenCount: number, system: string, toolDefinitions: unknown): number {
  return Math.max(0, (contextTokens - replyTokenCount) * CHARS_PER_TOKEN - system.length - JSON.stringify(toolDefinitions).length);
}
