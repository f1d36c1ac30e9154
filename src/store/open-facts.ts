import { hostname } from 'node:os';
import { factsDbFile } from '../facts/extract.js';
import { localFactReader, type FactReader } from '../facts/reader.js';
import { FactStore } from '../facts/store.js';
import type { StoreSettings } from './settings.js';

/**
 * Where `wiki facts` and `query --facts` read facts: the local store (`.wiki/facts.db`, the
 * default) or, with `store.kind: postgres`, the database every replica shares. An
 * unreachable database or one without this version's schema is an error (exit 2), never a
 * fall back to the local store. `deny` (sandbox.deny) keeps a denied source's facts out
 * whoever put them in the database.
 */
export async function openFactReader(root: string, config: StoreSettings, deny: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<FactReader> {
  if (config.store.kind !== 'postgres') return localFactReader(await FactStore.open(factsDbFile(root), { readonly: true }));
  const [{ connectChecked }, { PostgresFactReader }] = await Promise.all([import('./postgres/schema.js'), import('./postgres/pg-facts.js')]);
  return new PostgresFactReader(await connectChecked(config, env), deny);
}

export interface FactsPublishReport {
  database: string;
  /** Sources whose version differs from the database's (or, with `all`, every source held), and deletions recorded here. */
  offered: number;
  /** Offered versions newer than the database's, now its rows. */
  accepted: number;
}

/**
 * Offer the database this checkout's facts (its local extraction, in step with raw/): each
 * source's version replaces the database's only when newer; `all` (`wiki facts rebuild`)
 * offers every source, and replaces the database's facts of the same version with this
 * extraction. Undefined with the file store.
 */
export async function publishFacts(root: string, config: StoreSettings, options: { all?: boolean; env?: NodeJS.ProcessEnv } = {}): Promise<FactsPublishReport | undefined> {
  if (config.store.kind !== 'postgres') return undefined;
  const [{ connectChecked }, { offerSourceVersions, storedSources }, { checkoutSourceVersions }] = await Promise.all([
    import('./postgres/schema.js'),
    import('./postgres/fact-rows.js'),
    import('./postgres/fact-sources.js'),
  ]);
  const db = await connectChecked(config, options.env ?? process.env);
  try {
    const local = await FactStore.openExisting(factsDbFile(root));
    const stored = await storedSources(db);
    const versions = local ? await checkoutSourceVersions(root, local, stored, { all: options.all === true }) : [];
    local?.close();
    const accepted = await offerSourceVersions(db, versions, `${hostname()}:${process.pid}`, { sameStampReplaces: options.all === true });
    return { database: db.name, offered: versions.length, accepted: accepted.length };
  } finally {
    await db.close();
  }
}
