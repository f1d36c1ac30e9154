import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { initWorkspace, runCli } from '../helpers/cli.js';
import { fakeServers } from '../helpers/use-fake-llm.js';

/** Page text carrying terminal escape sequences reaches the operator's terminal only as plain text. */
const TITLE = 'Evil\x1b]0;pwned\x07 title\x1b[2J';
const SUMMARY = 'Clipboard\x1b]52;c;ZXZpbA==\x07 summary\x9b2J';

let root: string;
beforeAll(async () => {
  root = await initWorkspace();
  await mkdir(path.join(root, 'wiki/concepts'), { recursive: true });
  const yamlString = (text: string): string => JSON.stringify(text);
  await writeFile(
    path.join(root, 'wiki/concepts/evil.md'),
    `---\ntitle: ${yamlString(TITLE)}\nsummary: ${yamlString(SUMMARY)}\ntags: ["t\\e[31mag"]\nsources: [raw/x.md]\n---\n\nEvil body about sourdough\x1b]0;body\x07 starters.\n`,
  );
});

describe('no escape sequences reach the terminal', () => {
  it.each([
    ['search', ['search', 'sourdough']],
    ['status', ['status']],
    ['lint', ['lint']],
  ])('%s prints no ESC, BEL or C1 control', async (_name, args) => {
    const result = await runCli(args, { cwd: root });
    expect(`${result.stdout}${result.stderr}`).not.toMatch(/[\x07\x1b\x9b\x9d]/);
  });

  it('search shows the title without its escapes, and --json keeps the data intact', async () => {
    const human = await runCli(['search', 'sourdough'], { cwd: root });
    expect(human.stdout).toContain('Evil title');
    const json = JSON.parse((await runCli(['search', 'sourdough', '--json'], { cwd: root })).stdout) as { results: Array<{ title: string }> };
    expect(json.results[0]?.title).toBe(TITLE);
  });
});

/**
 * Every command's human output, in colour (where page text could otherwise hide among our
 * own codes), with hostile titles, summaries, tags, file names, log entries, snippets,
 * facts and model text: the only escape sequences printed are our palette's colour codes,
 * and none of the hostile ones (blink, 256-colour, cursor up, line erase, carriage return).
 */
const HOSTILE = 'Blink\x1b[5m 256\x1b[38;5;196m up\x1b[1A erase\r\x1b[2K conceal\x1b[8m';
const OURS = /\x1b\[(?:[0-9]|2[2-9]|3[0-79]|4[0-79]|9[0-7]|10[0-7])m/g;

function onlyOurColours(output: string): void {
  expect(output).not.toMatch(/\x1b\[5m|\x1b\[38;5|\x1b\[1A|\r|\x1b\[2K|[\x07\x9b\x9d]/);
  expect(output.replace(OURS, '')).not.toContain('\x1b');
}

const coloured = { NO_COLOR: undefined, FORCE_COLOR: '1' };

describe('in colour, page and model text brings no escape sequence of its own', () => {
  let ws: string;
  beforeAll(async () => {
    ws = await initWorkspace();
    const yaml = (text: string): string => JSON.stringify(text);
    await writeFile(path.join(ws, 'raw/bread.md'), `# Bread\n\nSourdough starters ferment${HOSTILE} flour and water.\n`);
    await writeFile(
      path.join(ws, 'wiki/concepts/sourdough.md'),
      `---\ntitle: ${yaml(`Sourdough ${HOSTILE}`)}\nsummary: ${yaml(`Starters ${HOSTILE}`)}\ntags: [${yaml(`tag${HOSTILE}`)}]\nsources: [raw/bread.md]\nrefs: [${yaml(`missing${HOSTILE}`)}]\n---\n\nSourdough starters ${HOSTILE} ferment flour. [[nowhere\x1b[5m]]\n`,
    );
    await writeFile(path.join(ws, `wiki/concepts/bad\x1b[5mname.md`), '---\ntitle: x\n---\nbody\n');
    await writeFile(path.join(ws, 'wiki/log.md'), `${await readFile(path.join(ws, 'wiki/log.md'), 'utf8')}\n## [2026-11-21] ingest | Forged${HOSTILE}\n`);
  });

  it.each([
    ['search', ['search', 'sourdough']],
    ['search --full', ['search', 'sourdough', '--full']],
    ['search --explain', ['search', 'sourdough', '--explain']],
    ['status', ['status']],
    ['lint', ['lint']],
    ['graph --format dot', ['graph', '--format', 'dot']],
    ['facts search', ['facts', 'search', 'sourdough']],
    ['config', ['config']],
    ['undo --dry-run', ['undo', '--dry-run']],
  ])('%s', async (_name, args) => {
    const result = await runCli(args, { cwd: ws, env: coloured });
    onlyOurColours(`${result.stdout}${result.stderr}`);
  });
});

describe.each(['anthropic', 'openai'] as const)('model text through the %s wire format', (api) => {
  const servers = fakeServers();
  it('ingest progress and summary, and a query answer, print no escape of the model\'s', async () => {
    const ws = await initWorkspace();
    await writeFile(path.join(ws, 'raw/bread.md'), '# Bread\n\nSourdough starters ferment flour and water.\n');
    const page = [
      '---',
      `title: ${JSON.stringify(`Bread ${HOSTILE}`)}`,
      `summary: ${JSON.stringify(`About bread ${HOSTILE}`)}`,
      'type: source',
      'sources: [raw/bread.md]',
      'created: 2026-11-21',
      'updated: 2026-11-21',
      '---',
      '',
      'Sourdough starters ferment flour and water.',
      '',
    ].join('\n');
    const ingestServer = await servers([
      { toolCalls: [{ name: 'read_file', arguments: { path: `raw/${HOSTILE}.md` } }, { name: 'search_wiki', arguments: { query: HOSTILE } }] },
      { toolCalls: [{ name: 'write_file', arguments: { path: 'wiki/sources/bread.md', content: page } }, { name: 'write_file', arguments: { path: `wiki/concepts/${HOSTILE}.md`, content: page } }] },
      { text: `Done ${HOSTILE}` },
    ]);
    const ingest = await runCli(['ingest', 'raw/bread.md'], { cwd: ws, env: { ...coloured, ...ingestServer.env(api) } });
    expect(ingestServer.problems).toEqual([]);
    expect(ingest.stdout).toContain('bread');
    onlyOurColours(`${ingest.stdout}${ingest.stderr}`);

    const queryServer = await servers([{ text: `Sourdough ferments ${HOSTILE} [[bread]]` }]);
    const query = await runCli(['query', `why ${HOSTILE}?`], { cwd: ws, env: { ...coloured, ...queryServer.env(api) } });
    expect(query.stdout).toContain('Sourdough ferments');
    onlyOurColours(`${query.stdout}${query.stderr}`);

    const undo = await runCli(['undo', '--yes'], { cwd: ws, env: coloured });
    onlyOurColours(`${undo.stdout}${undo.stderr}`);
  });
});
