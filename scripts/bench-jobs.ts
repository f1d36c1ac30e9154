import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { timedNode, type TimedRun } from './measure/timed-node.js';
import { pathToFileURL } from 'node:url';
import { initWorkspace } from '../src/operations/workspace/init.js';
import { packageRoot } from '../src/util/package-root.js';

/**
 * `wiki ingest raw/ --jobs N` against a scripted model on 127.0.0.1 that answers every
 * call after 300 ms (the Anthropic wire format, as JSON): 24 small sources, each a run of
 * six or seven calls — its own concept page, a read and an update of one concept page all
 * 24 share (a stale write is refused with the current page and merged), its source page,
 * a last word. Wall time with --jobs 4 against --jobs 1 in the same run, then
 * `wiki lint --no-llm` and a check that every page either job wrote is intact.
 */

const SOURCES = 24;
const ANSWER_MS = 300;
const SHARED = 'wiki/concepts/shared-topic.md';
const WORDS = ['quartz', 'meadow', 'falcon', 'ember', 'harbor', 'violin', 'glacier', 'saffron', 'tundra', 'orchid', 'beacon', 'lantern', 'cobalt', 'willow', 'prairie', 'canyon', 'marble', 'thistle', 'zephyr', 'juniper', 'pebble', 'summit', 'raven', 'citrus'];

interface AnthropicBody {
  messages: Array<{ role: string; content: string | Array<{ type: string; text?: string; content?: unknown; tool_use_id?: string }> }>;
}

function page(title: string, summary: string, extra: string[], body: string): string {
  return ['---', `title: ${title}`, `summary: ${summary}`, ...extra, 'created: 2026-11-23', 'updated: 2026-11-23', '---', '', body, ''].join('\n');
}

function sharedLine(word: string): string {
  return `- ${word}: the ${word} source adds its part, see [[${word}-theory]].`;
}

/** The shared page with this source's line added and the source listed. */
function withContribution(current: string, word: string): string {
  const listed = current.replace(/^sources: \[(.*)\]$/m, (_, list: string) => `sources: [${list ? `${list}, ` : ''}raw/${word}.md]`);
  return `${listed.trimEnd()}\n${sharedLine(word)}\n`;
}

/** The model's next step for one source's conversation, from what the tools answered so far. */
function nextStep(body: AnthropicBody): { tool?: { name: string; input: Record<string, unknown> }; text?: string } {
  const first = body.messages[0];
  const firstText = typeof first?.content === 'string' ? first.content : (first?.content ?? []).map((b) => b.text ?? '').join('');
  const word = /Ingest the source `raw\/([a-z]+)\.md`/.exec(firstText)?.[1] ?? 'unknown';
  const results = body.messages.flatMap((m) => (typeof m.content === 'string' ? [] : m.content.filter((b) => b.type === 'tool_result')));
  const lastResult = results.at(-1);
  const last = typeof lastResult?.content === 'string' ? lastResult.content : JSON.stringify(lastResult?.content ?? '');
  const turn = results.length;
  const theory = `wiki/concepts/${word}-theory.md`;
  if (turn === 0) return { tool: { name: 'write_file', input: { path: theory, content: page(`Theory of ${word}`, `What the ${word} source argues.`, [`sources: [raw/${word}.md]`], `The ${word} source argues one thing well.`) } } };
  if (turn === 1) return { tool: { name: 'read_file', input: { path: SHARED } } };
  const merged = /<current-page path="[^"]+">\n([\s\S]*)<\/current-page>/.exec(last)?.[1];
  if (merged !== undefined) return { tool: { name: 'write_file', input: { path: SHARED, content: withContribution(merged, word) } } };
  if (turn === 2) {
    const current = last.includes('does not exist') || last.includes('not found') ? undefined : last.slice(last.indexOf('\n') + 1);
    const base = current ?? page('Shared topic', 'What every source says about the shared topic.', ['sources: []'], 'Contributions:');
    return { tool: { name: 'write_file', input: { path: SHARED, content: withContribution(base, word) } } };
  }
  if (last.includes(`${SHARED}`) && !last.startsWith('rejected') && !results.some((r) => JSON.stringify(r.content ?? '').includes(`wiki/sources/${word}.md`))) {
    return { tool: { name: 'write_file', input: { path: `wiki/sources/${word}.md`, content: page(`The ${word} paper`, `Summary of raw/${word}.md.`, [`sources: [raw/${word}.md]`, `refs: [${word}-theory, shared-topic]`], `See [[${word}-theory]] and [[shared-topic]].`) } } };
  }
  return { text: `Ingested raw/${word}.md.` };
}

