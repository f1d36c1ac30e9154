import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import fg from 'fast-glob';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildGraph } from '../../src/graph/build.js';
import { initWorkspace } from '../../src/operations/workspace/init.js';
import { refsOf } from '../../src/wiki/page.js';
import { listPagePaths, loadPages } from '../../src/wiki/pages.js';
import { parseSchema } from '../../src/wiki/schema-loader.js';
import { SAMPLE_KEYS, writeSampleWiki } from './sample-wiki.js';

const { contract } = parseSchema(readFileSync(new URL('../../templates/schema.md', import.meta.url), 'utf8'));

/**
 * Link resolution the way Obsidian does it, written independently of the tool's own link
 * parser: the target is the text before `#` or `|`, matched case-insensitively against the
 * base names of the vault's markdown files; links inside code are not links.
 */
interface VaultLink {
  from: string;
  target: string;
  heading?: string;
}

function obsidianLinks(file: string, text: string): VaultLink[] {
  const withoutCode = text.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
  return [...withoutCode.matchAll(/\[\[([^\]]+)\]\]/g)].map((m) => {
    const [beforeLabel = ''] = (m[1] ?? '').split('|');
    const [target = '', heading] = beforeLabel.split('#');
    return heading ? { from: file, target, heading } : { from: file, target };
  });
}

function headingsOf(text: string): string[] {
  return [...text.matchAll(/^#{1,6}\s+(.+?)\s*$/gm)].map((m) => m[1] ?? '');
}

let root: string;
let vault: string;
let files: string[];
beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'wiki-obsidian-'));
  await initWorkspace(root, { today: '2026-01-01' });
  await writeSampleWiki(root);
  vault = path.join(root, 'wiki');
  // What Obsidian leaves in a vault: its settings folder (plugins may ship markdown) and its trash.
  for (const [file, text] of [
    ['wiki/.obsidian/app.json', '{}'],
    ['wiki/.obsidian/plugins/some-plugin/README.md', '# Plugin\n\n[[nowhere]]\n'],
    ['wiki/concepts/.obsidian/stray.md', '---\ntitle: Stray\n---\n[[nowhere]]\n'],
    ['wiki/.trash/deleted-page.md', '---\ntitle: Deleted\n---\n[[transformer]]\n'],
    ['.obsidian/workspace.json', '{}'],
  ] as const) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), text);
  }
  files = await fg('**/*.md', { cwd: vault, dot: false });
});

describe('the wiki/ folder opened as an Obsidian vault', () => {
  it('has one markdown file per key, so a base name names exactly one file', () => {
    const names = files.map((f) => path.posix.basename(f, '.md').toLowerCase());
    expect(new Set(names).size).toBe(names.length);
  });

  it('resolves every [[link]] in every file (index and log included) to a file by base name', async () => {
    const unresolved: VaultLink[] = [];
    let count = 0;
    for (const file of files) {
      for (const link of obsidianLinks(file, await readFile(path.join(vault, file), 'utf8'))) {
        count++;
        const matches = files.filter((f) => path.posix.basename(f, '.md').toLowerCase() === link.target.toLowerCase());
        if (matches.length !== 1) unresolved.push(link);
      }
    }
    expect(count).toBeGreaterThan(SAMPLE_KEYS.length); // the index alone links every page
    expect(unresolved).toEqual([]);
  });

  it('finds the heading of every [[key#heading]] link in the target file', async () => {
    const checked: string[] = [];
    for (const file of files) {
      for (const link of obsidianLinks(file, await readFile(path.join(vault, file), 'utf8'))) {
        if (!link.heading) continue;
        const target = files.find((f) => path.posix.basename(f, '.md') === link.target) ?? '';
        expect(headingsOf(await readFile(path.join(vault, target), 'utf8')), `${link.from} → ${link.target}#${link.heading}`).toContain(link.heading);
        checked.push(`${link.target}#${link.heading}`);
      }
    }
    expect(checked.sort()).toEqual(['multi-head-attention#Heads', 'transformer#Encoder']);
  });

  it('sees the same inline links as the tool, and every ref names a file', async () => {
    const pages = await loadPages(root, contract);
    for (const page of pages) {
      const ours = page.links.filter((l) => l.kind === 'inline').map((l) => `${l.target}#${l.heading ?? ''}`);
      const text = await readFile(path.join(root, page.path), 'utf8');
      const theirs = obsidianLinks(page.path, text).map((l) => `${l.target}#${l.heading ?? ''}`);
      expect(ours, page.path).toEqual(theirs);
      for (const ref of refsOf(page.frontmatter)) {
        expect(files.map((f) => path.posix.basename(f, '.md')), `${page.path} refs ${ref}`).toContain(ref);
      }
    }
  });

  it('key = file base name for every page the tool loads', async () => {
    for (const page of await loadPages(root, contract)) expect(page.key).toBe(path.posix.basename(page.path, '.md'));
  });
});

describe('Obsidian folders are not part of the wiki', () => {
  it('listPagePaths skips .obsidian/ and .trash/ at any depth', async () => {
    const paths = await listPagePaths(root);
    expect(paths.filter((p) => p.includes('.obsidian') || p.includes('.trash'))).toEqual([]);
    expect(paths).toHaveLength(SAMPLE_KEYS.length + 2); // content pages, index, log
  });

  it('the graph neither shows them nor reports their links as missing', async () => {
    const graph = buildGraph(await loadPages(root, contract), contract);
    expect(graph.nodes.map((n) => n.key)).toEqual(SAMPLE_KEYS);
    expect(graph.missing).toEqual([]);
  });
});
