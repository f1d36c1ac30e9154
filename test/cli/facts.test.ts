import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { initWorkspace, runCli } from '../helpers/cli.js';
import { startFakeLlmServer, type RecordedRequest } from '../helpers/fake-llm-server.js';
import { simpleIngest } from './cron-fixtures.js';
import { describeWithSqlite } from '../helpers/sqlite.js';
import { pageText } from '../search/helpers.js';

let root: string;

beforeAll(async () => {
  root = await initWorkspace();
  await writeFile(
    path.join(root, 'raw', 'bridge.md'),
    '# The bridge\n\nThe Golden Gate Bridge opened in 1937 after four years of work.\nIts main span is 1,280 metres long.\n',
  );
  await mkdir(path.join(root, 'wiki', 'entities'), { recursive: true });
  await writeFile(
    path.join(root, 'wiki', 'entities', 'golden-gate.md'),
    pageText('Golden Gate Bridge', 'A bridge', 'The Golden Gate Bridge opened in 1937 after four years of work.\nIts main span is 2,000 metres long.', { sources: ['raw/bridge.md'] }),
  );
});

describeWithSqlite('wiki facts (through the built CLI)', () => {
  it('rebuilds the store, searches it, shows a fact with its provenance and counts', async () => {
    const rebuild = await runCli(['facts', 'rebuild', '--json'], { cwd: root });
    expect(rebuild.code).toBe(0);
    expect(JSON.parse(rebuild.stdout)).toMatchObject({ sources: { extracted: 1 }, facts: { inserted: 2 } });

    const search = await runCli(['facts', 'search', 'main span', '--json'], { cwd: root });
    expect(search.code).toBe(0);
    const hits = (JSON.parse(search.stdout) as { facts: { id: string; text: string; sources: string[] }[] }).facts;
    expect(hits.map((h) => h.text)).toEqual(['Its main span is 1,280 metres long.']);
    // Each source with the line that states the fact, as `facts show` gives it.
    expect(hits[0]!.sources).toEqual(['raw/bridge.md#L4']);
    const human = await runCli(['facts', 'search', 'main span'], { cwd: root });
    expect(human.stdout).toContain('raw/bridge.md#L4');

    const show = await runCli(['facts', 'show', hits[0]!.id], { cwd: root });
    expect(show.code).toBe(0);
    expect(show.stdout).toContain('raw/bridge.md#L4');

    const stats = await runCli(['facts', 'stats', '--json'], { cwd: root });
    expect(JSON.parse(stats.stdout)).toMatchObject({ live: 2, sources: 1, tombstoned: 0 });

    const missing = await runCli(['facts', 'show', 'f-000000000000'], { cwd: root });
    expect(missing.code).toBe(2);
  });

  it('lint flags the unsupported number, quotes the closest fact and scores the page', async () => {
    await runCli(['facts', 'rebuild'], { cwd: root });
    const lint = await runCli(['lint', '--no-llm', '--json'], { cwd: root });
    const json = JSON.parse(lint.stdout) as { findings: { rule: string; path: string; message: string }[]; grounding: { path: string; score: number }[] };
    const grounding = json.findings.filter((f) => f.rule === 'unsupported-number' || f.rule === 'ungrounded');
    expect(grounding).toHaveLength(1);
    expect(grounding[0]).toMatchObject({ rule: 'unsupported-number', path: 'wiki/entities/golden-gate.md' });
    expect(grounding[0]!.message).toContain('Its main span is 1,280 metres long.');
    expect(json.grounding).toEqual([{ path: 'wiki/entities/golden-gate.md', score: 0.5, sentences: 2, flagged: 1 }]);

    const status = await runCli(['status', '--json'], { cwd: root });
    expect(JSON.parse(status.stdout)).toMatchObject({ grounding: { pages: 1, mean: 0.5, claims: 2, flagged: 1, share: 0.5 } });
  });

  it('query --facts answers "no facts found" without any model when nothing matches', async () => {
    const result = await runCli(['query', '--facts', 'zeppelin hangar capacity', '--json'], { cwd: root });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ answer: 'no facts found', modelCalled: false, facts: [] });
  });
});

