import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixtureSources, PLAYED_RUN_15, replayPlayedRun, sourceLineCount } from '../../scripts/measure/replay-run.js';
import { linesShown } from '../../scripts/measure/replay.js';

/**
 * Issue 38's played run (test/fixtures/played-run-15), replayed through the built CLI on both
 * wire formats: three ingests whose later ones update the first's pages with write_file edits
 * and appends (never a whole rewrite), a comparison query whose evidence carries line
 * citations, and a read-only lint review answering the check's questions.
 */

describe.each(['anthropic', 'openai'] as const)('played-run-15, replayed (%s wire)', (api) => {
  it('every command exits 0; updates are edits and appends; the saved comparison cites source lines', async () => {
    const outcome = await replayPlayedRun({ fixture: PLAYED_RUN_15, api, keep: true });
    try {
      expect(outcome.commands.map((command) => command.recording)).toEqual(['ingest-1', 'ingest-2', 'ingest-3', 'query-1', 'lint-1']);
      for (const command of outcome.commands) {
        expect(command.code, `${command.recording}: ${command.stderr.slice(-800)}`).toBe(0);
        expect(command.problems).toEqual([]);
      }
      const bodies = outcome.commands.flatMap((command) => command.bodies);
      for (const source of await fixtureSources(PLAYED_RUN_15)) {
        expect(linesShown(bodies, source).size, `${source}: lines shown`).toBe(await sourceLineCount(PLAYED_RUN_15, source));
      }
      // As played, ingest-2's edits linking the source page to two pages its answer had just created
      // were refused ("create the page"); they now land at once, and the same edits sent again the next
      // turn change nothing. The one refusal left is the player's own: edits sent as a string.
      const refusals = outcome.commands.flatMap((command) => command.toolErrors);
      expect(refusals).toEqual([expect.stringMatching(/^(Error: )?invalid arguments for write_file: edits: Invalid input: expected array, received string/)]);
      // The model's calls as each wire carries them (OpenAI's arguments are a JSON string inside the JSON).
      const calls = bodies.flatMap((body) => JSON.stringify(body).match(/edits\\*"\s*:\s*\[/g) ?? []);
      expect(calls.length).toBeGreaterThan(0);
      const saved = await readFile(path.join(outcome.root, 'wiki/concepts/storage-api-partitioning-and-quota.md'), 'utf8');
      expect(saved).toContain('## Evidence');
      expect(saved).toMatch(/<!-- from: raw\/storage-buckets\.md#L\d+/);
      expect(saved).toMatch(/<!-- from: raw\/shared-storage\.md#L\d+/);
      expect(saved).toMatch(/<!-- from: raw\/file-system-access\.md#L\d+/);
    } finally {
      await rm(outcome.root, { recursive: true, force: true });
    }
  }, 300_000);
});
