import type { Command } from 'commander';
import { load } from '../cli/lazy.js';
import { openWorkspace, outputFor } from '../cli/context.js';

export function registerStore(program: Command): void {
  const store = program
    .command('store')
    .description('the Postgres database search and facts are kept in when store.kind is postgres: init, sync')
    .addHelpText(
      'after',
      '\nThe database is WIKI_DATABASE_URL (else store.url, else libpq\'s PGHOST/PGPORT/PGDATABASE/PGUSER);\na password comes from PGPASSWORD or ~/.pgpass, TLS from PGSSLMODE.\n\nExamples:\n  $ wiki config set store.kind postgres\n  $ WIKI_DATABASE_URL=postgres://wiki@db.example/wiki wiki store init\n  $ wiki store sync',
    );

  store
    .command('init')
    .description('create the schema (tables, the schema version, and the vector extension where the server has it); --rebuild drops and recreates it (the migration from another schema version)')
    .option('--rebuild', 'drop the wiki_* tables first: every row is derived from the pages, `wiki store sync` fills them again')
    .action(async (opts: { rebuild?: boolean }, command: Command) => {
      const out = outputFor(command);
      const ws = await openWorkspace(command, {}, { modelFree: true });
      const [{ storeInit }] = await load('storeOperation');
      const report = await storeInit({ root: ws.root, contract: ws.schema.contract, config: ws.config.config }, { rebuild: opts.rebuild === true });
      out.result(report, () => `${report.created ? 'created' : 'already there'}: wiki schema version ${report.schemaVersion} in ${report.database}\nvectors: ${report.vectors}\n`);
    });

  store
    .command('sync')
    .description("offer the database this checkout's pages and raw/ sources' facts: each replaces the database's version only when newer; a page is deleted there only when this checkout's history deleted it after that version")
    .action(async (_opts: unknown, command: Command) => {
      const out = outputFor(command);
      const ws = await openWorkspace(command, {}, { modelFree: true });
      const [{ storeSync }, { refreshFacts }] = await load('storeOperation', 'factsOperation');
      const pages = await storeSync({ root: ws.root, contract: ws.schema.contract, config: ws.config.config });
      // The facts too: extracted from raw/ into the local cache, then each source newer than the database's stored.
      const facts = (await refreshFacts(ws.root, ws.config)).database;
      const report = { ...pages, facts };
      out.result(
        report,
        () =>
          `${report.pages} page(s) in this checkout, ${report.offered} differing from ${report.database}, ${report.accepted} newer and stored${report.deleted > 0 ? `, ${report.deleted} deleted (by commits newer than the database's version)` : ''}\n` +
          `the database holds ${report.store.pages} page(s)${report.store.deleted > 0 ? ` and ${report.store.deleted} deletion(s)` : ''}\n` +
          (facts ? `facts: ${facts.offered} source(s) of raw/ differing from the database's, ${facts.accepted} newer and stored\n` : ''),
      );
    });
}
