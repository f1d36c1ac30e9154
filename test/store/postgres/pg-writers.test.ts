import { once } from 'node:events';
import { expect, it } from 'vitest';
import { openSearchIndex } from '../../../src/store/open-index.js';
import { Database } from '../../../src/store/postgres/connection.js';
import { offerVersions } from '../../../src/store/postgres/page-rows.js';
import type { PostgresSearchIndex } from '../../../src/store/postgres/pg-index.js';
import { initSchema } from '../../../src/store/postgres/schema.js';
import { contentHash } from '../../../src/search/text/document.js';
import { configWith, pageText, TOPIC_PAGES, workspaceWith } from '../../search/helpers.js';
import { describeWithPostgres, freshDatabase } from '../../helpers/postgres.js';

const pgConfig = (url: string) => configWith({}, { store: { kind: 'postgres', url } });
const PAGE = 'wiki/concepts/contested.md';

describeWithPostgres('concurrent writers on one database', () => {
  it('many writes of one page at once leave one row, the newest, and every replica holding it', async () => {
    const url = await freshDatabase();
    const setup = await Database.connect(pgConfig(url), {});
    await initSchema(setup);
    const open = async () => (await openSearchIndex((await workspaceWith(TOPIC_PAGES)).root, (await workspaceWith({})).schema, pgConfig(url), { env: {}, rescanAfterMs: 60_000 })) as PostgresSearchIndex;
    const replicas = [await open(), await open()];
    // Twenty writers, each its own connection, offering versions stamped 1…20 in a shuffled order.
    const stamps = Array.from({ length: 20 }, (_, i) => i + 1).sort((a, b) => ((a * 7919) % 23) - ((b * 7919) % 23));
    const writers = await Promise.all(stamps.map(() => Database.connect(pgConfig(url), {})));
    const settled = replicas.map((replica) => once(replica.events, 'applied'));
    await Promise.all(
      stamps.map((stamp, i) => {
        const content = pageText('Contested', `version ${stamp}`, `Written by writer ${stamp}.`);
        return offerVersions(writers[i]!, [{ path: PAGE, content, hash: contentHash(content), visibility: 'public', stamp }], `writer-${stamp}`);
      }),
    );
    await Promise.all(settled);
    for (const writer of writers) await writer.close();
    const rows = await setup.query<{ stamp: string; n: number }>('SELECT stamp, count(*) OVER ()::int AS n FROM wiki_pages WHERE path = $1', [PAGE]);
    expect(rows).toEqual([{ stamp: '20', n: 1 }]);
    for (const replica of replicas) {
      await replica.refresh();
      const hit = (await replica.search('contested', { limit: 3 })).results.find((r) => r.path === PAGE);
      expect(hit?.summary).toBe('version 20');
    }
    // A write stamped older than the row changes nothing, on the database or on any replica.
    const late = pageText('Contested', 'version 5 again', 'Late.');
    const { accepted } = await offerVersions(setup, [{ path: PAGE, content: late, hash: contentHash(late), visibility: 'public', stamp: 5 }], 'late');
    expect(accepted).toEqual([]);
    await setup.close();
    for (const replica of replicas) await replica.close();
  });
});
