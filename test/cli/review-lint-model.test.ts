import { describe, expect, it } from 'vitest';
import { cloneWorkspace, runCli } from '../helpers/cli.js';
import type { ScriptStep } from '../helpers/fake-llm-server.js';
import { read, writeStep } from './cron-fixtures.js';
import { ingestedWorkspace, list, outsideState, serve } from './review-fixtures.js';

/**
 * `wiki lint --fix` with the model, under review (issue 40, item 5): the model's rewrite
 * waits in the proposal beside the rules' own repairs; nothing outside .wiki/ changes;
 * accepted, it lands as the direct run would have written it; rejected, nothing lands.
 */
const visible = async (root: string): Promise<Map<string, string>> => new Map([...(await outsideState(root))].filter(([file]) => file !== 'wiki/log.md'));

/** The model rewrites the beta page's body, then ends. */
const rewrite = (): ScriptStep[] => [writeStep('source', 'beta', { body: 'Beta is a dataset, reviewed.' }), { text: 'Rewrote the beta page.' }];

describe('lint --fix with the model, under review', () => {
  it("the model's rewrite waits in the proposal; accepted, it lands as a direct lint --fix does", async () => {
    const root = await ingestedWorkspace();
    const twin = await cloneWorkspace(root);
    const before = await outsideState(root);

    const server = await serve(rewrite());
    const result = await runCli(['lint', '--fix', '--review', '--json'], { cwd: root, env: server.env('anthropic') });
    expect(result.stderr).not.toMatch(/Error/);
    expect(server.remaining()).toBe(0);
    expect(server.requests[1]?.toolResults[0]?.isError).toBe(false);
    expect(await outsideState(root)).toEqual(before);
    const report = JSON.parse(result.stdout) as { proposals: Array<{ id: string; command: string; pages: unknown[] }> };
    expect(report.proposals).toEqual([{ id: expect.any(String), command: 'lint', pages: [{ path: 'wiki/sources/beta.md', change: 'updated' }], created: expect.any(String) }]);
    const shown = JSON.parse((await runCli(['review', 'show', report.proposals[0]?.id ?? '', '--json'], { cwd: root })).stdout) as { pages: Array<{ diff: string }> };
    expect(shown.pages[0]?.diff).toMatch(/^-Beta is a dataset\.$/m);
    expect(shown.pages[0]?.diff).toMatch(/^\+Beta is a dataset, reviewed\.$/m);

    const twinServer = await serve(rewrite());
    const direct = await runCli(['lint', '--fix', '--no-review'], { cwd: twin, env: twinServer.env('anthropic') });
    expect(direct.stderr).not.toMatch(/Error/);
    const accepted = await runCli(['review', 'accept', report.proposals[0]?.id ?? ''], { cwd: root });
    expect(accepted.code, accepted.stdout + accepted.stderr).toBe(0);
    expect(await read(root, 'wiki/sources/beta.md')).toContain('Beta is a dataset, reviewed.');
    expect(await visible(root)).toEqual(await visible(twin));
  });

  it('rejected, nothing lands and the wiki is as it was', async () => {
    const root = await ingestedWorkspace();
    const server = await serve(rewrite());
    const result = await runCli(['lint', '--fix', '--review', '--json'], { cwd: root, env: server.env('anthropic') });
    const [proposal] = (JSON.parse(result.stdout) as { proposals: Array<{ id: string }> }).proposals;
    const before = await outsideState(root);
    const rejected = await runCli(['review', 'reject', proposal?.id ?? ''], { cwd: root });
    expect(rejected.code, rejected.stderr).toBe(0);
    expect(await outsideState(root)).toEqual(before);
    expect((await list(root)).proposals).toEqual([]);
  });
});
