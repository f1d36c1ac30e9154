import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FakeToolCall, FakeTurn } from '../../test/helpers/fake-llm-wire.js';
import type { RecordedRequest } from '../../test/helpers/fake-llm-record.js';
import { AnthropicCacheSimulator, PrefixCeiling } from '../../test/helpers/anthropic-cache.js';

/**
 * A model run played by hand through the relay endpoint (DIR/req-N.json, DIR/ans-N.txt),
 * replayed against the CLI through the scripted model server: turn N answers with the N-th
 * recorded answer. A read of a raw file follows the offset the tool last reported, so a
 * change in how windows are cut still reads the whole source; if the recording ends while
 * the tool still reports a next offset, the replay reads on before the final answer.
 */

export interface RecordedAnswer {
  /** What the model said beside its calls, or its final answer. */
  text: string;
  calls: Array<{ name: string; arguments: Record<string, unknown> }>;
}

/** The relay's plain-text answer form: `=== say`, `=== call NAME` (key: value, key:= json, --- key + lines), `=== text`. */
export function parseAnswer(source: string): RecordedAnswer {
  const blocks = source.split(/^=== /m).filter((block) => block.trim() !== '');
  const calls: RecordedAnswer['calls'] = [];
  let say = '';
  let final: string | undefined;
  for (const block of blocks) {
    const newline = block.indexOf('\n');
    const head = (newline < 0 ? block : block.slice(0, newline)).trim();
    const rest = newline < 0 ? '' : block.slice(newline + 1);
    if (head === 'say') {
      say = rest.trim();
      continue;
    }
    if (head === 'text') {
      final = rest.replace(/\s+$/, '');
      continue;
    }
    const name = /^call\s+(\S+)$/.exec(head)?.[1];
    if (name === undefined) throw new Error(`unknown answer block "=== ${head}"`);
    const args: Record<string, unknown> = {};
    const parts = rest.split(/^--- /m);
    for (const line of (parts[0] ?? '').split('\n')) {
      if (line.trim() === '') continue;
      const json = /^([A-Za-z_]\w*):=\s?(.*)$/.exec(line);
      if (json) {
        args[json[1] as string] = JSON.parse(json[2] as string) as unknown;
        continue;
      }
      const plain = /^([A-Za-z_]\w*):\s?(.*)$/.exec(line);
      if (!plain) throw new Error(`cannot read argument line: ${line}`);
      args[plain[1] as string] = plain[2];
    }
    for (const part of parts.slice(1)) {
      const at = part.indexOf('\n');
      const key = (at < 0 ? part : part.slice(0, at)).trim();
      args[key] = `${(at < 0 ? '' : part.slice(at + 1)).replace(/\n+$/, '')}\n`;
    }
    calls.push({ name, arguments: args });
  }
  if (calls.length > 0 && final !== undefined) throw new Error('an answer has either calls or a final text, not both');
  if (calls.length === 0 && final === undefined) throw new Error('empty answer');
  return { text: calls.length > 0 ? say : (final ?? ''), calls };
}

/** The answers of one recorded run, in turn order (ans-1.txt, ans-2.txt, …). */
export async function loadAnswers(dir: string): Promise<RecordedAnswer[]> {
  const names = (await readdir(dir)).filter((name) => /^ans-\d+\.txt$/.test(name));
  names.sort((a, b) => turnOf(a) - turnOf(b));
  names.forEach((name, index) => {
    if (turnOf(name) !== index + 1) throw new Error(`${dir}: ${name} found where ans-${index + 1}.txt was expected`);
  });
  return Promise.all(names.map(async (name) => parseAnswer(await readFile(path.join(dir, name), 'utf8'))));
}

function turnOf(name: string): number {
  return Number(/(\d+)/.exec(name)?.[1]);
}

/** `[raw/x.md: … ; next offset: N …]` or `… end of file …`: what read_file reported last for a raw file. */
const READ_HEADER = /\[(raw\/[^:\]\n]+): [^\]\n]*?(?:next offset:? (\d+)|(end of file))/g;

export function reportedOffsets(text: string, into: Map<string, number | 'end'>): void {
  for (const match of text.matchAll(READ_HEADER)) {
    into.set(match[1] as string, match[3] !== undefined ? 'end' : Number(match[2]));
  }
}

export interface Replay {
  script: (request: RecordedRequest) => FakeTurn;
  /** Reads the replay added because the recording stopped before the tool reported the end of a file. */
  addedReads: () => number;
}

const MAX_ADDED_READS = 20;

