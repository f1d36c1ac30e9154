import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import type { ScriptStep } from '../helpers/fake-llm-server.js';
import { fakeServers, freshWorkspace, manifestSources, pageText, read, unparseablePages, writeStep } from './cron-fixtures.js';

/**
 * A whole day of a cron-run wiki with a model that misbehaves on purpose, through the built
 * CLI and both wire formats. After every operation the promises hold: no lint error, every
 * line the owner wrote still there, one tool-written log entry per operation that changed
 * the wiki, and an ingest that did not do its job retried by the next run.
 */
const serve = fakeServers();

const write = (p: string, content: string): ScriptStep => ({ toolCalls: [{ name: 'write_file', arguments: { path: p, content } }] });
const append = (p: string, content: string): ScriptStep => ({ toolCalls: [{ name: 'append_to_file', arguments: { path: p, content } }] });

const OWNER_LINE = 'OWNER: measured on our own cluster, keep this paragraph.';
const ALPHA = '# Alpha\n\nAttention weighs every token against every other.\nIt scales with the square of the length.\nThe paper reports 28.4 BLEU.\n';
const BETA = '# Beta\n\nLinear attention approximates the softmax kernel.\nIt scales linearly.\n';

async function lintErrors(root: string): Promise<Array<{ rule: string; path: string; message: string }>> {
  const lint = await runCli(['lint', '--no-llm', '--json'], { cwd: root });
  const report = JSON.parse(lint.stdout) as { findings: Array<{ rule: string; path: string; message: string; severity: string }> };
  return report.findings.filter((f) => f.severity === 'error');
}

