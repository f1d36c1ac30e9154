/**
 * Shared pieces of the cron-*.test.ts suites (unattended `wiki ingest` / `query --save`):
 * one `wiki init` per suite cloned per test, valid pages to script writes with, and the
 * checks every "the wiki stayed whole" assertion needs.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parsePage } from '../../src/wiki/page.js';
import { cloneWorkspace, initWorkspace } from '../helpers/cli.js';
import type { RecordedRequest, ScriptStep } from '../helpers/fake-llm-server.js';
import { readSourceRecord } from '../helpers/source-record.js';

let template: Promise<string> | undefined;

/** A fresh workspace as `wiki init` makes it (init runs once per test file, then copies). */
export async function freshWorkspace(): Promise<string> {
  template ??= initWorkspace();
  return cloneWorkspace(await template);
}

export interface PageSpec {
  title?: string;
  summary?: string;
  sources?: string[];
  refs?: string[];
  body?: string;
}

/** A page that passes write-time validation: folder from the type, key from the file name. */
export function pageText(type: 'source' | 'concept' | 'entity', key: string, spec: PageSpec = {}): string {
  const lines = [
    '---',
    `title: ${spec.title ?? key.replace(/-/g, ' ')}`,
    `summary: ${spec.summary ?? `What the wiki knows about ${key.replace(/-/g, ' ')}.`}`,
    `type: ${type}`,
  ];
  if (spec.refs?.length) lines.push(`refs: [${spec.refs.join(', ')}]`);
  const sources = spec.sources ?? (type === 'source' ? [`raw/${key}.md`] : []);
  if (sources.length) lines.push(`sources: [${sources.join(', ')}]`);
  lines.push('created: 2026-11-21', 'updated: 2026-11-21', '---', '', spec.body ?? `Notes on ${key}.`, '');
  return lines.join('\n');
}

export function pagePath(type: 'source' | 'concept' | 'entity', key: string): string {
  return `wiki/${type === 'entity' ? 'entities' : `${type}s`}/${key}.md`;
}

/** One model turn writing one page. */
export function writeStep(type: 'source' | 'concept' | 'entity', key: string, spec: PageSpec = {}): ScriptStep {
  return { toolCalls: [{ name: 'write_file', arguments: { path: pagePath(type, key), content: pageText(type, key, spec) } }] };
}

/** A whole, well-behaved ingest of `raw/<key>.md`: its source page, then a final message. */
export function simpleIngest(key: string, spec: PageSpec = {}): ScriptStep[] {
  return [writeStep('source', key, spec), { text: `Ingested raw/${key}.md.` }];
}

/** Every file under `dir`, `/`-separated relative paths. */
export async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (relative: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(path.join(dir, relative), { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) await walk(child);
      else out.push(child);
    }
  };
  await walk('');
  return out.sort();
}

/** Markdown files under wiki/ whose frontmatter does not parse (should always be none). */
export async function unparseablePages(root: string): Promise<string[]> {
  const bad: string[] = [];
  for (const file of await listFiles(path.join(root, 'wiki'))) {
    if (!file.endsWith('.md')) continue;
    const relPath = `wiki/${file}`;
    const page = parsePage(relPath, await readFile(path.join(root, relPath), 'utf8'));
    if (page.parseError) bad.push(`${relPath}: ${page.parseError}`);
  }
  return bad;
}

/** Leftovers of an interrupted atomic write (`.name.pid.hex.tmp`) anywhere under wiki/. */
export async function tempFilesUnder(root: string): Promise<string[]> {
  return (await listFiles(path.join(root, 'wiki'))).filter((file) => /(^|\/)\..*\.tmp$/.test(file) || file.endsWith('.tmp'));
}

export async function readJson<T = Record<string, unknown>>(file: string): Promise<T> {
  return JSON.parse(await readFile(file, 'utf8')) as T;
}

/** Merge `patch` into wiki.config.json (as `wiki config set` would, without a process each). */
export async function patchConfig(root: string, patch: Record<string, unknown>): Promise<void> {
  const file = path.join(root, 'wiki.config.json');
  const config = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
  await writeFile(file, `${JSON.stringify({ ...config, ...patch }, null, 2)}\n`);
}

export async function manifestSources(root: string): Promise<string[]> {
  try {
    return Object.keys((await readSourceRecord(root)).sources);
  } catch {
    return [];
  }
}

/**
 * A page the model wrote, read back with its `updated` date as pageText writes it: the write
 * tools move `updated` to the day of the write (checked here to be a date), so a comparison
 * with what the model sent does not depend on the day the test runs.
 */
export async function readAsSent(root: string, relPath: string): Promise<string> {
  const text = await read(root, relPath);
  if (!/^updated: \d{4}-\d{2}-\d{2}$/m.test(text)) return text;
  return text.replace(/^updated: \d{4}-\d{2}-\d{2}$/m, 'updated: 2026-11-21');
}

export function read(root: string, relPath: string): Promise<string> {
  return readFile(path.join(root, relPath), 'utf8');
}

export { fakeServers } from '../helpers/use-fake-llm.js';

/** Which source an ingest request belongs to, from the run's first user message. */
export function sourceOf(request: RecordedRequest): string | undefined {
  return /Ingest the source `raw\/([a-z]+)\.md`/.exec(request.lastUserText ?? '')?.[1];
}
