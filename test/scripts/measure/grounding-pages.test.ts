import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { alterClaim, GROUNDING_RULES_CHANGED, heldOutNote, playedWikis } from '../../../scripts/measure/grounding-pages.js';
import { tempDir } from '../../helpers/cli.js';

/** What `npm run eval -- --grounding` measures: every played wiki it finds, each marked held out or not by its own date. */
describe('the played wikis the grounding eval measures', () => {
  it('finds every played-wiki* folder with wiki/ and raw/, in natural order, and nothing else', async () => {
    const fixtures = await tempDir();
    for (const name of ['played-wiki', 'played-wiki-9', 'played-wiki-10', 'played-wiki-paper', 'played-run-3', 'played-wiki-empty']) {
      await mkdir(path.join(fixtures, name, 'wiki'), { recursive: true });
      if (name !== 'played-wiki-empty') await mkdir(path.join(fixtures, name, 'raw'), { recursive: true });
    }
    expect((await playedWikis(fixtures)).map((folder) => path.basename(folder))).toEqual(['played-wiki', 'played-wiki-9', 'played-wiki-10', 'played-wiki-paper']);
  });

  it('a wiki made after the last rule change is held out; one made before, undated or with no held-out.json is tuning material', async () => {
    const folder = await tempDir();
    const note = async (meta: unknown): Promise<string> => {
      await writeFile(path.join(folder, 'held-out.json'), JSON.stringify(meta));
      return heldOutNote(folder);
    };
    const after = new Date(Date.parse(GROUNDING_RULES_CHANGED) + 3_600_000).toISOString();
    expect(await note({ made: after, note: 'played by someone who never saw the rules' })).toBe(`${after} HELD OUT`);
    expect(await note({ made: '2026-01-01' })).toBe('2026-01-01 tuning');
    expect(await note({ made: 'last week' })).toBe('last week? (not a date)');
    expect(await note({ note: 'no date' })).toBe('tuning (no date)');
    expect(await heldOutNote(await tempDir())).toBe('tuning');
  });
});

describe('planted changes', () => {
  it('swaps a lower-case tool name (no English word) for another, in prose or in code, and never inside a word', () => {
    expect(alterClaim('Run mypy on the module before release.', 1, 'Run mypy on the module before release.', 'tool')).toBe('Run javac on the module before release.');
    expect(alterClaim('Run `mypy --strict` on the module.', 1, 'Run on the module.', 'tool', ['mypy --strict'])).toBe('Run `javac --strict` on the module.');
    expect(alterClaim("Non-blank lines doesn't matter here.", 1, "Non-blank lines doesn't matter here.", 'tool')).toBeUndefined();
  });

  it('swaps a capitalised name for "Hopper", and changes a number in prose, not in code', () => {
    expect(alterClaim('The design is by Russ Cox and others.', 1, 'The design is by Russ Cox and others.', 'name')).toBe('The design is by Hopper Cox and others.');
    expect(alterClaim('The loop `i < 10` ran 10 times.', 1, 'The loop ran 10 times.', 'number')).toBe('The loop `i < 10` ran 17 times.');
  });
});
