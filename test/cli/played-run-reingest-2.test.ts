import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PLAYED_RUN_REINGEST_2, replayPlayedRun } from '../../scripts/measure/replay-run.js';
import { runCli } from '../helpers/cli.js';

/**
 * Issue 39's played re-ingest (test/fixtures/played-run-reingest-2), replayed through the
 * built CLI on both wires: a source replaced by its authors' next revision is ingested again;
 * before the model runs, the citations whose lines only moved follow them, and only the
 * sentences citing changed lines are handed back, with where their new text is.
 */

describe.each(['anthropic', 'openai'] as const)('played-run-reingest-2, replayed (%s wire)', (api) => {
  it('moves 86 citations, hands back the 6 sentences whose cited lines changed, and leaves none stale after the played answers', async () => {
    const outcome = await replayPlayedRun({ fixture: PLAYED_RUN_REINGEST_2, api, keep: true });
    try {
      for (const command of outcome.commands) {
        expect(command.code, `${command.recording}: ${command.stderr.slice(-800)}`).toBe(0);
        expect(command.problems).toEqual([]);
      }
      const reingest = outcome.commands[2];
      const first = JSON.stringify(reingest?.bodies[0]);
      expect(first).toContain('Citations whose lines only moved were updated for you (86 moved)');
      expect(first).toContain('6 sentence(s) cite lines that CHANGED');
      expect(first).toMatch(/now lines \d+-\d+, read_file offset \d+/);
      // A re-ingest of a diffed source does not ask for the whole source again.
      expect(first).not.toContain('characters 0-');
      expect(reingest?.stdout).toContain('citations moved: 86 · stale claims: 0 (6 of 6 settled)');
      // The only refusals are the player's own: edits sent as a string.
      for (const refusal of reingest?.toolErrors ?? []) expect(refusal).toMatch(/edits: Invalid input: expected array, received string/);
      const lint = await runCli(['lint', '--no-llm', '--json'], { cwd: outcome.root });
      const findings = (JSON.parse(lint.stdout) as { findings: Array<{ rule: string; severity: string }> }).findings;
      expect(findings.filter((f) => f.severity === 'error')).toEqual([]);
      expect(findings.filter((f) => f.rule === 'stale-claim')).toEqual([]);
      const log = await readFile(path.join(outcome.root, 'wiki/log.md'), 'utf8');
      expect(log).toContain('citations moved: 86');
    } finally {
      await rm(outcome.root, { recursive: true, force: true });
    }
  }, 300_000);
});
