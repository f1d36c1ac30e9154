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

export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
