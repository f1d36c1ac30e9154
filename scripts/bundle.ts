import { rm } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';
import { packageRoot } from '../src/util/package-root.js';

/**
 * The shipped command (`bin` → dist/bundle/wiki.js): the compiled CLI bundled with its
 * dependencies, split at every dynamic import. A fresh process then reads a few chunk
 * files instead of resolving and loading several hundred modules (zod alone is ~95),
 * which is most of a short command's time; each command still loads only its own chunks.
 * The build worker is an entry of its own, next to the chunks that start it.
 * pdfjs-dist stays outside: it locates its own files at run time; better-sqlite3 too: it
 * loads its native addon from its own folder.
 */
const root = packageRoot();
const outdir = path.join(root, 'dist', 'bundle');

await rm(outdir, { recursive: true, force: true });
await build({
  entryPoints: {
    wiki: path.join(root, 'dist', 'src', 'cli', 'main.js'),
    'build-worker': path.join(root, 'dist', 'src', 'search', 'build', 'build-worker.js'),
  },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: ['pdfjs-dist', 'pdfjs-dist/*', 'better-sqlite3', 'pg-native'],
  // Bundled CommonJS packages call require(); an ES module has none of its own.
  banner: { js: "import { createRequire as __wikiCreateRequire } from 'node:module'; const require = __wikiCreateRequire(import.meta.url);" },
  logLevel: 'warning',
});