function logEntries(log: string): Array<{ heading: string; run: string | undefined }> {
  const lines = log.split('\n');
  return lines.flatMap((line, i) => (/^## \[\d{4}-\d\d-\d\d\] /.test(line) ? [{ heading: line, run: /^- run: (\S+)/.exec(lines[i + 1] ?? '')?.[1] }] : []));
}

describe.each(['anthropic', 'openai'] as const)('a day with an adversarial model (%s wire format)', (wire) => {
  it('keeps every promise after every operation', async () => {
    const root = await freshWorkspace();
    await writeFile(path.join(root, 'raw/alpha.md'), ALPHA);
    await writeFile(path.join(root, 'raw/beta.md'), BETA);
    const initialEntries = logEntries(await read(root, 'wiki/log.md')).length;
    let operations = 0;
    const check = async (label: string): Promise<void> => {
      expect(await lintErrors(root), label).toEqual([]);
      expect(await unparseablePages(root), label).toEqual([]);
      const entries = logEntries(await read(root, 'wiki/log.md'));
      expect(entries.length - initialEntries, `${label}: one log entry per operation`).toBe(operations);
      expect(entries.slice(initialEntries).every((entry) => entry.run !== undefined), `${label}: every entry names its run`).toBe(true);
      expect(new Set(entries.slice(initialEntries).map((entry) => entry.run)).size, label).toBe(operations);
    };

    // 1. Ingest alpha: broken links, broken YAML, a page outside the type folders, a forged log
    //    entry, a rewritten index, a self-set stale mark, a page without sources, then the job.
    const attention = pageText('concept', 'attention', { sources: ['raw/alpha.md'], body: 'Attention weighs tokens. <!-- from: raw/alpha.md#L3-4 -->' });
    const first = await serve([
      write('wiki/concepts/attention.md', pageText('concept', 'attention', { sources: ['raw/alpha.md'], body: 'See [[no-such-page]].' })),
      write('wiki/concepts/attention.md', '---\ntitle: [unclosed\nsummary: x\n---\nBody.\n'),
      write('wiki/notes.md', pageText('concept', 'notes', { sources: ['raw/alpha.md'] })),
      append('wiki/log.md', '## [2026-11-23] ingest | Forged entry\n- run: 2026-11-23T00-00-00-000Z-ingest-0000\n'),
      write('wiki/index.md', '# Index\n\nNothing here.\n'),
      write('wiki/concepts/attention.md', pageText('concept', 'attention', { sources: ['raw/alpha.md'] }).replace('created:', 'stale_since: 2026-11-01\ncreated:')),
      write('wiki/concepts/orphan-claims.md', pageText('concept', 'orphan-claims')),
      write('wiki/concepts/attention.md', attention),
      writeStep('source', 'alpha', { refs: ['attention'], body: 'Notes on [[attention]]. <!-- from: raw/alpha.md#L1-5 -->' }),
      { text: 'Ingested alpha.' },
    ]);
    const ingest1 = await runCli(['ingest', 'raw/alpha.md', '--json'], { cwd: root, env: first.env(wire) });
    expect(ingest1.code, ingest1.stdout + ingest1.stderr).toBe(0);
    const outcome1 = JSON.parse(ingest1.stdout).ingested[0] as { status: string; rejectedWrites: Array<{ path: string; reason: string }> };
    expect(outcome1.status).toBe('done');
    expect(outcome1.rejectedWrites.map((r) => r.path)).toEqual([
      'wiki/concepts/attention.md',
      'wiki/concepts/attention.md',
      'wiki/notes.md',
      'wiki/log.md',
      'wiki/index.md',
      'wiki/concepts/attention.md',
      'wiki/concepts/orphan-claims.md',
    ]);
    expect(await read(root, 'wiki/log.md')).not.toContain('Forged entry');
    operations++;
    await check('after the first ingest');

    // The owner edits the concept page by hand.
    const edited = (await read(root, 'wiki/concepts/attention.md')).replace('Attention weighs tokens.', `Attention weighs tokens.\n\n${OWNER_LINE}\n`);
    await writeFile(path.join(root, 'wiki/concepts/attention.md'), edited);

    // 2. Ingest beta: overwrite the hand-edited page, a near-duplicate, dropped sources, and the
    //    turn cap before any source page: incomplete, exit 1, beta stays pending.
    const second = await serve([
      write('wiki/concepts/attention.md', pageText('concept', 'attention', { sources: ['raw/alpha.md', 'raw/beta.md'], body: 'Rewritten from beta.' })),
      write('wiki/concepts/attentions.md', pageText('concept', 'attentions', { sources: ['raw/beta.md'] })),
      write('wiki/sources/alpha.md', pageText('source', 'alpha', { sources: ['raw/beta.md'] })),
      { text: 'still working' },
    ]);
    const ingest2 = await runCli(['ingest', 'raw/beta.md', '--json', '--max-turns', '3'], { cwd: root, env: second.env(wire) });
    expect(ingest2.code).toBe(1);
    const outcome2 = JSON.parse(ingest2.stdout).ingested[0] as { status: string; rejectedWrites: Array<{ reason: string }> };
    expect(outcome2.rejectedWrites.map((r) => r.reason)).toEqual([
      expect.stringContaining(OWNER_LINE),
      expect.stringMatching(/near-duplicate.*update the existing page wiki\/concepts\/attention\.md/),
      expect.stringMatching(/dropped-source.*raw\/alpha\.md/),
    ]);
    expect(await read(root, 'wiki/concepts/attention.md')).toContain(OWNER_LINE);
    expect(await manifestSources(root)).toEqual(['raw/alpha.md']);
    operations++;
    await check('after the capped ingest');

    // 3. The next cron run retries beta (alpha is up to date) and this time it is done.
    const third = await serve([
      write('wiki/concepts/attention.md', edited.replace('sources: [raw/alpha.md]', 'sources: [raw/alpha.md, raw/beta.md]').replace(OWNER_LINE, `${OWNER_LINE}\n\nBeta adds a linear variant.`)),
      writeStep('source', 'beta', { refs: ['attention'], body: 'Linear [[attention]].' }),
      { text: 'Ingested beta.' },
    ]);
    const ingest3 = await runCli(['ingest', 'raw/', '--json'], { cwd: root, env: third.env(wire) });
    expect(ingest3.code, ingest3.stdout).toBe(0);
    const report3 = JSON.parse(ingest3.stdout) as { ingested: Array<{ source: string; status: string }>; upToDate: string[] };
    expect(report3.ingested.map((s) => [s.source, s.status])).toEqual([['raw/beta.md', 'done']]);
    expect(report3.upToDate).toEqual(['raw/alpha.md']);
    expect(await read(root, 'wiki/concepts/attention.md')).toContain(OWNER_LINE);
    operations++;
    await check('after the retry');

    // 4. query --save: the model writes nothing and cites a page; wiki files the answer with
    //    the cited pages' sources.
    const fourth = await serve([{ text: 'Attention is quadratic; see [[attention]] and [[not-a-page]].' }]);
    const query = await runCli(['query', 'how does attention scale?', '--save', '--json'], { cwd: root, env: fourth.env(wire) });
    expect(query.code, query.stderr).toBe(0);
    const saved = JSON.parse(query.stdout) as { saved: { path: string } };
    const savedPage = await read(root, saved.saved.path);
    expect(savedPage).toMatch(/sources: \[raw\/alpha\.md, raw\/beta\.md\]/);
    operations++;
    await check('after query --save');

    // 5. lint --fix with the model: it forges a log entry, writes a page without sources and
    //    overwrites the owner's page; all refused, and the run logs one entry of its own.
    const fifth = await serve([
      append('wiki/log.md', '## [2026-11-23] lint | all fine\n'),
      write('wiki/concepts/lint-notes.md', pageText('concept', 'lint-notes')),
      write('wiki/concepts/attention.md', pageText('concept', 'attention', { sources: ['raw/alpha.md', 'raw/beta.md'], body: 'Tidied. See [[beta]].' })),
      append('wiki/concepts/attention.md', 'Also see [[alpha]].'),
      { text: 'FINDING stale-claim wiki/concepts/attention.md :: check the BLEU figure' },
    ]);
    const lint = await runCli(['lint', '--fix', '--json'], { cwd: root, env: fifth.env(wire) });
    expect(lint.stderr).not.toMatch(/unexpected/i);
    expect(await read(root, 'wiki/concepts/attention.md')).toContain(OWNER_LINE);
    expect(await read(root, 'wiki/concepts/attention.md')).toContain('Also see [[alpha]].');
    expect(await read(root, 'wiki/log.md')).not.toContain('all fine');
    operations++;
    await check('after lint --fix');
  });
});
