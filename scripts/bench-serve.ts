import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { initWorkspace } from '../src/operations/workspace/init.js';
import { addToken } from '../src/serve/tokens.js';
import { ensureWikiId } from '../src/serve/wiki-id.js';
import { packageRoot } from '../src/util/package-root.js';
import { syntheticWiki, writeSyntheticWiki } from './measure/synthetic.js';
import { timedNode } from './measure/timed-node.js';

/**
 * `wiki serve` beside a fresh `wiki search` (`npm run bench -- --only serve`): on a synthetic
 * wiki, the latency of search_wiki through the server as an MCP client sees it (the SDK's
 * own Streamable HTTP client: HTTP, JSON-RPC, the per-call MCP server, the tool), warm
 * (after its first search), median and p95; beside `wiki search` as a fresh process.
 */
const FRESH_RUNS = 7;
const WARM_CALLS = 200;

const ms = (value: number): string => `${value >= 100 ? value.toFixed(0) : value.toFixed(1)} ms`;

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

export async function runServeBench(sizes = [10000]): Promise<void> {
  const cli = path.join(packageRoot(), 'dist', 'bundle', 'wiki.js');
  for (const size of sizes) {
    const dir = await mkdtemp(path.join(os.tmpdir(), `wiki-bench-serve-${size}-`));
    const root = path.join(dir, 'wiki');
    const tokensFile = path.join(dir, 'tokens', 'tokens.json');
    try {
      const wiki = syntheticWiki(size);
      await initWorkspace(root);
      await writeSyntheticWiki(root, wiki);
      // Let every file's mtime age past the window in which an unchanged stat is doubted.
      await new Promise((resolve) => setTimeout(resolve, 2500));
      const first = await timedNode([cli, '--root', root, 'search', 'query', '--json']);
      if (first.code !== 0) throw new Error(`wiki search failed: ${first.stderr.trim()}`);
      const fresh: number[] = [];
      for (let i = 0; i < FRESH_RUNS; i++) {
        const run = await timedNode([cli, '--root', root, 'search', wiki.queries[i] ?? 'query', '--json']);
        if (run.code !== 0) throw new Error(`wiki search failed: ${run.stderr.trim()}`);
        fresh.push(run.ms);
      }
      const { token } = await addToken(tokensFile, { name: 'bench', maxVisibility: 'internal', wiki: ensureWikiId(root) });
      const server = spawn(process.execPath, [cli, '--root', root, 'serve', '--port', '0', '--tokens', tokensFile, '--rate-limit', '1000000/1'], { stdio: ['ignore', 'pipe', 'pipe'] });
      // Its call log: how long each call took inside the server (ms=…), the client's own cost apart.
      let callLog = '';
      server.stderr.setEncoding('utf8').on('data', (chunk: string) => (callLog += chunk));
      try {
        const url = await new Promise<string>((resolve, reject) => {
          let out = '';
          server.stdout.setEncoding('utf8').on('data', (chunk: string) => {
            out += chunk;
            const found = /^(http:\/\/\S+\/mcp)$/m.exec(out)?.[1];
            if (found) resolve(found);
          });
          server.once('exit', (code) => reject(new Error(`wiki serve exited (${code})`)));
        });
        const client = new Client({ name: 'bench', version: '1.0.0' });
        await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
        const search = async (query: string): Promise<number> => {
          const started = performance.now();
          await client.callTool({ name: 'search_wiki', arguments: { query } });
          return performance.now() - started;
        };
        const firstCall = await search(wiki.queries[0] ?? 'query');
        for (let i = 0; i < 10; i++) await search(wiki.queries[i % wiki.queries.length] ?? 'query');
        const warm: number[] = [];
        for (let i = 0; i < WARM_CALLS; i++) warm.push(await search(wiki.queries[i % wiki.queries.length] ?? 'query'));
        // The same round trip with a tool that does almost nothing: what HTTP, JSON-RPC and the per-call server cost.
        const trip: number[] = [];
        for (let i = 0; i < WARM_CALLS; i++) {
          const started = performance.now();
          await client.callTool({ name: 'read_page', arguments: { key: 'no-such-page' } });
          trip.push(performance.now() - started);
        }
        await client.close();
        const inServer = [...callLog.matchAll(/call=search_wiki status=200 bytes=\d+ ms=(\d+)$/gm)].map((m) => Number(m[1])).slice(-WARM_CALLS);
        console.log(`${size} pages`);
        console.log(`  wiki serve, search_wiki through the SDK's HTTP client, warm (${WARM_CALLS} calls): median ${ms(quantile(warm, 0.5))}, p95 ${ms(quantile(warm, 0.95))}; first call after start ${ms(firstCall)}`);
        console.log(`  the same calls as the server logged them (request in to answer out): median ${ms(quantile(inServer, 0.5))}, p95 ${ms(quantile(inServer, 0.95))}`);
        console.log(`  of which the round trip alone (read_page of a missing key, ${WARM_CALLS} calls): median ${ms(quantile(trip, 0.5))}, p95 ${ms(quantile(trip, 0.95))}`);
        console.log(`  wiki search, fresh process (median of ${FRESH_RUNS}): ${ms(quantile(fresh, 0.5))}`);
      } finally {
        server.kill('SIGTERM');
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
}
