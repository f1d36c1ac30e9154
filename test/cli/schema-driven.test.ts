import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { initWorkspace, runCli } from '../helpers/cli.js';
import { startFakeLlmServer, type FakeLlmServer } from '../helpers/fake-llm-server.js';

let server: FakeLlmServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A team edits schema.md alone: a new page type, a new required field, a new convention. */
async function customisedWorkspace(): Promise<string> {
  const root = await initWorkspace();
  const schemaPath = path.join(root, 'schema.md');
  const schema = (await readFile(schemaPath, 'utf8'))
    .replace('  required: [title, summary]', '  required: [title, summary, tags]')
    .replace(
      '    entity:\n',
      '    dataset:\n      folder: wiki/datasets\n      required: [sources]\n      description: benchmark datasets\n    entity:\n',
    )
    .concat('\n## House style\n\nName every dataset page after the dataset’s official acronym.\n');
  await writeFile(schemaPath, schema);
  await mkdir(path.join(root, 'wiki/datasets'), { recursive: true });
  return root;
}

const DATASET_PAGE = (tags: string) =>
  `---\ntitle: SQuAD\nsummary: Reading-comprehension questions on Wikipedia articles.\n${tags}sources: [raw/squad.md]\n---\n\nA question-answering benchmark.\n`;

const SOURCE_PAGE = '---\ntitle: The SQuAD paper\nsummary: Where SQuAD was introduced.\ntags: [qa]\nsources: [raw/squad.md]\nrefs: [squad]\n---\n\nIntroduces [[squad]].\n';

describe('schema.md is the one file a team edits to change behaviour', () => {
  it('its contract drives the validator, the tools, the index and the prompt', async () => {
    const root = await customisedWorkspace();
    await writeFile(path.join(root, 'raw/squad.md'), '# SQuAD\n\n100,000 questions on Wikipedia articles.\n');
    await writeFile(path.join(root, 'wiki/concepts/untagged.md'), '---\ntitle: Untagged\nsummary: A page without tags.\n---\n\nBody.\n');

    const lint = JSON.parse((await runCli(['lint', '--no-llm', '--json'], { cwd: root })).stdout);
    expect(lint.findings).toContainEqual(expect.objectContaining({ rule: 'required-field', path: 'wiki/concepts/untagged.md', message: expect.stringMatching(/tags/) }));

    server = await startFakeLlmServer([
      { toolCalls: [{ name: 'write_file', arguments: { path: 'wiki/datasets/squad.md', content: DATASET_PAGE('') } }] },
      { toolCalls: [{ name: 'write_file', arguments: { path: 'wiki/datasets/squad.md', content: DATASET_PAGE('tags: [qa]\n') } }] },
      { toolCalls: [{ name: 'write_file', arguments: { path: 'wiki/sources/squad-paper.md', content: SOURCE_PAGE } }] },
      { text: 'Wrote the dataset page and the source page.' },
    ]);
    const ingest = await runCli(['ingest', 'raw/squad.md', '--json'], { cwd: root, env: server.env('openai') });
    expect(ingest.code).toBe(0);
    expect(server.requests[0]?.system).toContain('Name every dataset page after the dataset’s official acronym.');
    expect(server.requests[1]?.toolResults[0]).toMatchObject({ isError: true, content: expect.stringMatching(/required-field.*tags/s) });
    expect(server.requests[2]?.toolResults[0]?.isError).toBe(false);
    expect(JSON.parse(ingest.stdout).ingested[0].created).toEqual(['wiki/datasets/squad.md', 'wiki/sources/squad-paper.md']);
    const index = await readFile(path.join(root, 'wiki/index.md'), 'utf8');
    expect(index).toMatch(/## Datasets \(1\)\n\n- \[\[squad\]\] — Reading-comprehension questions/);
  });
});
