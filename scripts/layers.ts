import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { packageRoot } from '../src/util/package-root.js';

/**
 * The layers of `src/`, top to bottom, written once: test/architecture/layers.test.ts fails
 * when an import runs up this list or a cycle appears, and docs/architecture.md's layer table
 * is what `node dist/scripts/layers.js` prints from it. A folder may import its own layer and
 * any layer below; folders sharing a layer may import each other. A new folder under `src/`
 * must be placed here before its first import is accepted.
 */
export const LAYERS: ReadonlyArray<{ folders: readonly string[]; role: string }> = [
  { folders: ['cli', 'commands'], role: 'the command line: parse flags (the config flags in `cli/config-flags.ts`), call one operation, render its result' },
  { folders: ['progress'], role: 'live progress and run summaries on the terminal' },
  { folders: ['serve'], role: '`wiki serve`: MCP over HTTP with tokens' },
  { folders: ['mcp'], role: '`wiki mcp`: the read-only MCP tools' },
  { folders: ['operations'], role: 'one module per workflow (ingest, query, lint, inspect, history, workspace) and what every model run shares (`run/`, `prompt/`)' },
  { folders: ['retrieval', 'graph'], role: 'the evidence pack of a question; the page graph' },
  { folders: ['tools'], role: 'the five tools the model gets, over the sandbox' },
  { folders: ['providers', 'usage'], role: 'model providers behind one neutral interface; token use and cost' },
  { folders: ['agent'], role: 'the provider-neutral loop and the tool interface it runs' },
  { folders: ['config'], role: 'wiki.config.json: its schema (every default and limit), layering flags > env > file > defaults' },
  { folders: ['store'], role: 'where search keeps its index when not in files: the Postgres database many replicas share (`store/postgres/`)' },
  { folders: ['facts'], role: 'core: the facts store and the grounding checks' },
  { folders: ['search', 'sources'], role: 'core: the hybrid search index; raw sources read as text (pdf, html, URLs)' },
  { folders: ['state'], role: '`.wiki/` machine state: lock, manifest, history, written copies' },
  { folders: ['wiki'], role: 'core: pages, the schema contract, validation, index, log' },
  { folders: ['git', 'confine'], role: 'git calls; the path rules and I/O confined to the workspace' },
  { folders: ['util'], role: 'small helpers with no wiki knowledge' },
  { folders: ['errors'], role: 'the error classes every layer throws, and their exit codes' },
];

export const SRC = path.join(packageRoot(), 'src');

/** The folder (or top-level file, without `.ts`) of `src/` a source file belongs to. */
export function unitOf(relative: string): string {
  const [first = ''] = relative.split('/');
  return first.replace(/\.ts$/, '');
}

export function layerIndex(unit: string): number | undefined {
  const index = LAYERS.findIndex((layer) => layer.folders.includes(unit));
  return index < 0 ? undefined : index;
}

/** Every `.ts` file under `src/`, relative to it, `/`-separated. */
export function sourceFiles(src = SRC): string[] {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.ts')) files.push(path.relative(src, full).split(path.sep).join('/'));
    }
  };
  walk(src);
  return files.sort();
}

/** Each file's relative imports (static, dynamic, type-only and re-exports), as files under `src/`. */
export function importGraph(src = SRC): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(src)) {
    const { importedFiles } = ts.preProcessFile(readFileSync(path.join(src, file), 'utf8'), true, true);
    const targets = importedFiles
      .map((imported) => imported.fileName)
      .filter((specifier) => specifier.startsWith('.'))
      .map((specifier) => path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier)).replace(/\.js$/, '.ts'));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

export interface UpwardImport {
  from: string;
  to: string;
}

/** Imports that run up the layers, and files in a folder no layer holds. */
export function upwardImports(graph: Map<string, string[]>): { upward: UpwardImport[]; unplaced: string[] } {
  const upward: UpwardImport[] = [];
  const unplaced = new Set<string>();
  for (const [from, targets] of graph) {
    const fromLayer = layerIndex(unitOf(from));
    if (fromLayer === undefined) unplaced.add(unitOf(from));
    for (const to of targets) {
      const toLayer = layerIndex(unitOf(to));
      if (fromLayer !== undefined && toLayer !== undefined && toLayer < fromLayer) upward.push({ from, to });
    }
  }
  return { upward, unplaced: [...unplaced].sort() };
}

/** Every group of files that import each other, directly or round about (Tarjan's strongly connected components). */
export function importCycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, next);
    low.set(file, next);
    next += 1;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!graph.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file) ?? 0, low.get(target) ?? 0));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file) ?? 0, index.get(target) ?? 0));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop();
      if (member === undefined) break;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || (graph.get(file) ?? []).includes(file)) cycles.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return cycles;
}

/** The layer table docs/architecture.md shows, top layer first. */
export function layersTable(): string {
  const rows = LAYERS.map((layer, i) => `| ${i + 1} | ${layer.folders.map((folder) => (folder === 'errors' ? '`src/errors.ts`' : `\`src/${folder}\``)).join(', ')} | ${layer.role} |`);
  return ['| layer | folders | what it holds |', '| --- | --- | --- |', ...rows].join('\n');
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const graph = importGraph();
  const { upward, unplaced } = upwardImports(graph);
  const cycles = importCycles(graph);
  process.stdout.write(`${layersTable()}\n`);
  for (const { from, to } of upward) process.stderr.write(`upward import: src/${from} -> src/${to}\n`);
  for (const unit of unplaced) process.stderr.write(`src/${unit} is in no layer: add it to LAYERS in scripts/layers.ts\n`);
  for (const cycle of cycles) process.stderr.write(`import cycle: ${cycle.map((file) => `src/${file}`).join(' <-> ')}\n`);
  if (upward.length > 0 || unplaced.length > 0 || cycles.length > 0) process.exitCode = 1;
}
