import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importCycles, importGraph, LAYERS, layersTable, sourceFiles, SRC, unitOf, upwardImports } from '../../scripts/layers.js';
import { tempDir } from '../helpers/cli.js';

/** A throwaway `src/` holding `files` (path → text), for attacking the checks themselves. */
async function fakeSrc(files: Record<string, string>): Promise<string> {
  const src = path.join(await tempDir('wiki-layers-'), 'src');
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(src, file)), { recursive: true });
    writeFileSync(path.join(src, file), text);
  }
  return src;
}

describe('the layers of src/ (scripts/layers.ts)', () => {
  const graph = importGraph();

  it('no import runs up the layers, and every folder has a layer', () => {
    const { upward, unplaced } = upwardImports(graph);
    expect(upward.map(({ from, to }) => `src/${from} -> src/${to}`)).toEqual([]);
    expect(unplaced).toEqual([]);
  });

  it('no two files import each other, directly or round about (type-only imports count)', () => {
    expect(importCycles(graph)).toEqual([]);
  });

  it('the deterministic core (wiki, facts, search) imports nothing from tools, operations, mcp, serve, commands or cli', () => {
    const core = new Set(['wiki', 'facts', 'search']);
    const above = new Set(['tools', 'operations', 'mcp', 'serve', 'commands', 'cli', 'config']);
    const leaks = [...graph].flatMap(([from, targets]) => (core.has(unitOf(from)) ? targets.filter((to) => above.has(unitOf(to))).map((to) => `${from} -> ${to}`) : []));
    expect(leaks).toEqual([]);
  });

  it('docs/architecture.md shows the layer table printed from the same order', () => {
    const doc = readFileSync(path.join(SRC, '..', 'docs/architecture.md'), 'utf8');
    expect(doc).toContain(layersTable());
  });

  it('reads every kind of import: static, type-only, dynamic, re-export', () => {
    expect(sourceFiles().length).toBeGreaterThan(100);
    const edges = [...graph.values()].flat();
    expect(edges).toContain('agent/tool.ts'); // type-only (agent/loop.ts)
    expect(edges).toContain('operations/ingest/ingest.ts'); // dynamic (cli/lazy.ts)
  });

  it('an import from the core up to tools/ is caught, even a dynamic one', async () => {
    const src = await fakeSrc({
      'wiki/page.ts': "export const page = async () => import('../tools/write.js');\n",
      'tools/write.ts': "import { page } from '../wiki/page.js';\nexport const write = page;\n",
    });
    expect(upwardImports(importGraph(src)).upward).toEqual([{ from: 'wiki/page.ts', to: 'tools/write.ts' }]);
  });

  it('a cycle through a type-only import is caught', async () => {
    const src = await fakeSrc({
      'wiki/access.ts': "import type { Page } from './page.js';\nexport type Seen = Page;\n",
      'wiki/page.ts': "export { isSeen } from './access.js';\nexport interface Page { key: string }\n",
      'wiki/links.ts': "import type { Page } from './page.js';\nexport type Link = Page;\n",
    });
    expect(importCycles(importGraph(src))).toEqual([['wiki/access.ts', 'wiki/page.ts']]);
  });

  it('a folder no layer holds is reported, not passed', async () => {
    const src = await fakeSrc({ 'newthing/a.ts': "import { x } from '../util/x.js';\nexport const a = x;\n", 'util/x.ts': 'export const x = 1;\n' });
    expect(upwardImports(importGraph(src)).unplaced).toEqual(['newthing']);
    expect(LAYERS.some((layer) => layer.folders.includes('newthing'))).toBe(false);
  });
});
