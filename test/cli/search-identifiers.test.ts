import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { initWorkspace, runCli } from '../helpers/cli.js';

/**
 * Identifiers through `wiki search` (issue 36): found whole and by their parts, and shown
 * in snippets as the page writes them — case, underscores and dots kept.
 */
const page = (title: string, summary: string, body: string): string => `---\ntitle: ${JSON.stringify(title)}\nsummary: ${JSON.stringify(summary)}\ntype: concept\n---\n\n${body}\n`;

const PAGES: Record<string, string> = {
  'wiki/concepts/type-checking-constant.md': page(
    'TYPE_CHECKING constant',
    'A constant that is False at run time and True for static type checkers.',
    'Imports guarded by `if typing.TYPE_CHECKING:` are read only by a **type checker**; at run time the constant is False, so type checking costs nothing.',
  ),
  'wiki/concepts/no-type-check-decorator.md': page(
    'The no_type_check decorator',
    'A decorator telling type checkers to skip one function.',
    'The decorator `@typing.no_type_check` turns off checking for the function it decorates, and _only_ that function.',
  ),
  'wiki/concepts/protocols.md': page(
    'Structural subtyping with protocols',
    'PEP 544 protocols let a class match an interface by its methods alone.',
    'A class matches a `typing.Protocol` subclass when it has the methods; mark it with `@runtime_checkable` to test it with isinstance.',
  ),
  'wiki/concepts/generics.md': page('Generic types', 'Type variables and generic classes.', 'A generic class takes type parameters, as `List[int]` does.'),
};

let root: string;

beforeAll(async () => {
  root = await initWorkspace();
  for (const [file, text] of Object.entries(PAGES)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), text);
  }
});

interface Answer {
  strong: boolean;
  results: Array<{ key: string; strength: string; snippet: string }>;
}

const search = async (query: string): Promise<Answer> => JSON.parse((await runCli(['--json', 'search', query], { cwd: root })).stdout) as Answer;

describe('identifiers in wiki search', () => {
  it('finds each identifier whole, first and strong, with its passage as written', async () => {
    const typeChecking = await search('TYPE_CHECKING');
    expect(typeChecking.results[0]).toMatchObject({ key: 'type-checking-constant', strength: 'strong' });
    expect(typeChecking.results[0]?.snippet).toContain('typing.TYPE_CHECKING');
    const noTypeCheck = await search('no_type_check');
    expect(noTypeCheck.results[0]).toMatchObject({ key: 'no-type-check-decorator', strength: 'strong' });
    expect(noTypeCheck.results[0]?.snippet).toContain('@typing.no_type_check');
    // Its words are on the TYPE_CHECKING page too, but that page is not about no_type_check.
    expect(noTypeCheck.results.find((hit) => hit.key === 'type-checking-constant')?.strength ?? 'weak').toBe('weak');
    const protocol = await search('typing.Protocol');
    expect(protocol.results[0]).toMatchObject({ key: 'protocols', strength: 'strong' });
    expect(protocol.results[0]?.snippet).toContain('typing.Protocol');
    expect(protocol.results[0]?.snippet).toContain('@runtime_checkable');
  });

  it('finds them by their parts', async () => {
    expect((await search('type checking')).results.map((hit) => hit.key)).toContain('type-checking-constant');
    expect((await search('Protocol')).results[0]?.key).toBe('protocols');
    expect((await search('runtime checkable')).results[0]?.key).toBe('protocols');
    expect((await search('type check decorator')).results[0]?.key).toBe('no-type-check-decorator');
  });

  it('prints the passage as written in the human output too', async () => {
    const human = await runCli(['search', 'no_type_check'], { cwd: root });
    expect(human.stdout).toContain('@typing.no_type_check');
    expect(human.stdout).not.toMatch(/notypecheck|typingnotypecheck/i);
  });
});
