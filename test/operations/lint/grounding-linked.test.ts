import { describe, expect, it } from 'vitest';
import { linkedPages } from '../../../src/operations/lint/grounding-linked.js';
import { parsePage } from '../../../src/wiki/page.js';

const page = (path: string, body: string, extra = '') => parsePage(path, `---\ntitle: T\nsummary: S\n${extra}---\n\n${body}\n`);

describe('the linked pages an uncited claim may be grounded through', () => {
  const pages = [
    page('wiki/concepts/tides.md', 'The harbour tide turns twice a day at the northern pier.'),
    page('wiki/user/bob/concepts/lamps.md', 'The lighthouse lamp burns whale oil every night of the year.'),
    page('wiki/concepts/draft.md', 'The ferry sails at dawn from the old quay every morning.', 'usage_mode: never\n'),
  ];
  const linked = linkedPages(pages);

  it('a team page reads team pages only; a scratch page reads its own scope too; never another user\'s, nor a page kept from the model', () => {
    expect(linked.facts(['tides'], undefined).map((fact) => fact.text)).toEqual(['The harbour tide turns twice a day at the northern pier.']);
    expect(linked.facts(['lamps'], undefined)).toEqual([]);
    expect(linked.facts(['lamps'], 'alice')).toEqual([]);
    expect(linked.facts(['lamps'], 'bob').map((fact) => fact.text)).toEqual(['The lighthouse lamp burns whale oil every night of the year.']);
    expect(linked.facts(['draft'], undefined)).toEqual([]);
  });

  it('hashes what it would read: another user\'s page changing does not touch a team page\'s key', () => {
    const before = linked.hashOf(['lamps', 'tides'], undefined);
    const changed = linkedPages([pages[0]!, page('wiki/user/bob/concepts/lamps.md', 'The lamp burns gas now.'), pages[2]!]);
    expect(changed.hashOf(['lamps', 'tides'], undefined)).toBe(before);
    expect(changed.hashOf(['lamps', 'tides'], 'bob')).not.toBe(linked.hashOf(['lamps', 'tides'], 'bob'));
  });
});
