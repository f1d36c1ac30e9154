import { readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hashTree, initWorkspace, runCli } from '../helpers/cli.js';
import type { ScriptStep } from '../helpers/fake-llm-server.js';
import { fakeServers } from '../helpers/use-fake-llm.js';

/**
 * Pages written in one answer may link to each other, through the built CLI and both wire
 * formats: a write_file call refused only for links to pages later calls of the same answer
 * write is held and written after them; pages that link in a circle are written together
 * if every one of them passes, else none that depends on a refused one. Every result still
 * answers its own call, in call order, and no page is ever left with a broken link.
 */

const startServer = fakeServers();

const SOURCE = '# Notes\n\nThe notes describe several things.\nEach of them is explained here.\n';

/** A valid concept page linking to `links` (first mention in the body). */
function concept(title: string, links: readonly string[] = [], extra = ''): string {
  const mentions = links.map((key) => `It relates to [[${key}]].`).join(' ');
  return `---
title: ${title}
summary: ${title} as the notes describe it.
type: concept
sources: [raw/notes.md]
created: 2026-01-01
updated: 2026-01-01
---

${title} is explained in the notes. ${mentions} <!-- from: raw/notes.md#L3 -->
${extra}`;
}

/** The source page of raw/notes.md, which an ingest must write, linking to `links`. */
function sourcePage(links: readonly string[]): string {
  return `---
title: The notes
summary: What the notes say.
type: source
sources: [raw/notes.md]
created: 2026-01-01
updated: 2026-01-01
---

The notes describe ${links.map((key) => `[[${key}]]`).join(', ')}. <!-- from: raw/notes.md#L3 -->
`;
}

const pagePath = (key: string): string => `wiki/concepts/${key}.md`;
const write = (key: string, content: string): { name: string; arguments: Record<string, unknown> } => ({
  name: 'write_file',
  arguments: { path: pagePath(key), content },
});

async function workspace(): Promise<string> {
  const root = await initWorkspace();
  await writeFile(path.join(root, 'raw', 'notes.md'), SOURCE);
  return root;
}

async function ingest(root: string, api: 'anthropic' | 'openai', turn: ScriptStep, flags: string[] = []) {
  const server = await startServer([turn, { text: 'Done.' }]);
  const result = await runCli(['ingest', 'raw/notes.md', '--json', ...flags], { cwd: root, env: server.env(api) });
  expect(server.problems).toEqual([]);
  const results = server.requests[1]?.toolResults ?? [];
  return { result, results, server };
}

const exists = (root: string, key: string): boolean => existsSync(path.join(root, pagePath(key)));
const failed = (content: string | undefined): boolean => /rejected|refused|not written/.test(content ?? '');

