import type { z } from 'zod';

/** `field.path: message`, the one-line form used in config and schema errors. */
export function formatZodIssue(issue: z.core.$ZodIssue, prefix?: string): string {
  const parts = [prefix, ...issue.path.map(String)].filter((p): p is string => Boolean(p));
  return `${parts.join('.') || '(root)'}: ${issue.message}`;
}
