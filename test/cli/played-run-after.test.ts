import { access, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixtureSources, PLAYED_RUN_AFTER, replayPlayedRun, sourceLineCount } from '../../scripts/measure/replay-run.js';
import { linesShown } from '../../scripts/measure/replay.js';

/**
 * The second played run (test/fixtures/played-run-after), recorded after numbered windows,
 * the context budget and frontmatter sync: an ingest with default settings, then
 * `wiki config set contextTokens 20000`, an ingest and a saved query. Replayed through the
 * built CLI; reads of a raw file follow the offsets the tool reports.
 */

/** The CLI's own estimate: about 4 bytes a token of JSON. */
const BYTES_PER_TOKEN = 4;
const SAVED_PAGE = 'wiki/concepts/go-workspace-version-selection-vs-let-else.md';

describe('the run played after the context budget, replayed', () => {
  it.each(['anthropic', 'openai'] as const)('completes, reads every source whole, has no write refused, keeps each request within the contextTokens its command ran under, and saves the query page (%s wire)', async (api) => {
    const outcome = await replayPlayedRun({ fixture: PLAYED_RUN_AFTER, api, keep: true });
    try {
      expect(outcome.commands.map((command) => command.recording)).toEqual(['ingest-1', 'ingest-2', 'query-1']);
      for (const command of outcome.commands) {
        expect(command.code, `${command.recording}: ${command.stderr.slice(-800)}`).toBe(0);
        expect(command.problems).toEqual([]);
        expect(command.settings.every((setting) => setting.applied)).toBe(true);
      }

      const bodies = outcome.commands.flatMap((command) => command.bodies);
      // One cached prefix for every command: a query after an ingest, and an ingest under a
      // different contextTokens, read the tools and system prompt from the cache.
      if (api === 'anthropic') expect(outcome.figures.cacheHitRatio).toBeGreaterThanOrEqual(0.8);
      for (const source of await fixtureSources(PLAYED_RUN_AFTER)) {
        expect(linesShown(bodies, source).size, `${source}: lines shown`).toBe(await sourceLineCount(PLAYED_RUN_AFTER, source));
      }

      // Every write, append and read the model asked for went through: no tool answered with an error.
      expect(outcome.commands.flatMap((command) => command.toolErrors)).toEqual([]);
      const sent = JSON.stringify(bodies);
      expect(sent).toContain('created wiki/sources/go-workspaces-proposal.md');
      expect(sent).toContain('created wiki/concepts/let-else.md');

      // The setting holds from the command that set it on, and each of its requests stays within it.
      expect(outcome.commands.map((command) => command.contextTokens)).toEqual([undefined, 20_000, 20_000]);
      for (const command of outcome.commands.filter((c) => c.contextTokens !== undefined)) {
        const limit = (command.contextTokens ?? 0) * BYTES_PER_TOKEN;
        for (const [index, body] of command.bodies.entries()) {
          expect(Buffer.byteLength(JSON.stringify(body)), `${command.recording} request ${index + 1}`).toBeLessThanOrEqual(limit);
          expect(Number(body.max_tokens ?? body.max_completion_tokens ?? 0)).toBeLessThanOrEqual(5_000);
        }
      }

      await access(path.join(outcome.root, SAVED_PAGE));
      expect(await readFile(path.join(outcome.root, SAVED_PAGE), 'utf8')).toContain('let-else has no ranking of alternatives at all, only match or diverge');
      expect(outcome.commands[2]?.stdout).toContain(SAVED_PAGE);
    } finally {
      await rm(outcome.root, { recursive: true, force: true });
    }
  }, 300_000);
});
