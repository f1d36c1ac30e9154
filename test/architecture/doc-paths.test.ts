import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SRC } from '../../scripts/layers.js';

const ROOT = path.dirname(SRC);
const DOCS = ['README.md', 'docs/architecture.md'];

/** Every file under `dir`, relative to the repository root, `/`-separated. */
function filesUnder(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
}

/**
 * The source paths a text names that do not exist. A path is read as the docs write it:
 * `src/x/y.ts`; `x/y.ts` with `x` a folder of src/ (from src/); `y/z.ts` with `y` a
 * sub-folder (any file of src/ ending so, as `fusion/score-fusion.ts` in the search
 * section; a workspace path such as `.wiki/written.json` is no source); a bare `z.ts` in backticks (some file of src/, scripts/ or test/ so named).
 */
export function missingPaths(text: string, files: readonly string[]): string[] {
  const topFolders = new Set(files.filter((file) => file.startsWith('src/')).map((file) => file.split('/')[1]));
  const missing = new Set<string>();
  for (const [, named = ''] of text.matchAll(/(?<![\w./*-])((?:[\w.-]+\/)+[\w-]+\.(?:ts|json))(?![\w*])/g)) {
    const [first = ''] = named.split('/');
    if (named.startsWith('src/')) {
      if (!files.includes(named)) missing.add(named);
    } else if (topFolders.has(first)) {
      if (!files.includes(`src/${named}`)) missing.add(named);
    } else if (!first.startsWith('.') && !['test', 'scripts', 'node_modules', 'dist', 'docs', 'templates'].includes(first) && !files.some((file) => file.startsWith('src/') && file.endsWith(`/${named}`))) {
      missing.add(named);
    }
  }
  for (const [, name = ''] of text.matchAll(/`([\w-]+\.ts)`/g)) {
    if (!files.some((file) => file.endsWith(`/${name}`))) missing.add(name);
  }
  return [...missing].sort();
}

describe('the source paths README.md and docs/architecture.md name', () => {
  const files = [...filesUnder('src'), ...filesUnder('scripts'), ...filesUnder('test')];

  it.each(DOCS)('%s names only files that exist', (doc) => {
    expect(missingPaths(readFileSync(path.join(ROOT, doc), 'utf8'), files)).toEqual([]);
  });

  it('catches a stale path in each form the docs use, and passes the real ones', () => {
    const stale = 'See `search/score-fusion.ts`, src/tools/paths.ts, `fusion/nope.ts`, `gone.ts`.';
    expect(missingPaths(stale, files)).toEqual(['fusion/nope.ts', 'gone.ts', 'search/score-fusion.ts', 'src/tools/paths.ts']);
    const real = 'See `search/fusion/score-fusion.ts`, src/confine/paths.ts, `fusion/score-fusion.ts`, `layers.ts`, `mcp/served-*.ts`.';
    expect(missingPaths(real, files)).toEqual([]);
  });
});
