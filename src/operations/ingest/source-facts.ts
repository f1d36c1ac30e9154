import { factsDbFile } from '../../facts/extract.js';
import { FactStore } from '../../facts/store.js';
import type { FactLines, SourceFacts } from '../../tools/context.js';

/**
 * read_file's view of `.wiki/facts.db` for one run: the store is opened read-only on the
 * first source window read and closed with the run. Without a store, or where SQLite
 * cannot load (ingest has already said so), windows simply show no fact ids.
 */
/**
 * Whether schema.md asks the model to cite facts as footnotes (`[^f-…]`): only then do
 * source windows list the fact ids of their lines. Otherwise the ids would be payload the
 * model has no use for (a few KB a window); facts.db, grounding and `wiki facts` work as
 * before either way.
 */
export function schemaAsksForFactIds(schemaText: string): boolean {
  return /\[\^f-/.test(schemaText);
}

export class RunSourceFacts {
  private store: Promise<FactStore | undefined> | undefined;

  constructor(private readonly root: string) {}

  readonly lookup: SourceFacts = async (source, first, last): Promise<readonly FactLines[]> => {
    const store = await this.open();
    return store ? store.factLinesOfSource(source, first, last) : [];
  };

  private open(): Promise<FactStore | undefined> {
    this.store ??= FactStore.openExisting(factsDbFile(this.root)).catch(() => undefined);
    return this.store;
  }

  async close(): Promise<void> {
    (await this.store)?.close();
    this.store = undefined;
  }
}