describe.each(['anthropic', 'openai'] as const)('pages of one answer linking to each other (%s wire format)', (api) => {
  it('the played case: five new pages cross-linked in one answer, the first linking forward, are all written', async () => {
    const root = await workspace();
    const turn: ScriptStep = {
      toolCalls: [
        { id: 'w-0', name: 'write_file', arguments: { path: 'wiki/sources/the-notes.md', content: sourcePage(['lantern', 'meadow', 'nebula', 'orchard', 'quartz']) } },
        { id: 'w-1', ...write('lantern', concept('Lantern', ['meadow', 'nebula'])) },
        { id: 'w-2', ...write('meadow', concept('Meadow', ['orchard'])) },
        { id: 'w-3', ...write('nebula', concept('Nebula', ['lantern', 'quartz'])) },
        { id: 'w-4', ...write('orchard', concept('Orchard', ['quartz'])) },
        { id: 'w-5', ...write('quartz', concept('Quartz')) },
      ],
    };
    const { result, results } = await ingest(root, api, turn);
    expect(result.code).toBe(0);
    // One result per call, paired with its id, in call order.
    expect(results.map((r) => r.callId)).toEqual(['w-0', 'w-1', 'w-2', 'w-3', 'w-4', 'w-5']);
    expect(results.map((r) => failed(r.content))).toEqual([false, false, false, false, false, false]);
    // It links to lantern and nebula, which link to each other: it is written in their group.
    expect(results[0]?.content).toMatch(/^created wiki\/sources\/the-notes\.md \(\d+ characters\), written together with the pages it links to that this answer wrote \(\[\[lantern\]\], \[\[nebula\]\]\): they link to each other/);
    results.shift();
    expect(results[4]?.content).toMatch(/^created wiki\/concepts\/quartz\.md \(\d+ characters\)/);
    expect(results[3]?.content).toMatch(/^created wiki\/concepts\/orchard\.md \(\d+ characters\), written after the pages it links to that this answer wrote \(\[\[quartz\]\]\)/);
    // lantern and nebula link to each other: written together.
    expect(results[0]?.content).toMatch(/written together with the pages it links to that this answer wrote \(\[\[nebula\]\]\)/);
    expect(results[2]?.content).toMatch(/written together with the pages it links to that this answer wrote \(\[\[lantern\]\]\)/);
    for (const key of ['lantern', 'meadow', 'nebula', 'orchard', 'quartz']) expect(exists(root, key)).toBe(true);
    expect(await readFile(path.join(root, pagePath('lantern')), 'utf8')).toContain('refs: [meadow, nebula]');

    const lint = await runCli(['lint', '--no-llm', '--json'], { cwd: root });
    const findings = (JSON.parse(lint.stdout) as { findings: Array<{ rule: string }> }).findings;
    expect(findings.filter((f) => f.rule === 'broken-link')).toEqual([]);
  });

  it('the played case of edits: an append to a page, two new pages, then edits linking that page to them — all land (it was refused, told to "create the page")', async () => {
    const root = await workspace();
    await writeFile(path.join(root, pagePath('lantern')), concept('Lantern'));
    const turn: ScriptStep = {
      toolCalls: [
        { id: 'w-0', name: 'write_file', arguments: { path: 'wiki/sources/the-notes.md', content: sourcePage(['lantern']) } },
        { id: 'a-1', name: 'append_to_file', arguments: { path: pagePath('lantern'), content: '\nMore on the lantern. <!-- from: raw/notes.md#L4 -->\n' } },
        { id: 'w-2', ...write('meadow', concept('Meadow', ['nebula', 'lantern'])) },
        { id: 'w-3', ...write('nebula', concept('Nebula', ['meadow'])) },
        { id: 'e-4', name: 'write_file', arguments: { path: pagePath('lantern'), edits: [{ old: 'Lantern is explained in the notes.', new: 'Lantern is explained in the notes, beside [[meadow]] and [[nebula]].' }] } },
      ],
    };
    const { results } = await ingest(root, api, turn);
    expect(results.map((r) => failed(r.content))).toEqual([false, false, false, false, false]);
    expect(results[4]?.content).toMatch(/^edited wiki\/concepts\/lantern\.md: 1 edit/);
    const lantern = await readFile(path.join(root, pagePath('lantern')), 'utf8');
    expect(lantern).toContain('beside [[meadow]] and [[nebula]]');
    expect(lantern).toContain('More on the lantern.');
  });

  it('a call that cannot wait (a later call names its page) is told its links name pages this answer writes, and to send it again — not to create them', async () => {
    const root = await workspace();
    await writeFile(path.join(root, pagePath('lantern')), concept('Lantern'));
    const turn: ScriptStep = {
      toolCalls: [
        { id: 'w-0', name: 'write_file', arguments: { path: 'wiki/sources/the-notes.md', content: sourcePage(['lantern']) } },
        { id: 'e-1', name: 'write_file', arguments: { path: pagePath('lantern'), edits: [{ old: 'Lantern is explained in the notes.', new: 'Lantern is explained in the notes, beside [[meadow]].' }] } },
        { id: 'w-2', ...write('meadow', concept('Meadow')) },
        { id: 'a-3', name: 'append_to_file', arguments: { path: pagePath('lantern'), content: '\nMore on the lantern. <!-- from: raw/notes.md#L4 -->\n' } },
      ],
    };
    const { results } = await ingest(root, api, turn);
    expect(failed(results[1]?.content)).toBe(true);
    expect(results[1]?.content).toContain('its links to [[meadow]] name pages later write_file calls of this answer write; it could not wait for them because call 4 of this answer also names wiki/concepts/lantern.md: once they are written, send it again for those links');
    expect(results[1]?.content).not.toMatch(/create the page|no existing page has a similar key/);
    expect(exists(root, 'meadow')).toBe(true);
  });

  it('a refusal for another reason names no link to a page that exists, even when a later call of the answer edits that page or reads this one', async () => {
    const root = await workspace();
    await writeFile(path.join(root, pagePath('lantern')), concept('Lantern'));
    await writeFile(path.join(root, pagePath('meadow')), concept('Meadow'));
    const turn: ScriptStep = {
      toolCalls: [
        { id: 'w-0', name: 'write_file', arguments: { path: 'wiki/sources/the-notes.md', content: sourcePage(['lantern']) } },
        { id: 'e-1', name: 'write_file', arguments: { path: pagePath('lantern'), edits: [{ old: 'summary: Lantern as the notes describe it.\n', new: '' }, { old: 'Lantern is explained in the notes.', new: 'Lantern is explained in the notes, beside [[meadow]].' }] } },
        { id: 'e-2', name: 'write_file', arguments: { path: pagePath('meadow'), edits: [{ old: 'Meadow is explained in the notes.', new: 'Meadow is explained in the notes, near the lantern.' }] } },
        { id: 'r-3', name: 'read_file', arguments: { path: pagePath('lantern') } },
      ],
    };
    const { results } = await ingest(root, api, turn);
    expect(failed(results[1]?.content)).toBe(true);
    expect(results[1]?.content).not.toContain('could not wait');
    expect(results[1]?.content).not.toContain('[[meadow]]');
  });

  it('an append that cannot wait (a later call edits its page) is told its links name pages this answer writes, and to send it again — not to create them (played: "create the page")', async () => {
    const root = await workspace();
    await writeFile(path.join(root, pagePath('lantern')), concept('Lantern'));
    const turn: ScriptStep = {
      toolCalls: [
        { id: 'w-0', name: 'write_file', arguments: { path: 'wiki/sources/the-notes.md', content: sourcePage(['lantern']) } },
        { id: 'a-1', name: 'append_to_file', arguments: { path: pagePath('lantern'), content: '\nSee [[meadow]] and [[nebula]]. <!-- from: raw/notes.md#L4 -->\n' } },
        { id: 'e-2', name: 'write_file', arguments: { path: pagePath('lantern'), edits: [{ old: 'Lantern is explained in the notes.', new: 'Lantern is explained in the notes, beside [[meadow]].' }] } },
        { id: 'w-3', ...write('meadow', concept('Meadow', ['lantern'])) },
        { id: 'w-4', ...write('nebula', concept('Nebula')) },
      ],
    };
    const { results } = await ingest(root, api, turn);
    expect(failed(results[1]?.content)).toBe(true);
    expect(results[1]?.content).toContain('its links to [[meadow]], [[nebula]] name pages write_file calls of this answer write; it could not wait for them because call 3 of this answer also names wiki/concepts/lantern.md: once they are written, send it again');
    expect(results[1]?.content).not.toMatch(/create the page|no existing page has a similar key/);
    expect(results.slice(2).map((r) => failed(r.content))).toEqual([false, false, false]);
  });

  it('a cycle A↔B in one answer writes both', async () => {
    const root = await workspace();
    const { result, results } = await ingest(root, api, {
      toolCalls: [write('anchor', concept('Anchor', ['bramble'])), write('bramble', concept('Bramble', ['anchor']))],
    });
    expect(result.code).toBe(1); // no source page: the ingest is incomplete, which is not this test's point
    expect(results.map((r) => failed(r.content))).toEqual([false, false]);
    expect(exists(root, 'anchor') && exists(root, 'bramble')).toBe(true);
  });

  it('a lone write with a truly broken link is refused exactly as before', async () => {
    const root = await workspace();
    const { results } = await ingest(root, api, { toolCalls: [write('anchor', concept('Anchor', ['nowhere-page']))] });
    expect(results).toHaveLength(1);
    expect(results[0]?.content).toMatch(/^(Error: )?rejected: wiki\/concepts\/anchor\.md was not written\. Fix every point below and call write_file again with the whole page:\n- /);
    expect(results[0]?.content).toContain('names a missing page "nowhere-page"');
    expect(results[0]?.content).not.toContain('this answer');
    expect(exists(root, 'anchor')).toBe(false);
  });
});

