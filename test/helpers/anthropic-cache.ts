import { createHash } from 'node:crypto';

/**
 * Anthropic's prompt cache, simulated from recorded request bodies. The prefix is the
 * tools, then the system blocks, then each message's content blocks, in that order; a
 * block with `cache_control` is a breakpoint (at most four). A request reads the longest
 * prefix, ending at a breakpoint or up to 20 blocks before one, that an earlier request
 * wrote; each request writes the prefix at each of its breakpoints. Sizes are bytes of
 * the blocks' JSON (a stand-in for tokens).
 */
export interface CacheTurn {
  inputBytes: number;
  cachedBytes: number;
  /** Bytes written to the cache by this request: from the end of what it read up to its last breakpoint. */
  writtenBytes: number;
  breakpoints: number;
}

const LOOKBACK_BLOCKS = 20;

export class AnthropicCacheSimulator {
  readonly #written = new Set<string>();

  request(body: Record<string, unknown>): CacheTurn {
    const blocks = prefixBlocks(body);
    const hashes: string[] = [];
    const sizes: number[] = [];
    const hash = createHash('sha256');
    let total = 0;
    for (const block of blocks) {
      hash.update(block.key);
      hashes.push(hash.copy().digest('hex'));
      total += block.key.length;
      sizes.push(total);
    }
    const breakpoints = blocks.flatMap((block, index) => (block.breakpoint ? [index] : []));
    if (breakpoints.length > 4) throw new Error(`${breakpoints.length} cache breakpoints: the API allows at most 4`);
    let cachedBytes = 0;
    for (const at of breakpoints) {
      for (let index = at; index >= Math.max(0, at - LOOKBACK_BLOCKS); index -= 1) {
        if (this.#written.has(hashes[index] ?? '')) {
          cachedBytes = Math.max(cachedBytes, sizes[index] ?? 0);
          break;
        }
      }
    }
    for (const at of breakpoints) this.#written.add(hashes[at] ?? '');
    const lastBreakpoint = breakpoints.length > 0 ? (sizes[breakpoints[breakpoints.length - 1] ?? 0] ?? 0) : 0;
    return { inputBytes: total, cachedBytes, writtenBytes: Math.max(0, lastBreakpoint - cachedBytes), breakpoints: breakpoints.length };
  }

  /** Whether a prefix of this body up to and including its system blocks was written before. */
  hasSystemPrefix(body: Record<string, unknown>): boolean {
    const blocks = prefixBlocks(body);
    const systemEnd = blocks.findLastIndex((block) => block.part !== 'messages');
    const hash = createHash('sha256');
    blocks.slice(0, systemEnd + 1).forEach((block) => hash.update(block.key));
    return this.#written.has(hash.digest('hex'));
  }
}

/**
 * The most any prompt cache could serve: for each request, the longest prefix (in whole
 * blocks) that some earlier request also sent, whatever its breakpoints. Over a run it gives
 * the ceiling of the hit ratio: every byte the model had not been sent before is a miss
 * however the breakpoints are placed (a command's new source window, what the model read).
 */
export class PrefixCeiling {
  readonly #seen = new Set<string>();

  request(body: Record<string, unknown>): { inputBytes: number; seenBytes: number } {
    const hash = createHash('sha256');
    let total = 0;
    let seenBytes = 0;
    let matching = true;
    for (const block of prefixBlocks(body)) {
      hash.update(block.key);
      total += block.key.length;
      const key = hash.copy().digest('hex');
      if (matching && this.#seen.has(key)) seenBytes = total;
      else matching = false;
      this.#seen.add(key);
    }
    return { inputBytes: total, seenBytes };
  }
}

/** Cached bytes over input bytes across a sequence of requests. */
export function cacheHitRatio(turns: readonly CacheTurn[]): number {
  const input = turns.reduce((sum, turn) => sum + turn.inputBytes, 0);
  return input === 0 ? 0 : turns.reduce((sum, turn) => sum + turn.cachedBytes, 0) / input;
}

interface PrefixBlock {
  part: 'tools' | 'system' | 'messages';
  key: string;
  breakpoint: boolean;
}

function prefixBlocks(body: Record<string, unknown>): PrefixBlock[] {
  const blocks: PrefixBlock[] = [];
  const add = (part: PrefixBlock['part'], value: unknown, prefix = ''): void => {
    const { cache_control: control, ...rest } = (typeof value === 'object' && value !== null ? value : { text: value }) as Record<string, unknown>;
    blocks.push({ part, key: prefix + JSON.stringify(rest), breakpoint: control !== undefined });
  };
  for (const tool of (body.tools as unknown[] | undefined) ?? []) add('tools', tool);
  const system = body.system;
  if (typeof system === 'string') add('system', system);
  else for (const block of (system as unknown[] | undefined) ?? []) add('system', block);
  for (const message of (body.messages as Array<{ role: string; content: unknown }> | undefined) ?? []) {
    if (typeof message.content === 'string') add('messages', message.content, message.role);
    // An OpenAI body (the replay measures its bytes only) may carry null content beside tool_calls.
    else if (Array.isArray(message.content)) for (const block of message.content as unknown[]) add('messages', block, message.role);
  }
  return blocks;
}
