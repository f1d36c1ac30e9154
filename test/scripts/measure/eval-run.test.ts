import { describe, expect, it } from 'vitest';
import type { Collection } from '../../../scripts/measure/collection.js';
import { baselineRow, evaluateVariant, removeWorkspace, standardVariants, writeCollectionWorkspace } from '../../../scripts/measure/eval-run.js';

const collection: Collection = {
  name: 'tiny',
  docs: [
    { id: '1', title: 'wing flutter .', author: '', text: 'wing flutter . flutter of a swept wing at supersonic speed.' },
    { id: '2', title: 'boundary layer .', author: '', text: 'boundary layer . the laminar boundary layer on a flat plate.' },
    { id: '3', title: 'heat transfer .', author: '', text: 'heat transfer . heat transfer to a blunt body in hypersonic flow.' },
    { id: '4', title: 'shock waves .', author: '', text: 'shock waves . shock wave interaction with a boundary layer.' },
  ],
  queries: [
    { id: '1', text: 'flutter of wings' },
    { id: '2', text: 'laminar boundary layer' },
  ],
  qrels: new Map([
    ['1', new Map([['1', 2]])],
    ['2', new Map([['2', 3], ['4', 1]])],
  ]),
};

describe('eval run', () => {
  it('turns a collection into pages, searches every query and scores the runs', async () => {
    const root = await writeCollectionWorkspace(collection);
    try {
      const baseline = baselineRow(collection, true);
      expect(baseline.ndcg10).toBeGreaterThan(0.9);
      const rows = [];
      for (const variant of standardVariants()) rows.push(await evaluateVariant(root, collection, variant));
      expect(rows.map((row) => row.name)).toEqual(['lexical alone', 'semantic alone', 'token alone', 'fused']);
      const lexical = rows[0];
      expect(lexical?.ndcg10).toBeGreaterThan(0.9);
      expect(lexical?.recall100).toBe(1);
    } finally {
      await removeWorkspace(root);
    }
  });
});
