import { describe, expect, it } from 'vitest';
import { withoutListEntry, withScalarField } from '../../src/wiki/frontmatter-lines.js';

const isX = (entry: string): boolean => entry.split('#')[0] === 'raw/x.md';

describe('frontmatter edits touch only their field\'s lines', () => {
  it('drops an entry from a flow list, keeping the others and a comment', () => {
    const text = '---\ntitle: A # the owner\'s title\nsources: [raw/x.md, "raw/y.md"] # two\n---\nBody.\n';
    expect(withoutListEntry(text, 'sources', isX)).toBe('---\ntitle: A # the owner\'s title\nsources: ["raw/y.md"] # two\n---\nBody.\n');
  });

  it('drops an entry from a block list, with a line range, keeping comments between items', () => {
    const text = '---\nsources:\n  - raw/y.md\n  # kept from the first draft\n  - raw/x.md#L3-9\nsummary: >-\n  folded\n  text\n---\nBody.\n';
    expect(withoutListEntry(text, 'sources', isX)).toBe('---\nsources:\n  - raw/y.md\n  # kept from the first draft\nsummary: >-\n  folded\n  text\n---\nBody.\n');
  });

  it('leaves a page without the field or frontmatter as it was', () => {
    expect(withoutListEntry('---\ntitle: A\n---\nB\n', 'sources', isX)).toBe('---\ntitle: A\n---\nB\n');
    expect(withoutListEntry('No frontmatter.\n', 'sources', isX)).toBe('No frontmatter.\n');
  });

  it('sets a scalar field in place or adds it at the end of the block', () => {
    expect(withScalarField('---\ntitle: A\n---\nB\n', 'archived_since', '2026-12-01')).toBe('---\ntitle: A\narchived_since: 2026-12-01\n---\nB\n');
    expect(withScalarField('---\narchived_since: 2020-01-01 # old\ntitle: A\n---\nB\n', 'archived_since', '2026-12-01')).toBe('---\narchived_since: 2026-12-01\ntitle: A\n---\nB\n');
  });
});