/** The scripted-model function that replays `answers`. */
export function replayScript(answers: readonly RecordedAnswer[]): Replay {
  const reported = new Map<string, number | 'end'>();
  let cursor = 0;
  let added = 0;
  let ids = 0;
  const script = (request: RecordedRequest): FakeTurn => {
    if (request.index === 0 || request.toolResults.length === 0) reportedOffsets(request.lastUserText ?? '', reported);
    for (const result of request.toolResults) reportedOffsets(result.content.slice(0, 400), reported);
    const answer = answers[cursor];
    const unread = [...reported].find(([, next]) => next !== 'end');
    if ((answer === undefined || answer.calls.length === 0) && unread !== undefined && added < MAX_ADDED_READS) {
      added += 1;
      return { toolCalls: [{ id: `toolu_replay_${(ids += 1)}`, name: 'read_file', arguments: { path: unread[0], offset: unread[1] } }] };
    }
    if (answer === undefined) return { text: 'The recording has no more answers.' };
    cursor += 1;
    const toolCalls: FakeToolCall[] = answer.calls.map((call) => ({ id: `toolu_replay_${(ids += 1)}`, name: call.name, arguments: followOffset(call, reported) }));
    return toolCalls.length > 0 ? { text: answer.text, toolCalls } : { text: answer.text };
  };
  return { script, addedReads: () => added };
}

function followOffset(call: RecordedAnswer['calls'][number], reported: Map<string, number | 'end'>): Record<string, unknown> {
  const target = call.arguments['path'];
  if (call.name !== 'read_file' || typeof target !== 'string') return call.arguments;
  const next = reported.get(target.replace(/^\.\//, ''));
  if (typeof next !== 'number' || call.arguments['offset'] === undefined) return call.arguments;
  return { ...call.arguments, offset: next };
}

export interface ReplayFigures {
  requests: number;
  totalBytes: number;
  largestBytes: number;
  /** Simulated Anthropic prompt cache: cached bytes over input bytes. */
  cacheHitRatio: number;
  /** Input bytes priced as Anthropic bills tokens: cache reads 0.1×, cache writes 1.25×, the rest 1×. */
  cacheWeightedBytes: number;
  /**
   * The hit ratio of the requests after the first of each command: the first carries the
   * run's new context and source window, which no cache can hold yet.
   */
  laterTurnsHitRatio: number;
  /**
   * The hit ratio no breakpoint placement can beat: bytes of each request that an earlier
   * request had already sent (as a prefix), over input bytes.
   */
  cacheCeilingRatio: number;
}

/**
 * The figures of a sequence of Anthropic request bodies (one simulated cache across them);
 * `firsts` are the indexes of the bodies that open a command.
 */
export function replayFigures(bodies: ReadonlyArray<Record<string, unknown>>, firsts: ReadonlySet<number> = new Set([0])): ReplayFigures {
  const cache = new AnthropicCacheSimulator();
  const ceiling = new PrefixCeiling();
  let seen = 0;
  let totalBytes = 0;
  let largestBytes = 0;
  let input = 0;
  let cached = 0;
  let weighted = 0;
  let laterInput = 0;
  let laterCached = 0;
  for (const [index, body] of bodies.entries()) {
    const bytes = Buffer.byteLength(JSON.stringify(body));
    totalBytes += bytes;
    largestBytes = Math.max(largestBytes, bytes);
    const turn = cache.request(body);
    seen += ceiling.request(body).seenBytes;
    input += turn.inputBytes;
    cached += turn.cachedBytes;
    weighted += turn.cachedBytes * 0.1 + turn.writtenBytes * 1.25 + (turn.inputBytes - turn.cachedBytes - turn.writtenBytes);
    if (!firsts.has(index)) {
      laterInput += turn.inputBytes;
      laterCached += turn.cachedBytes;
    }
  }
  return {
    requests: bodies.length,
    totalBytes,
    largestBytes,
    cacheHitRatio: input === 0 ? 0 : cached / input,
    cacheWeightedBytes: Math.round(weighted),
    laterTurnsHitRatio: laterInput === 0 ? 0 : laterCached / laterInput,
    cacheCeilingRatio: input === 0 ? 0 : seen / input,
  };
}

/** The line numbers of `source` the model was shown in `bodies` (read_file's numbered `<source-text>` windows). */
export function linesShown(bodies: ReadonlyArray<Record<string, unknown>>, source: string): Set<number> {
  const shown = new Set<number>();
  const open = `<source-text path="${source}">`;
  for (const piece of bodies.flatMap(strings)) {
    for (let at = piece.indexOf(open); at >= 0; at = piece.indexOf(open, at + 1)) {
      const block = piece.slice(at, piece.indexOf('</source-text>', at));
      for (const match of block.matchAll(/^(\d+)\u2502/gm)) shown.add(Number(match[1]));
    }
  }
  return shown;
}

function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(strings);
  return [];
}