describeWithSqlite('the model sees the fact ids of the source window it reads only when schema.md asks it to cite facts', () => {
  const lines = ['# The bridge', '', 'The Golden Gate Bridge opened in 1937 after four years of work.', 'Its main span is 1,280 metres long.', '', '## Later', '', 'The bridge was painted International Orange in 1937.'];

  async function ingestBridge(schemaAddition: string): Promise<{ workspace: string; requests: RecordedRequest[] }> {
    const workspace = await initWorkspace();
    await writeFile(path.join(workspace, 'raw', 'bridge.md'), `${lines.join('\n')}\n`);
    if (schemaAddition) await appendFile(path.join(workspace, 'schema.md'), `\n${schemaAddition}\n`);
    const server = await startFakeLlmServer([
      { toolCalls: [{ name: 'read_file', arguments: { path: 'raw/bridge.md', offset: 60, limit: 400 } }] },
      ...simpleIngest('bridge'),
    ]);
    try {
      const ingest = await runCli(['ingest', 'raw/bridge.md'], { cwd: workspace, env: server.env('anthropic') });
      expect(ingest.code, ingest.stderr).toBe(0);
      return { workspace, requests: [...server.requests] };
    } finally {
      await server.close();
    }
  }

  it('by default no window carries fact ids, and the facts layer still works', async () => {
    const { workspace, requests } = await ingestBridge('');
    for (const request of requests) expect(JSON.stringify(request.body)).not.toMatch(/f-[0-9a-f]{12}|[0-9a-f]{12}\]/);
    const result = await runCli(['facts', 'search', 'main span', '--json'], { cwd: workspace });
    expect((JSON.parse(result.stdout) as { facts: { id: string }[] }).facts[0]?.id).toMatch(/^f-[0-9a-f]{12}$/);
  });

  it('a schema that asks for [^f-…] citations gets each window\'s fact ids by line, explained, the same ids `wiki facts` gives', async () => {
    const { workspace, requests } = await ingestBridge('Cite the fact behind a claim as a footnote [^f-<id>] when the source window lists its id.');
    const ids = async (query: string): Promise<string> => {
      const result = await runCli(['facts', 'search', query, '--json'], { cwd: workspace });
      return ((JSON.parse(result.stdout) as { facts: { id: string }[] }).facts[0]?.id ?? 'none').replace(/^f-/, '');
    };
    const [opened, span, orange] = [await ids('opened 1937'), await ids('main span'), await ids('International Orange')];
    const first = requests[0]?.lastUserText ?? '';
    expect(first).toContain(`[fact ids by line, to cite as [^f-<id>] after a claim: 3 ${opened}, 4 ${span}, 8 ${orange}]`);
    // A window starting inside line 3 lists the facts of lines 3-8 only.
    const later = requests[1]?.toolResults[0]?.content ?? '';
    expect(later).toMatch(/\[fact ids by line, to cite as \[\^f-<id>\] after a claim: 3 [0-9a-f]{12}, 4 [0-9a-f]{12}, 8 [0-9a-f]{12}\]$/);
  });
});

