import { describe, expect, it } from 'vitest';
import { planFixes, type FixInput } from '../../src/wiki/fix.js';
import { rewriteLinkTargets } from '../../src/wiki/link-rewrite.js';
import { parsePage, serialisePage, splitFrontmatter } from '../../src/wiki/page.js';
import { contract, healthyWiki, indexFor, INDEX_TEMPLATE, lint, page } from './lint-fixture.js';

const TIMES = { created: '2026-01-10', updated: '2026-01-20' };
const SRC = '[raw/attention.md]';

function input(files: Record<string, string>, hubThreshold = 300): FixInput {
  const spokeTexts = new Map(Object.entries(files).filter(([p]) => /^wiki\/index-/.test(p)));
  return {
    contract,
    hubThreshold,
    files: Object.entries(files).map(([path, text]) => ({ path, text, times: TIMES })),
    index: { indexText: files['wiki/index.md'], fallbackIndexText: INDEX_TEMPLATE, spokeTexts },
    logText: files['wiki/log.md'],
  };
}

/** Run the planner and apply its writes and deletions to the in-memory files. */
function fix(files: Record<string, string>, hubThreshold = 300): { files: Record<string, string>; changes: string[] } {
  const plan = planFixes(input(files, hubThreshold));
  const next = { ...files };
  for (const write of plan.writes) next[write.path] = write.content;
  for (const gone of plan.deletes) delete next[gone];
  return { files: next, changes: plan.changes };
}

const bodyOf = (text: string | undefined): string => splitFrontmatter(text ?? '').body;

function messyWiki(): Record<string, string> {
  const files = healthyWiki();
  files['wiki/index.md'] = indexFor(healthyWiki()).replace('<!-- wiki:catalog:end -->', '- [[ghost]] — gone\n<!-- wiki:catalog:end -->');
  files['wiki/concepts/transformer.md'] = [
    '---',
    'sources: [raw/attention.md]',
    'summary: A sequence model.',
    'title: Transformer',
    'refs: [attention-papers, "[[google-brain]]"]',
    '---',
    'Introduced in [[Attention-Paper|the paper]]  and [[attention-papers#Results]].',
    '',
    'Code keeps `[[attention-papers]]` and prose keeps "attention-papers" as typed.',
    '',
    '```',
    '[[attention-papers]]',
    '```',
    'Unsure: [[tokenizers]]. Unknown: [[quantum-gravity]].',
    '',
  ].join('\n');
  files['wiki/concepts/tokenizer.md'] = page({ title: 'Tokenizer', summary: 'Splits text.', sources: SRC }, 'See [[transformer]] and [[tokeniser]].');
  files['wiki/concepts/tokeniser.md'] = page({ title: 'Tokeniser (en-GB)', summary: 'Same, British.', sources: SRC }, 'See [[tokenizer]].');
  files['wiki/entities/new-team.md'] = 'No frontmatter at all, links [[google-brain]].\n';
  files['wiki/concepts/broken.md'] = '---\ntitle: [oops\n---\nLinks [[attention-papers]].\n';
  return files;
}

