import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { fakeServers, freshWorkspace, pageText } from './cron-fixtures.js';

/**
 * A title in look-alike letters of another script ("Ѕеlf-аttеntіоn", Cyrillic Ѕ, е, а, і, о)
 * reads as "Self-attention" but is other characters: the near-duplicate check compares
 * skeletons, at write time and in lint. A genuinely different title beside it is untouched.
 */
const serve = fakeServers();
const SPOOF = 'Ѕеlf-аttеntіоn';

async function workspaceWithSelfAttention(): Promise<string> {
  const root = await freshWorkspace();
  await writeFile(path.join(root, 'raw/paper.md'), '# Paper\n\nSelf-attention relates positions of one sequence.\n');
  await writeFile(path.join(root, 'wiki/concepts/self-attention.md'), pageText('concept', 'self-attention', { title: 'Self-attention', sources: ['raw/paper.md'] }));
  return root;
}

describe.each(['anthropic', 'openai'] as const)('a look-alike title written by the model (%s)', (api) => {
  it('is refused as a near-duplicate naming the page to update; a different title beside it is written', async () => {
    const root = await workspaceWithSelfAttention();
    const write = (key: string, title: string): { name: string; arguments: Record<string, unknown> } => ({
      name: 'write_file',
      arguments: { path: `wiki/concepts/${key}.md`, content: pageText('concept', key, { title, sources: ['raw/paper.md'] }) },
    });
    const server = await serve((request) =>
      request.toolResults.length > 0 ? { text: 'Done.' } : { toolCalls: [write('attention-within', SPOOF), write('self-supervision', 'Self-supervision')] },
    );
    const result = await runCli(['query', 'what is self-attention?', '--save'], { cwd: root, env: server.env(api) });
    const [spoofed, good] = server.requests[1]?.toolResults ?? [];
    expect(spoofed?.isError).toBe(true);
    expect(spoofed?.content).toMatch(/near-duplicate/);
    expect(spoofed?.content).toContain('wiki/concepts/self-attention.md');
    expect(good?.isError).toBe(false);
    expect(result.stderr).not.toMatch(/unexpected/);
  });
});

describe('a look-alike title written by hand', () => {
  it('is flagged by lint as a near-duplicate; a different title is not', async () => {
    const root = await workspaceWithSelfAttention();
    await writeFile(path.join(root, 'wiki/concepts/attention-within.md'), pageText('concept', 'attention-within', { title: SPOOF, sources: ['raw/paper.md'] }));
    await writeFile(path.join(root, 'wiki/concepts/self-supervision.md'), pageText('concept', 'self-supervision', { title: 'Self-supervision', sources: ['raw/paper.md'] }));
    const lint = await runCli(['lint', '--no-llm', '--json'], { cwd: root });
    const findings = (JSON.parse(lint.stdout) as { findings: { rule: string; path: string; message: string }[] }).findings.filter((f) => f.rule === 'near-duplicate');
    expect(findings).toHaveLength(1);
    expect(findings[0]?.message).toMatch(/title ".+" is nearly the same as that of \[\[(self-attention|attention-within)\]\]/);
    expect(findings.some((f) => f.message.includes('self-supervision') || f.path.includes('self-supervision'))).toBe(false);
  });
});