describeWithSqlite('lint --fix hands grounding findings to the model with their closest facts', () => {
  it('the request lists each ungrounded or unsupported-number sentence with its sources\' closest facts and where they are stated', async () => {
    const workspace = await initWorkspace();
    await writeFile(path.join(workspace, 'raw', 'bridge.md'), '# The bridge\n\nThe Golden Gate Bridge opened in 1937 after four years of work.\nIts main span is 1,280 metres long.\n');
    await mkdir(path.join(workspace, 'wiki', 'entities'), { recursive: true });
    await writeFile(
      path.join(workspace, 'wiki', 'entities', 'golden-gate.md'),
      pageText('Golden Gate Bridge', 'A bridge', 'The Golden Gate Bridge opened in 1937 after four years of work.\nIts main span is 2,000 metres long.', { sources: ['raw/bridge.md'] }),
    );
    expect((await runCli(['facts', 'rebuild'], { cwd: workspace })).code).toBe(0);
    const span = (JSON.parse((await runCli(['facts', 'search', 'main span', '--json'], { cwd: workspace })).stdout) as { facts: { id: string }[] }).facts[0]?.id;
    const server = await startFakeLlmServer([{ text: 'FINDING unsupported-number wiki/entities/golden-gate.md :: left as is' }]);
    try {
      const lint = await runCli(['lint', '--fix', '--json'], { cwd: workspace, env: server.env('anthropic') });
      expect([0, 1]).toContain(lint.code);
      const request = server.requests[0]?.lastUserText ?? '';
      expect(request).toMatch(/Sentences the checks could not match with their evidence/);
      expect(request).toMatch(/- \[warning\] unsupported-number wiki\/entities\/golden-gate\.md:\d+ — "Its main span is 2,000 metres long\."/);
      expect(span).toBeDefined();
      expect(request).toMatch(/\n- wiki\/entities\/golden-gate\.md:\d+\n {2}- "Its main span is 1,280 metres long\." \(raw\/bridge\.md#L4\)/);
      // The supported sentence is not handed over for repair.
      expect(request).not.toMatch(/"The Golden Gate Bridge opened/);
    } finally {
      await server.close();
    }
  });

  it('a review without --fix is not asked to repair', async () => {
    await runCli(['facts', 'rebuild'], { cwd: root });
    const server = await startFakeLlmServer([{ text: 'No findings.' }]);
    try {
      await runCli(['lint', '--json'], { cwd: root, env: server.env('anthropic') });
      const request = server.requests[0]?.lastUserText ?? '';
      expect(request).toMatch(/unsupported-number wiki\/entities\/golden-gate\.md/);
      expect(request).not.toMatch(/Sentences their sources do not support/);
    } finally {
      await server.close();
    }
  });
});

describeWithSqlite('query --facts: the model gets only facts, with ids, and its citations are checked', () => {
  it('the request carries only the matching facts with their ids and no tools; a cited id that is no fact is reported', async () => {
    const workspace = await initWorkspace();
    await writeFile(
      path.join(workspace, 'raw', 'bridge.md'),
      '# The bridge\n\nThe Golden Gate Bridge opened in 1937 after four years of work.\nIts main span is 1,280 metres long.\n\n## Elsewhere\n\nThe zebra is a striped horse.\n',
    );
    let given: string[] = [];
    const server = await startFakeLlmServer((request) => {
      given = [...(request.lastUserText ?? '').matchAll(/\[\^(f-[0-9a-f]{12})\]/g)].map((m) => m[1] ?? '');
      return { text: `It opened in 1937 [^${given[0]}], painted orange [^f-000000000000].` };
    });
    try {
      const result = await runCli(['query', '--facts', 'When did the Golden Gate Bridge open?', '--json'], { cwd: workspace, env: server.env('anthropic') });
      expect(server.requests).toHaveLength(1);
      const request = server.requests[0]!;
      expect(request.toolNames).toEqual([]);
      expect(request.system).toMatch(/ONLY the numbered facts.*\[\^fact-id\]/s);
      // Every line of the facts block is one fact with its id and source; the zebra shares no word with the question.
      const factLines = (request.lastUserText ?? '').split('\n').filter((line) => line.startsWith('[^'));
      expect(factLines.length).toBeGreaterThan(0);
      for (const line of factLines) expect(line).toMatch(/^\[\^f-[0-9a-f]{12}\] .+ \(raw\/bridge\.md#L\d+(-\d+)?\)$/);
      expect(request.lastUserText).toContain('The Golden Gate Bridge opened in 1937 after four years of work.');
      expect(request.lastUserText).not.toContain('zebra');
      const report = JSON.parse(result.stdout) as { cited: string[]; unknown: string[]; modelCalled: boolean; facts: { id: string }[] };
      expect(report).toMatchObject({ modelCalled: true, cited: [given[0]], unknown: ['f-000000000000'] });
      expect(report.facts.map((fact) => fact.id)).toEqual(given);
      // An answer citing an id it was not given fails the check: exit 1, and the human output names the id.
      expect(result.code).toBe(1);
      const human = await runCli(['query', '--facts', 'When did the Golden Gate Bridge open?'], { cwd: workspace, env: server.env('anthropic') });
      expect(human.code).toBe(1);
      expect(human.stdout + human.stderr).toMatch(/cited ids that are no fact: f-000000000000/);
    } finally {
      await server.close();
    }
  });

  it('a question of stop words and unknown words finds no facts and calls no model', async () => {
    const result = await runCli(['query', '--facts', 'what is the capital of the moon?', '--json'], { cwd: root });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ answer: 'no facts found', modelCalled: false, facts: [] });
  });
});
