import os from 'node:os';
import path from 'node:path';

export const TOKENS_ENV = 'WIKI_SERVE_TOKENS';

/** `--tokens FILE`, else $WIKI_SERVE_TOKENS, else the user's config folder. */
export function tokensFilePath(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  const chosen = flag ?? (env[TOKENS_ENV]?.trim() || undefined);
  if (chosen) return path.resolve(chosen);
  const config = env.XDG_CONFIG_HOME?.trim() || path.join(os.homedir(), '.config');
  return path.join(config, 'wiki', 'serve-tokens.json');
}
