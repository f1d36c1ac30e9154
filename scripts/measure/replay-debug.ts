import { replayPlayedRun } from './replay-run.js';
import { AnthropicCacheSimulator } from '../../test/helpers/anthropic-cache.js';
const cli = process.argv[2];
const outcome = await replayPlayedRun({ cli, contextTokens: process.argv[3] ? Number(process.argv[3]) : undefined });
const cache = new AnthropicCacheSimulator();
for (const c of outcome.commands) {
  console.log(c.recording, c.code, c.addedReads, c.problems, c.stderr.slice(0, 300));
  for (const body of c.bodies) {
    const t = cache.request(body);
    const msgs = body.messages as Array<{ content: unknown[] }>;
    console.log(`  in ${t.inputBytes} cached ${t.cachedBytes} written ${t.writtenBytes} bp ${t.breakpoints} msgs ${msgs.length} blocks ${msgs.reduce((s, m) => s + (Array.isArray(m.content) ? m.content.length : 1), 0)}`);
  }
}
if (process.env.DUMP) {
  const [cmd, req] = process.env.DUMP.split(':').map(Number);
  const body = outcome.commands[cmd ?? 0]!.bodies[req ?? 0]!;
  for (const m of body.messages as Array<{ role: string; content: Array<Record<string, unknown>> }>) {
    for (const b of m.content) console.log(m.role, b.type, JSON.stringify(b).length, JSON.stringify(b.type === 'tool_use' ? b.input : b.type === 'tool_result' ? b.content : b.text).slice(0, 300));
  }
}