describe('what the turn does not let through', () => {
  it('a cycle whose second page is refused for another reason writes neither, naming the refused page', async () => {
    const root = await workspace();
    const bad = concept('Bramble', ['anchor']).replace('type: concept\n', 'type: concept\nupdated_by: model\n').replace('summary: Bramble as the notes describe it.\n', '');
    const { results } = await ingest(root, 'anthropic', { toolCalls: [write('anchor', concept('Anchor', ['bramble'])), write('bramble', bad)] });
    expect(results.map((r) => r.isError)).toEqual([true, true]);
    expect(results[1]?.content).toMatch(/summary/);
    expect(results[0]?.content).toContain('[[bramble]] was to be written by another write_file call of this answer (wiki/concepts/bramble.md), but that call was refused');
    // The link is right: the refusal must not invite dropping it.
    expect(results[0]?.content).not.toMatch(/no existing page has a similar key|create the page/);
    expect(exists(root, 'anchor') || exists(root, 'bramble')).toBe(false);
  });

  it.each(['anthropic', 'openai'] as const)('a page linking to one an earlier call of the answer failed to write names that call and its reason (%s)', async (api) => {
    // The played case: one unquoted colon in a summary refused the page, and its sibling was told "create the page … or remove the link".
    const bad = concept('Bramble').replace('summary: Bramble as the notes describe it.', 'summary: Bramble: as the notes describe it');
    const root = await workspace();
    await writeFile(path.join(root, pagePath('anchor')), concept('Anchor'));
    const { results } = await ingest(root, api, {
      toolCalls: [
        write('bramble', bad),
        write('cascade', concept('Cascade', ['bramble'])),
        { name: 'write_file', arguments: { path: pagePath('anchor'), edits: [{ old: 'Anchor is explained in the notes.', new: 'Anchor is explained in the notes, beside [[bramble]].' }] } },
        { name: 'append_to_file', arguments: { path: pagePath('anchor'), content: 'See also [[bramble]].' } },
      ],
    });
    expect(results.map((r) => r.isError)).toEqual([true, true, true, true]);
    expect(results[0]?.content).toContain('frontmatter field "summary" does not parse');
    for (const result of results.slice(1)) {
      expect(result.content).toContain('[[bramble]] was to be written by another write_file call of this answer (wiki/concepts/bramble.md), but that call was refused');
      expect(result.content).not.toMatch(/no existing page has a similar key|create the page|names a missing page/);
    }
    expect(results[1]?.content).toContain('(its first reason: frontmatter (line 3): frontmatter field "summary" does not parse');
    expect(exists(root, 'bramble') || exists(root, 'cascade')).toBe(false);
  });

  it('pages linking in a circle are checked against each other too: two near-duplicates are both refused', async () => {
    const root = await workspace();
    const { results } = await ingest(root, 'openai', {
      toolCalls: [write('kettle-drum', concept('Kettle drum', ['kettle-drums'])), write('kettle-drums', concept('Kettle drums', ['kettle-drum']))],
    });
    expect(results.map((r) => failed(r.content))).toEqual([true, true]);
    expect(results[0]?.content).toContain('near-duplicate: key "kettle-drum" is nearly the same as [[kettle-drums]] (wiki/concepts/kettle-drums.md)');
    expect(exists(root, 'kettle-drum') || exists(root, 'kettle-drums')).toBe(false);
  });

  it('a chain ending in a refused page is refused link by link, and nothing half-linked is written', async () => {
    const root = await workspace();
    const bad = concept('Cascade').replace('sources: [raw/notes.md]\n', 'sources: [raw/missing.md]\n');
    const { results } = await ingest(root, 'openai', {
      toolCalls: [write('anchor', concept('Anchor', ['bramble'])), write('bramble', concept('Bramble', ['cascade'])), write('cascade', bad)],
    });
    expect(results.map((r) => failed(r.content))).toEqual([true, true, true]);
    expect(results[0]?.content).toContain('[[bramble]] was to be written by another write_file call of this answer');
    expect(results[1]?.content).toContain('[[cascade]] was to be written by another write_file call of this answer');
    // The first page is told the cause at the chain's end, not a note about a note cut short (a played chain read "(its first reason: front…)").
    expect(results[0]?.content).toMatch(/its first reason: it links to \[\[cascade\]\], which was refused: .*raw\/missing\.md/);
    for (const key of ['anchor', 'bramble', 'cascade']) expect(exists(root, key)).toBe(false);
  });

  it('a link to a key a later call writes outside the type folders, or where the sandbox refuses, is refused as broken', async () => {
    const root = await workspace();
    const { results } = await ingest(root, 'anthropic', {
      toolCalls: [
        write('anchor', concept('Anchor', ['bramble'])),
        { name: 'write_file', arguments: { path: 'wiki/bramble.md', content: concept('Bramble') } },
        write('cascade', concept('Cascade', ['dolphin'])),
        { name: 'write_file', arguments: { path: '../outside/dolphin.md', content: concept('Dolphin') } },
        write('ember', concept('Ember', ['falcon'])),
        { name: 'write_file', arguments: { path: 'raw/falcon.md', content: concept('Falcon') } },
      ],
    });
    expect(results.map((r) => r.isError)).toEqual([true, true, true, true, true, true]);
    expect(results[1]?.content).toMatch(/^refused: wiki\/bramble\.md is outside the page folders/);
    expect(results[0]?.content).toContain('[[bramble]] was to be written by another write_file call of this answer (wiki/bramble.md), but that call was refused');
    expect(results[2]?.content).toContain('names a missing page "dolphin"');
    expect(results[4]?.content).toContain('[[falcon]] was to be written by another write_file call of this answer (raw/falcon.md), but that call was refused');
    expect(existsSync(path.join(root, 'wiki/bramble.md')) || existsSync(path.join(root, 'raw/falcon.md'))).toBe(false);
    for (const key of ['anchor', 'cascade', 'ember']) expect(exists(root, key)).toBe(false);
  });

  it('two writes of the same path in one answer run in order and are never held: the later one lands', async () => {
    const root = await workspace();
    const { results } = await ingest(root, 'anthropic', {
      toolCalls: [
        write('anchor', concept('Anchor', ['bramble'], 'First version.\n')),
        write('bramble', concept('Bramble')),
        write('anchor', concept('Anchor', [], 'Second version.\n')),
      ],
    });
    // The first anchor names a path the answer writes again: checked at once, and told why its link could not wait.
    expect(results[0]?.isError).toBe(true);
    expect(results[0]?.content).toContain('its links to [[bramble]] name pages later write_file calls of this answer write; it could not wait for them because call 3 of this answer also names wiki/concepts/anchor.md');
    expect(results.slice(1).map((r) => r.isError)).toEqual([false, false]);
    expect(await readFile(path.join(root, pagePath('anchor')), 'utf8')).toContain('Second version.');
  });

  it('forty pages in one answer, each linking to the next and the last to the first, are all written', async () => {
    const root = await workspace();
    const words = [
      'anchor', 'bramble', 'cascade', 'dolphin', 'ember', 'falcon', 'glacier', 'harbor', 'iris', 'juniper',
      'kettle', 'lantern', 'meadow', 'nebula', 'orchard', 'pepper', 'quartz', 'river', 'saffron', 'thistle',
      'tundra', 'velvet', 'willow', 'xylem', 'yarrow', 'zephyr', 'basalt', 'cobalt', 'drizzle', 'fennel',
      'granite', 'hazel', 'indigo', 'jasmine', 'kelp', 'lichen', 'marble', 'nutmeg', 'obsidian', 'pumice',
    ];
    const calls = words.map((word, i) => write(word, concept(word[0]?.toUpperCase() + word.slice(1), [words[(i + 1) % words.length] ?? ''])));
    const { results } = await ingest(root, 'openai', { toolCalls: calls });
    expect(results).toHaveLength(40);
    expect(results.filter((r) => failed(r.content))).toEqual([]);
    for (const word of words) expect(exists(root, word)).toBe(true);
  });

  it('a dry run reports the held pages written and leaves the workspace as it was', async () => {
    const root = await workspace();
    const before = await hashTree(root);
    const { result, results } = await ingest(
      root,
      'anthropic',
      { toolCalls: [write('anchor', concept('Anchor', ['bramble'])), write('bramble', concept('Bramble', ['anchor']))] },
      ['--dry-run'],
    );
    expect(result.code).toBe(1); // no source page: the ingest is incomplete, which is not this test's point
    expect(results.map((r) => r.isError)).toEqual([false, false]);
    expect(results[0]?.content).toMatch(/written together with the pages it links to that this answer wrote \(\[\[bramble\]\]\)/);
    expect(await hashTree(root)).toEqual(before);
  });

  it('undo of such a run restores every page', async () => {
    const root = await workspace();
    await writeFile(path.join(root, pagePath('anchor')), concept('Anchor', [], 'Kept by the owner before the run.\n'));
    const before = await readFile(path.join(root, pagePath('anchor')), 'utf8');
    const { results } = await ingest(root, 'anthropic', {
      toolCalls: [write('anchor', concept('Anchor', ['bramble'], 'Kept by the owner before the run.\n')), write('bramble', concept('Bramble', ['anchor']))],
    });
    expect(results.map((r) => r.isError)).toEqual([false, false]);
    const undo = await runCli(['undo', '--yes'], { cwd: root });
    expect(undo.code).toBe(0);
    expect(await readFile(path.join(root, pagePath('anchor')), 'utf8')).toBe(before);
    expect(exists(root, 'bramble')).toBe(false);
  });
});
