import { createHash } from 'node:crypto';
import { lstat, mkdir, mkdtemp, readdir, readFile, readlink, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { initWorkspace } from '../../src/operations/workspace/init.js';
import type { ToolContext, ValidationVerdict, WriteChange } from '../../src/tools/context.js';
import { createTools } from '../../src/tools/registry.js';
import type { Tool, ToolOutcome } from '../../src/agent/tool.js';
import { DiskFs, type WorkspaceFs } from '../../src/tools/workspace-fs.js';
import type { Contract } from '../../src/wiki/contract.js';
import { loadSchema } from '../../src/wiki/schema-loader.js';

export const SECRET = 'TOP-SECRET-VALUE';

export interface TempWorkspace {
  /** Temp folder holding the workspace and an `outside/` sibling that must never change. */
  base: string;
  root: string;
  outside: string;
  contract: Contract;
  cleanup(): Promise<void>;
}

/** A workspace made by `wiki init`, with a source, a page, secrets and machine state around it. */
export async function makeWorkspace(): Promise<TempWorkspace> {
  const base = await mkdtemp(path.join(os.tmpdir(), 'wiki-tools-'));
  const root = path.join(base, 'ws');
  const outside = path.join(base, 'outside');
  await initWorkspace(root, { today: '2026-01-01' });
  await mkdir(outside, { recursive: true });
  await writeFile(path.join(outside, 'secret.txt'), `${SECRET}\n`);
  const files: Record<string, string> = {
    'raw/paper.md': '# Attention\n\nAttention lets a model weigh tokens.\n',
    'wiki/concepts/attention.md': page('Attention', 'How models weigh tokens'),
    '.env': `ANTHROPIC_API_KEY=${SECRET}\n`,
    '.env.local': `OPENAI_API_KEY=${SECRET}\n`,
    'raw/sub/.env': `TOKEN=${SECRET}\n`,
    '.git/config': `[remote "origin"]\n\turl = https://${SECRET}@example.invalid/x.git\n`,
    '.wiki/state.json': `{"secret":"${SECRET}"}\n`,
    'node_modules/pkg/index.js': `export const key = '${SECRET}';\n`,
  };
  for (const [relative, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, relative)), { recursive: true });
    await writeFile(path.join(root, relative), content);
  }
  const { contract } = await loadSchema(root);
  return { base, root, outside, contract, cleanup: () => rm(base, { recursive: true, force: true }) };
}

export function page(title: string, summary: string, body = 'Body text.\n'): string {
  return `---\ntitle: ${title}\nsummary: ${summary}\ntype: concept\n---\n\n${body}`;
}

/**
 * Every entry under `dir` with its kind and a digest of its content (or link target), so a
 * test can assert that nothing at all changed, was created or was removed.
 */
export async function snapshotTree(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  async function walk(current: string): Promise<void> {
    for (const name of (await readdir(current)).sort()) {
      const full = path.join(current, name);
      const relative = path.relative(dir, full);
      const info = await lstat(full);
      if (info.isSymbolicLink()) out.set(relative, `link:${await readlink(full)}`);
      else if (info.isDirectory()) {
        out.set(relative, 'dir');
        await walk(full);
      } else out.set(relative, `file:${createHash('sha256').update(await readFile(full)).digest('hex')}`);
    }
  }
  await walk(dir);
  return out;
}

export interface FakePorts {
  validations: Array<{ path: string; content: string }>;
  upserts: Array<{ path: string; content: string }>;
  searches: Array<{ query: string; limit: number }>;
  events: string[];
}

/**
 * A ToolContext over fake validator/search/observer ports that record every call. The
 * validator rejects content containing "INVALID" (each such line is one error) and warns
 * on "WARN"; anything else passes.
 */
export function makeContext(
  ws: Pick<TempWorkspace, 'root' | 'contract'>,
  overrides: Partial<ToolContext> = {},
): { ctx: ToolContext; ports: FakePorts; tools: Record<string, Tool> } {
  const ports: FakePorts = { validations: [], upserts: [], searches: [], events: [] };
  const ctx: ToolContext = {
    root: ws.root,
    fs: new DiskFs(ws.root),
    contract: ws.contract,
    validator: {
      validate(p: string, content: string): ValidationVerdict {
        ports.validations.push({ path: p, content });
        const errors = content.split('\n').filter((line) => line.includes('INVALID')).map((line) => `bad line: ${line}`);
        const warnings = content.includes('WARN') ? ['a warning'] : [];
        return { ok: errors.length === 0, errors, warnings };
      },
    },
    search: {
      async search(query: string, limit: number) {
        ports.searches.push({ query, limit });
        const results = [
          {
            key: 'attention',
            path: 'wiki/concepts/attention.md',
            title: 'Attention',
            summary: 'Weighting inputs by relevance.',
            score: 1,
            lanes: { lexical: 1 },
            snippet: 'attention weights',
            links: [],
            backlinks: [],
          },
        ];
        return { results };
      },
      async upsert(p: string, content: string) {
        ports.upserts.push({ path: p, content });
      },
    },
    observer: {
      beforeWrite(p: string, previous: string | undefined) {
        ports.events.push(`before ${p} ${previous === undefined ? 'absent' : 'present'}`);
      },
      afterWrite(p: string, change: WriteChange) {
        ports.events.push(`after ${p} ${change}`);
      },
    },
    ...overrides,
  };
  const tools = Object.fromEntries(createTools(ctx).map((tool) => [tool.definition.name, tool]));
  return { ctx, ports, tools };
}

export async function call(tools: Record<string, Tool>, name: string, args: Record<string, unknown>): Promise<ToolOutcome> {
  const tool = tools[name];
  if (!tool) throw new Error(`no tool ${name}`);
  return tool.run(args);
}

/** Wraps a WorkspaceFs and records every read, to prove what was (not) loaded. */
export function recordingFs(inner: WorkspaceFs): WorkspaceFs & { reads: Array<{ path: string; range?: { start: number; length: number } }> } {
  const reads: Array<{ path: string; range?: { start: number; length: number } }> = [];
  return {
    reads,
    readText: async (p) => {
      reads.push({ path: p });
      return inner.readText(p);
    },
    readBytes: async (p, range) => {
      reads.push(range ? { path: p, range } : { path: p });
      return inner.readBytes(p, range);
    },
    stat: (p) => inner.stat(p),
    list: (p) => inner.list(p),
    exists: (p) => inner.exists(p),
    writeText: (p, c) => inner.writeText(p, c),
    appendText: (p, c) => inner.appendText(p, c),
  };
}
