import { describe, expect, it } from 'vitest';
import { mergeChanges, type ChangedFile } from '../../src/agent/changes.js';

describe('mergeChanges', () => {
  const cases: Array<{ name: string; changes: ChangedFile[]; merged: ChangedFile[] }> = [
    {
      name: 'created then updated stays created',
      changes: [{ path: 'a', change: 'created' }, { path: 'a', change: 'updated' }],
      merged: [{ path: 'a', change: 'created' }],
    },
    {
      name: 'appended then updated becomes updated',
      changes: [{ path: 'a', change: 'appended' }, { path: 'a', change: 'updated' }],
      merged: [{ path: 'a', change: 'updated' }],
    },
    {
      name: 'updated then appended stays updated',
      changes: [{ path: 'a', change: 'updated' }, { path: 'a', change: 'appended' }],
      merged: [{ path: 'a', change: 'updated' }],
    },
    {
      name: 'paths keep the order of their first change',
      changes: [{ path: 'b', change: 'appended' }, { path: 'a', change: 'created' }, { path: 'b', change: 'created' }],
      merged: [{ path: 'b', change: 'created' }, { path: 'a', change: 'created' }],
    },
  ];
  it.each(cases)('$name', ({ changes, merged }) => {
    expect(mergeChanges([], changes)).toEqual(merged);
  });

  it('does not modify its inputs', () => {
    const into: ChangedFile[] = [{ path: 'a', change: 'appended' }];
    mergeChanges(into, [{ path: 'a', change: 'created' }]);
    expect(into).toEqual([{ path: 'a', change: 'appended' }]);
  });
});