describe('planFixes', () => {
  it('rewrites a broken link only to a unique near match, touching nothing but the target text', () => {
    const { files, changes } = fix(messyWiki());
    const before = bodyOf(messyWiki()['wiki/concepts/transformer.md']);
    const after = bodyOf(files['wiki/concepts/transformer.md']);
    expect(after).toBe(
      before
        .replace('[[Attention-Paper|the paper]]', '[[attention-paper|the paper]]')
        .replace('[[attention-papers#Results]]', '[[attention-paper#Results]]'),
    );
    const fm = parsePage('wiki/concepts/transformer.md', files['wiki/concepts/transformer.md'] ?? '', contract).frontmatter;
    expect(fm.refs).toEqual(['attention-paper', '[[google-brain]]']);
    expect(changes).toContain('wiki/concepts/transformer.md: link `[[attention-papers]]` → `[[attention-paper]]`');
    expect(changes).toContain('wiki/concepts/transformer.md: link `[[Attention-Paper]]` → `[[attention-paper]]`');
    // [[tokenizers]] is near both tokenizer and tokeniser: ambiguous, so left and still reported.
    expect(after).toContain('[[tokenizers]]');
    expect(after).toContain('[[quantum-gravity]]');
    const left = lint(files).filter((f) => f.rule === 'broken-link').map((f) => f.message);
    expect(left).toHaveLength(3);
    expect(left.join('\n')).toMatch(/tokenizers.*close matches: \[\[tokenizer\]\], \[\[tokeniser\]\]/);
  });

  it.each<[string, string[], string | undefined]>([
    ['transformers', ['transformer'], 'transformer'],
    ['Transformer', ['transformer'], 'transformer'],
    ['atention', ['attention'], 'attention'],
    ['mid-cap', ['midcap'], 'midcap'],
    ['tokenizers', ['tokenizer', 'tokeniser'], undefined],
    ['model-c', ['model-a'], undefined],
    ['gpt-5', ['gpt-4'], undefined],
    ['attention-maps-x', ['attention-map'], undefined],
  ])('a link to [[%s]] with pages %j is rewritten to %s', (target, existing, expected) => {
    const files: Record<string, string> = { 'wiki/log.md': '# Log\n' };
    for (const key of existing) files[`wiki/concepts/${key}.md`] = page({ title: key, summary: 'S.', sources: SRC }, 'x');
    files['wiki/concepts/zz-linker.md'] = page({ title: 'Linker', summary: 'S.', sources: SRC }, `See [[${target}]].`);
    const body = bodyOf(fix(files).files['wiki/concepts/zz-linker.md']);
    expect(body).toContain(`See [[${expected ?? target}]].`);
  });

  it('fills type from the folder and created/updated from file times, keeping the owner\'s field order', () => {
    const { files, changes } = fix(messyWiki());
    const text = files['wiki/concepts/transformer.md'] ?? '';
    expect(text.split('---\n')[1]).toBe(
      'sources: [raw/attention.md]\nsummary: A sequence model.\ntitle: Transformer\ntype: concept\nrefs: [attention-paper, "[[google-brain]]"]\ncreated: 2026-01-10\nupdated: 2026-01-20\n',
    );
    expect(changes).toContain('wiki/concepts/transformer.md: set type: concept (from the folder)');
    expect(changes).toContain('wiki/concepts/transformer.md: set created: 2026-01-10, updated: 2026-01-20 (from file times)');
    expect(files['wiki/entities/new-team.md']).toBe('---\ntype: entity\nrefs: [google-brain]\ncreated: 2026-01-10\nupdated: 2026-01-20\n---\n\nNo frontmatter at all, links [[google-brain]].\n');
  });

  it('edits only the lines it repairs: the owner\'s comments, quoting, folded summary and block lists survive', () => {
    const files = healthyWiki();
    const owner = [
      '---',
      '# Owned by the research team; ask Ana before changing the summary.',
      "title: 'Transformer'",
      'summary: >-',
      '  A sequence model built on attention,',
      '  folded over two lines.',
      'tags:',
      '  - architecture   # the tag the team filters on',
      '  - "nlp"',
      'refs:',
      '  - attention-papers',
      'sources: [raw/attention.md]',
      '---',
      'From [[attention-paper]] and [[google-brain]].',
      '',
    ].join('\n');
    files['wiki/concepts/transformer.md'] = owner;
    files['wiki/index.md'] = indexFor(files);
    const { files: after, changes } = fix(files);
    const text = after['wiki/concepts/transformer.md'] ?? '';
    expect(changes.filter((c) => c.startsWith('wiki/concepts/transformer.md'))).toEqual([
      'wiki/concepts/transformer.md: link `[[attention-papers]]` → `[[attention-paper]]`',
      'wiki/concepts/transformer.md: added to refs: google-brain (linked from the body)',
      'wiki/concepts/transformer.md: set type: concept (from the folder)',
      'wiki/concepts/transformer.md: set created: 2026-01-10, updated: 2026-01-20 (from file times)',
    ]);
    // Every line of the owner's block is still there, in its order; only the repaired lines are new or changed.
    const ownerLines = owner.split('\n').filter((line) => !line.includes('attention-papers'));
    const lines = text.split('\n');
    let at = 0;
    for (const line of ownerLines) {
      const found = lines.indexOf(line, at);
      expect(found, line).toBeGreaterThanOrEqual(at);
      at = found + 1;
    }
    expect(text).toContain('  - attention-paper\n  - google-brain\n');
    expect(text).toMatch(/^ {2}folded over two lines\.\ntype: concept\ntags:\n/m);
    expect(parsePage('wiki/concepts/transformer.md', text, contract).frontmatter.summary).toBe('A sequence model built on attention, folded over two lines.');
  });

  it('reports the number of catalog entries it actually added: a scratch page, which the team catalog never lists, is not counted', () => {
    const files = healthyWiki();
    files['wiki/user/alice/concepts/alice-idea.md'] = page({ title: 'Idea', summary: 'Alice idea.', type: 'concept', sources: SRC, created: '2026-01-01', updated: '2026-01-02' }, 'See [[transformer]].');
    files['wiki/concepts/extra.md'] = page({ title: 'Extra', summary: 'An extra page.', type: 'concept', sources: SRC, created: '2026-01-01', updated: '2026-01-02' }, 'See [[transformer]].');
    files['wiki/index.md'] = indexFor(healthyWiki());
    const { files: after, changes } = fix(files);
    expect(changes).toContain('wiki/index.md: listed 1 unindexed page');
    expect(after['wiki/index.md']).toContain('[[extra]]');
    expect(after['wiki/index.md']).not.toContain('[[alice-idea]]');
  });

  it('never changes a page whose frontmatter does not parse', () => {
    const { files } = fix(messyWiki());
    expect(files['wiki/concepts/broken.md']).toBe(messyWiki()['wiki/concepts/broken.md']);
  });

  it('keeps every body byte for byte apart from rewritten link targets', () => {
    const original = messyWiki();
    const { files } = fix(original);
    for (const [p, text] of Object.entries(original)) {
      if (p === 'wiki/index.md' || p === 'wiki/concepts/transformer.md') continue;
      expect(bodyOf(files[p]).replace(/^\n/, ''), p).toBe(bodyOf(text).replace(/^\n/, ''));
    }
  });

  it('rebuilds the catalog: dead entries removed, new pages listed', () => {
    const { files, changes } = fix(messyWiki());
    expect(files['wiki/index.md']).not.toContain('[[ghost]]');
    expect(files['wiki/index.md']).toContain('- [[tokeniser]] — Same, British.');
    expect(changes).toContain('wiki/index.md: listed 4 unindexed pages; removed dead entry `[[ghost]]`');
    // Listing a page does not adopt it: an unlinked page stays an orphan, as `wiki graph` counts it.
    expect(lint(files).filter((f) => ['unindexed', 'dead-index-entry'].includes(f.rule))).toEqual([]);
  });

  it('is idempotent: planning again over the result changes nothing', () => {
    const once = fix(messyWiki());
    expect(once.changes.length).toBeGreaterThan(0);
    const twice = planFixes(input(once.files));
    expect(twice).toEqual({ writes: [], deletes: [], changes: [], refused: [] });
  });

  it('is idempotent across the hub-and-spoke switch too', () => {
    const once = fix(messyWiki(), 3);
    expect(Object.keys(once.files).filter((p) => p.startsWith('wiki/index-')).sort()).toEqual([
      'wiki/index-concept.md',
      'wiki/index-entity.md',
      'wiki/index-source.md',
    ]);
    expect(planFixes(input(once.files, 3)).changes).toEqual([]);
    expect(lint(once.files).filter((f) => ['unindexed', 'dead-index-entry', 'frontmatter'].includes(f.rule))).toEqual([
      expect.objectContaining({ rule: 'frontmatter', path: 'wiki/concepts/broken.md' }),
    ]);
    const back = fix(once.files, 300);
    expect(back.changes).toContain('wiki/index-concept.md: removed (the catalog no longer needs this spoke page)');
    expect(Object.keys(back.files).filter((p) => p.startsWith('wiki/index-'))).toEqual([]);
  });

  it('changes nothing on a healthy wiki whose fields are complete and in order', () => {
    const files = healthyWiki();
    for (const [p, text] of Object.entries(files)) {
      if (p === 'wiki/log.md') continue;
      const parsed = parsePage(p, text, contract);
      files[p] = serialisePage({ ...parsed.frontmatter, type: parsed.type, created: '2026-01-01', updated: '2026-01-02' }, parsed.body);
    }
    files['wiki/index.md'] = indexFor(files);
    expect(planFixes(input(files))).toEqual({ writes: [], deletes: [], changes: [], refused: [] });
  });

  it('adds body links missing from refs and cited files missing from sources, once (drift on older pages)', () => {
    const files = healthyWiki();
    files['wiki/concepts/transformer.md'] = page(
      { title: 'Transformer', summary: 'S.', refs: '[attention-paper]', sources: '[]', created: '2026-01-01', updated: '2026-01-02' },
      'From [[attention-paper]] and [[google-brain|Brain]] and [[gone]]. <!-- from: raw/attention.md#L1-2 --> <!-- from: raw/missing.md -->',
    );
    files['wiki/index.md'] = indexFor(files);
    const withRaw = { ...input(files), rawExists: (raw: string) => raw === 'raw/attention.md' };
    const plan = planFixes(withRaw);
    const text = plan.writes.find((w) => w.path === 'wiki/concepts/transformer.md')?.content ?? '';
    expect(text.split('---\n')[1]).toContain('refs: [attention-paper, google-brain]\nsources: [raw/attention.md]\ncreated: 2026-01-01\nupdated: 2026-01-02\n');
    expect(plan.changes).toContain('wiki/concepts/transformer.md: added to refs: google-brain (linked from the body)');
    expect(plan.changes).toContain('wiki/concepts/transformer.md: added to sources: raw/attention.md (cited in from-comments)');
    const fixed = { ...files, ...Object.fromEntries(plan.writes.map((w) => [w.path, w.content])) };
    expect(planFixes({ ...input(fixed), rawExists: withRaw.rawExists }).changes).toEqual([]);
    expect(lint(fixed).filter((f) => f.rule === 'frontmatter-drift')).toEqual([]);
  });

  it('starts a log when log.md is missing', () => {
    const files = healthyWiki();
    delete files['wiki/log.md'];
    files['wiki/index.md'] = indexFor(files);
    const plan = planFixes(input(files));
    expect(plan.changes.filter((c) => c.startsWith('wiki/log.md'))).toEqual(['wiki/log.md: created (it was missing)']);
  });
});

describe('rewriteLinkTargets', () => {
  it.each<[string, string]>([
    ['a [[old]] b', 'a [[new]] b'],
    ['[[ old |label]]', '[[ new |label]]'],
    ['[[concepts/old.md#H|x]]', '[[new#H|x]]'],
    ['`[[old]]` and [[old]]', '`[[old]]` and [[new]]'],
    ['[[older]] [[#old]]', '[[older]] [[#old]]'],
  ])('%s → %s', (body, expected) => {
    expect(rewriteLinkTargets(body, new Map([['old', 'new']]))).toBe(expected);
  });
});
