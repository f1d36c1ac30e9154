import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { cp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { addToken } from '../src/serve/tokens.js';
import { ensureWikiId } from '../src/serve/wiki-id.js';
import { packageRoot } from '../src/util/package-root.js';
import { benchPage } from './bench-store-writer.js';

/**
 * Three `wiki serve` processes, each on its own clone, on one database, and a writer process
 * (scripts/bench-store-writer.ts) adding pages with a tool's write: each replica's start
 * from the engine kept in the database, warm search_wiki through HTTP, and how long a new
 * page takes to be found by every replica's search_wiki — beside one `wiki serve` on the
 * file index. Every process is stopped whatever happens.
 */
const REPLICAS = 3;
const WARM_CALLS = 200;
const NEW_PAGES = 20;
/** A new page not found by every replica within this long fails the bench. */
const FOUND_WITHIN_MS = 60_000;
/** Between two searches of one replica looking for a new page. */
const POLL_MS = 10;

const ms = (value: number): string => `${value >= 100 ? value.toFixed(0) : value.toFixed(1)} ms`;
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const pause = (millis: number) => new Promise((resolve) => setTimeout(resolve, millis));

interface Replica {
  client: Client;
  /** Spawn to its first search_wiki answer. */
  startMs: number;
}

/** The processes the bench started: every one is stopped by `stopAll`, and on exit. */
class Children {
  private readonly running = new Set<ChildProcess>();
  private readonly killAll = () => {
    for (const child of this.running) child.kill('SIGKILL');
  };

  constructor() {
    process.once('exit', this.killAll);
  }

  spawn(args: string[], env: NodeJS.ProcessEnv): ChildProcess {
    const child = spawn(process.execPath, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    this.running.add(child);
    child.once('exit', () => this.running.delete(child));
    return child;
  }

  async stopAll(): Promise<void> {
    await Promise.all(
      [...this.running].map(async (child) => {
        const exited = once(child, 'exit');
        child.kill('SIGTERM');
        await Promise.race([exited, pause(10_000).then(() => child.kill('SIGKILL'))]);
      }),
    );
    process.removeListener('exit', this.killAll);
  }
}

/** A child's stdout, read once: each `next` resolves with the first match after what earlier ones took. */
function outputOf(child: ChildProcess, what: string): { next(pattern: RegExp): Promise<RegExpExecArray> } {
  let out = '';
  let err = '';
  let exited: string | undefined;
  const waiting: Array<{ pattern: RegExp; resolve: (m: RegExpExecArray) => void; reject: (e: Error) => void }> = [];
  const settle = () => {
    for (let i = 0; i < waiting.length; i++) {
      const found = waiting[i]!.pattern.exec(out);
      if (!found) continue;
      out = out.slice(found.index + found[0].length);
      waiting.splice(i--, 1)[0]!.resolve(found);
    }
  };
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
    settle();
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (err = (err + chunk).slice(-2000)));
  child.once('exit', (code) => {
    exited = `${what} exited (${code}): ${err.trim()}`;
    for (const wait of waiting.splice(0)) wait.reject(new Error(exited));
  });
  return {
    next: (pattern) =>
      new Promise((resolve, reject) => {
        if (exited) return reject(new Error(exited));
        waiting.push({ pattern, resolve, reject });
        settle();
      }),
  };
}

async function searchWiki(client: Client, query: string, limit = 10): Promise<Array<{ key: string }>> {
  const result = (await client.callTool({ name: 'search_wiki', arguments: { query, limit } })) as CallToolResult;
  const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
  if (result.isError) throw new Error(`search_wiki failed: ${text}`);
  return (JSON.parse(text) as { results: Array<{ key: string }> }).results;
}

/** A clone of `source` on the given store. */
async function cloneOn(source: string, target: string, store: 'postgres' | 'files'): Promise<string> {
  await cp(source, target, { recursive: true, filter: (file) => !file.includes(`${path.sep}.wiki${path.sep}search`) });
  const configFile = path.join(target, 'wiki.config.json');
  const config = JSON.parse(await readFile(configFile, 'utf8')) as Record<string, unknown>;
  await writeFile(configFile, JSON.stringify({ ...config, store: { kind: store } }, null, 2));
  return target;
}

async function startServe(children: Children, root: string, tokensFile: string, token: string, env: NodeJS.ProcessEnv, firstQuery: string): Promise<Replica> {
  const cli = path.join(packageRoot(), 'dist', 'bundle', 'wiki.js');
  const started = performance.now();
  const child = children.spawn([cli, '--root', root, 'serve', '--port', '0', '--tokens', tokensFile, '--rate-limit', '1000000/1'], env);
  const [, url] = await outputOf(child, `wiki serve on ${root}`).next(/^(http:\/\/\S+\/mcp)$/m);
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url!), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  await searchWiki(client, firstQuery);
  return { client, startMs: performance.now() - started };
}

