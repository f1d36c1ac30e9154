/**
 * Budgets set in tokens are spent in characters: about four characters of English text
 * make one token for the models this tool talks to. An estimate, never a count.
 */
export const CHARS_PER_TOKEN = 4;

export function charsForTokens(tokens: number): number {
  return tokens * CHARS_PER_TOKEN;
}