async function startModel(): Promise<{ url: string; calls: () => number; close: () => Promise<void> }> {
  let calls = 0;
  const server = http.createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8').on('data', (d: string) => (raw += d));
    req.on('end', () => {
      calls += 1;
      const step = nextStep(JSON.parse(raw) as AnthropicBody);
      const content = step.tool ? [{ type: 'tool_use', id: `toolu_${calls}`, name: step.tool.name, input: step.tool.input }] : [{ type: 'text', text: step.text ?? '' }];
      const message = { id: `msg_${calls}`, type: 'message', role: 'assistant', model: 'bench-model', content, stop_reason: step.tool ? 'tool_use' : 'end_turn', stop_sequence: null, usage: { input_tokens: 1000, output_tokens: 100, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 } };
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(message));
      }, ANSWER_MS);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, calls: () => calls, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

function runWiki(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<TimedRun> {
  return timedNode([path.join(packageRoot(), 'dist/bundle/wiki.js'), ...args], { cwd, env });
}

export interface JobsBenchRow {
  jobs: number;
  wallMs: number;
  calls: number;
  lintErrors: number;
  intact: boolean;
  problems: string[];
}

async function ingestWith(jobs: number): Promise<JobsBenchRow> {
  const root = await mkdtemp(path.join(os.tmpdir(), `wiki-jobs-bench-${jobs}-`));
  const model = await startModel();
  try {
    await initWorkspace(root);
    const config = JSON.parse(await readFile(path.join(root, 'wiki.config.json'), 'utf8')) as Record<string, unknown>;
    await writeFile(path.join(root, 'wiki.config.json'), JSON.stringify({ ...config, stream: false, search: { embedder: { kind: 'none' } } }));
    for (const word of WORDS.slice(0, SOURCES)) await writeFile(path.join(root, `raw/${word}.md`), `# ${word}\n\nA short paper about ${word}.\n`);
    const env = { PATH: process.env.PATH, HOME: root, ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'bench-key', NO_COLOR: '1' };
    const ingest = await runWiki(['ingest', 'raw/', '--jobs', String(jobs), '--json'], root, env);
    const problems: string[] = [];
    if (ingest.code !== 0) problems.push(`ingest exited ${ingest.code}: ${ingest.stderr.trim().split('\n').at(-1) ?? ''}`);
    if (process.env.BENCH_DEBUG) await writeFile(process.env.BENCH_DEBUG, ingest.stdout);
    const lint = await runWiki(['lint', '--no-llm', '--json'], root, env);
    const findings = (JSON.parse(lint.stdout) as { findings: Array<{ severity: string; message: string }> }).findings.filter((f) => f.severity === 'error');
    let intact = true;
    const shared = await readFile(path.join(root, SHARED), 'utf8').catch(() => '');
    for (const word of WORDS.slice(0, SOURCES)) {
      const theory = await readFile(path.join(root, `wiki/concepts/${word}-theory.md`), 'utf8').catch(() => '');
      const source = await readFile(path.join(root, `wiki/sources/${word}.md`), 'utf8').catch(() => '');
      if (!shared.includes(sharedLine(word))) problems.push(`${SHARED} lost the ${word} contribution`);
      if (!theory.includes(`The ${word} source argues one thing well.`)) problems.push(`${word}-theory is not intact`);
      if (!source.includes(`See [[${word}-theory]] and [[shared-topic]].`)) problems.push(`sources/${word} is not intact`);
    }
    if (problems.length > 0) intact = false;
    return { jobs, wallMs: ingest.ms, calls: model.calls(), lintErrors: findings.length, intact, problems: [...problems, ...findings.slice(0, 3).map((f) => f.message)] };
  } finally {
    await model.close();
    await rm(root, { recursive: true, force: true });
  }
}

export async function runJobsBench(jobCounts: number[] = [1, 4]): Promise<JobsBenchRow[]> {
  console.log(`ingest bench: ${SOURCES} sources, scripted model answering after ${ANSWER_MS} ms, one shared concept page`);
  const rows: JobsBenchRow[] = [];
  for (const jobs of jobCounts) {
    const row = await ingestWith(jobs);
    rows.push(row);
    const ratio = rows[0] && rows[0] !== row ? `  ${(row.wallMs / rows[0].wallMs).toFixed(2)}× of --jobs ${rows[0].jobs}${jobs === 4 ? ' (target ≤ 0.35×)' : ''}` : '';
    console.log(`  --jobs ${jobs}: ${(row.wallMs / 1000).toFixed(1)} s, ${row.calls} model calls, lint errors ${row.lintErrors}, pages intact: ${row.intact ? 'yes' : 'NO'}${ratio}`);
    for (const problem of row.problems.slice(0, 5)) console.log(`    ! ${problem}`);
  }
  return rows;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const counts = process.argv[2]?.split(',').map(Number).filter((n) => n > 0);
  await runJobsBench(counts && counts.length > 0 ? counts : undefined);
}
