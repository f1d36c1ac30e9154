import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The CLI tests spawn the built command (`dist/`), so a build older than its sources would
 * test yesterday's code. Before any test runs, rebuild when anything the build reads is newer
 * than the bundle, or the bundle is missing; a failed build fails the run.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BUILD_INPUTS = ['src', 'scripts', 'templates', 'package.json', 'tsconfig.json'];
const BUILD_OUTPUT = path.join(ROOT, 'dist/bundle/wiki.js');

function newestModification(entry: string): number {
  const stats = statSync(entry);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const name of readdirSync(entry)) newest = Math.max(newest, newestModification(path.join(entry, name)));
  return newest;
}

function builtAt(): number | undefined {
  try {
    return statSync(BUILD_OUTPUT).mtimeMs;
  } catch {
    return undefined;
  }
}

export default function buildIfStale(): void {
  const built = builtAt();
  const newestInput = Math.max(...BUILD_INPUTS.map((input) => newestModification(path.join(ROOT, input))));
  if (built !== undefined && built >= newestInput) return;
  console.info(built === undefined ? 'test setup: no build yet, running `npm run build`' : 'test setup: sources are newer than dist/, running `npm run build`');
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
}