async function warmMedian(client: Client, queries: readonly string[]): Promise<number> {
  for (let i = 0; i < 10; i++) await searchWiki(client, queries[i % queries.length] ?? 'query');
  const times: number[] = [];
  for (let i = 0; i < WARM_CALLS; i++) {
    const started = performance.now();
    await searchWiki(client, queries[i % queries.length] ?? 'query');
    times.push(performance.now() - started);
  }
  return median(times);
}

/** Search `client` for page `n`'s word until it is the top hit; the time since `since`. */
async function foundAfter(client: Client, n: number, since: number): Promise<number> {
  const page = benchPage(n);
  while (performance.now() - since < FOUND_WITHIN_MS) {
    if ((await searchWiki(client, page.word, 3))[0]?.key === page.key) return performance.now() - since;
    await pause(POLL_MS);
  }
  throw new Error(`a replica did not find ${page.key} within ${FOUND_WITHIN_MS / 1000} s`);
}

/**
 * The replicas' part of the store bench, on a database already filled from `writerRoot` and
 * holding its kept engine; `dir` holds the clones and the tokens file.
 */
export async function runServeReplicas(writerRoot: string, dir: string, queries: readonly string[], databaseUrl: string): Promise<string[]> {
  const children = new Children();
  const clients: Client[] = [];
  try {
    const tokensFile = path.join(dir, 'tokens', 'tokens.json');
    const { token } = await addToken(tokensFile, { name: 'bench', maxVisibility: 'internal', wiki: ensureWikiId(writerRoot) });
    const pgEnv = { ...process.env, WIKI_DATABASE_URL: databaseUrl };
    const filesEnv = { ...process.env };
    delete filesEnv.WIKI_DATABASE_URL;
    const replicas: Replica[] = [];
    for (let r = 0; r < REPLICAS; r++) {
      const root = await cloneOn(writerRoot, path.join(dir, `serve-${r}`), 'postgres');
      replicas.push(await startServe(children, root, tokensFile, token, pgEnv, queries[0] ?? 'query'));
      clients.push(replicas[r]!.client);
    }
    const pgWarm = await warmMedian(replicas[0]!.client, queries);
    const writer = children.spawn([path.join(packageRoot(), 'dist', 'scripts', 'bench-store-writer.js'), await cloneOn(writerRoot, path.join(dir, 'writer-process'), 'postgres')], pgEnv);
    const writerSays = outputOf(writer, 'the writer');
    await writerSays.next(/^ready$/m);
    const found: number[] = [];
    const written: number[] = [];
    for (let n = 0; n < NEW_PAGES; n++) {
      const since = performance.now();
      const wrote = writerSays.next(new RegExp(`^written ${n}$`, 'm')).then(() => written.push(performance.now() - since));
      writer.stdin!.write(`${n}\n`);
      const each = await Promise.all(replicas.map((replica) => foundAfter(replica.client, n, since)));
      await wrote;
      found.push(Math.max(...each));
    }
    for (const client of clients.splice(0)) await client.close();
    await children.stopAll();
    // One `wiki serve` on the file index, alone on the machine: it builds its own index.
    const filesRoot = await cloneOn(writerRoot, path.join(dir, 'serve-files'), 'files');
    const files = await startServe(children, filesRoot, tokensFile, token, filesEnv, queries[0] ?? 'query');
    clients.push(files.client);
    const filesWarm = await warmMedian(files.client, queries);
    return [
      `  ${REPLICAS} wiki serve processes on one database (own clones): start to first search_wiki answer, from the kept engine, ${replicas.map((r) => ms(r.startMs)).join(', ')}; one wiki serve on the file index (builds its own) ${ms(files.startMs)}`,
      `  warm search_wiki through HTTP, median of ${WARM_CALLS}: database replica ${ms(pgWarm)}; file index ${ms(filesWarm)}`,
      `  a page written by a writer process (a tool write), found by all ${REPLICAS} replicas' search_wiki: median ${ms(median(found))}, slowest ${ms(Math.max(...found))} over ${NEW_PAGES} pages (each replica searched every ${POLL_MS} ms; the write itself took median ${ms(median(written))})`,
    ];
  } finally {
    for (const client of clients) await client.close().catch(() => undefined);
    await children.stopAll();
  }
}
