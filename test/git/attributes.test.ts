import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureMergeAttributes, MERGE_ATTRIBUTES } from '../../src/git/attributes.js';

describe('.gitattributes for a shared wiki', () => {
  it('adds the union merges a repository lacks, keeps its own lines, and adds nothing twice', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'wiki-attributes-'));
    await writeFile(path.join(root, '.gitattributes'), '*.pdf binary\nwiki/log.md   merge=union');
    expect(await ensureMergeAttributes(root)).toBe(true);
    const text = await readFile(path.join(root, '.gitattributes'), 'utf8');
    expect(text.startsWith('*.pdf binary\nwiki/log.md   merge=union\n\n')).toBe(true);
    for (const line of MERGE_ATTRIBUTES.filter((l) => l !== 'wiki/log.md merge=union')) expect(text).toContain(`${line}\n`);
    expect(text.match(/wiki\/log\.md/g)).toHaveLength(1);
    expect(await ensureMergeAttributes(root)).toBe(false);
    expect(await readFile(path.join(root, '.gitattributes'), 'utf8')).toBe(text);
  });
});
