import type { ConfigEntry, ConfigReport } from '../operations/workspace/config.js';
import type { Colors } from './output.js';

/** A value as the user would type it back into `wiki config set`; nothing set reads as such. */
export function renderConfigValue(value: unknown): string {
  return value === undefined ? 'not set' : JSON.stringify(value);
}

export function renderConfig(report: ConfigReport, c: Colors): string {
  const width = Math.max(...report.entries.map((e) => e.key.length));
  const lines = report.entries.map((e) => `${e.key.padEnd(width)}  ${renderConfigValue(e.value)}  ${c.dim(`(${e.source})`)}`);
  lines.push('');
  for (const secret of report.secrets) lines.push(`${secret.name}: ${secret.set ? `set${secret.from === '.env' ? ' (in the workspace\'s .env)' : ''}` : 'not set'}`);
  if (!report.secrets.some((secret) => secret.set)) lines.push(c.dim('(set a key in the environment, or as KEY=value in .env at the workspace root; the environment wins)'));
  const p = report.provider;
  lines.push(
    p.provider
      ? `provider in use: ${p.provider} (${p.from})${p.baseUrl ? `, base URL ${p.baseUrl}` : ''}`
      : 'provider in use: none — set ANTHROPIC_API_KEY or OPENAI_API_KEY (or OPENAI_BASE_URL for a local server)',
  );
  if (report.localServer) lines.push(report.localServer);
  return lines.join('\n');
}

export function renderConfigEntry(entry: ConfigEntry, c: Colors): string {
  return `${renderConfigValue(entry.value)}  ${c.dim(`(${entry.source})`)}`;
}

export function renderConfigSet(key: string, value: unknown): string {
  return value === null ? `unset ${key} in wiki.config.json (the default applies)` : `set ${key} = ${JSON.stringify(value)} in wiki.config.json`;
}
