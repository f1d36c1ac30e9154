import { describe, expect, it } from 'vitest';
import { mergeOnto } from '../../../src/operations/review/merge.js';

const base = ['---', 'title: Beta', 'summary: A dataset.', '---', '', 'Para one.', '', 'Para two.', '', 'Para three.', '', 'Para four.', ''].join('\n');

describe('mergeOnto: a proposal onto the page as it is now', () => {
  it('an unchanged page takes the proposal as it is', () => {
    const proposed = base.replace('Para four.', 'Para four, revised.');
    expect(mergeOnto(base, base, proposed)).toEqual({ text: proposed });
  });

  it('an edit elsewhere on the page merges, keeping both', () => {
    const proposed = base.replace('Para four.', 'Para four, revised.');
    const current = base.replace('title: Beta', 'title: Beta, edited');
    expect(mergeOnto(base, current, proposed)).toEqual({ text: current.replace('Para four.', 'Para four, revised.') });
  });

  it('an edit of the lines the proposal changes (or their context) does not merge', () => {
    const proposed = base.replace('Para four.', 'Para four, revised.');
    expect(mergeOnto(base, base.replace('Para four.', 'Para 4.'), proposed)).toBeUndefined();
    expect(mergeOnto(base, base.replace('Para three.', 'Para 3.'), proposed)).toBeUndefined();
  });

  it('a page created by the run and by someone else meanwhile, or removed since, does not merge', () => {
    expect(mergeOnto(undefined, 'other\n', 'mine\n')).toBeUndefined();
    expect(mergeOnto(base, undefined, base.replace('Para one.', 'x'))).toBeUndefined();
    expect(mergeOnto(undefined, 'same\n', 'same\n')).toEqual({ text: 'same\n' });
  });
});
