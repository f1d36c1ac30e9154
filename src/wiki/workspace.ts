import { stat } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError } from '../errors.js';

/** The file that marks a workspace root and holds its contract. */
export const SCHEMA_FILE = 'schema.md';

/** Walk up from `start` to the first folder holding schema.md. */
export async function findWorkspaceRoot(start: string): Promise<string | undefined> {
  let dir = path.resolve(start);
  for (;;) {
    try {
      if ((await stat(path.join(dir, SCHEMA_FILE))).isFile()) return dir;
    } catch {
      // keep walking
    }
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** `--root` wins; otherwise discovery from the current directory. */
export async function resolveWorkspaceRoot(explicitRoot: string | undefined, cwd: string): Promise<string> {
  if (explicitRoot) {
    const root = path.resolve(cwd, explicitRoot);
    try {
      if ((await stat(path.join(root, SCHEMA_FILE))).isFile()) return root;
    } catch {
      // fall through to the error
    }
    throw new ConfigError(`--root ${explicitRoot}: no schema.md there`, 'run `wiki init` in that folder first');
  }
  const found = await findWorkspaceRoot(cwd);
  if (!found) {
    throw new ConfigError(
      `no wiki workspace found in ${cwd} or any parent folder`,
      'run `wiki init` to create one, or pass --root DIR',
    );
  }
  return found;
}

/** Machine state folder, git-ignored. */
export function stateDir(root: string): string {
  return path.join(root, '.wiki');
}
