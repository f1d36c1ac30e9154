import { readFileSync } from 'node:fs';
import path from 'node:path';
import { stateFileStamp } from '../state/json-file.js';
import type { Schema } from '../wiki/contract.js';
import { parseSchema } from '../wiki/schema-loader.js';
import { SCHEMA_FILE } from '../wiki/workspace.js';

/**
 * schema.md as it is now, for a server that outlives an edit of it: each `current()` costs
 * one stat, and a changed file is read and parsed again, so a visibility level added while
 * the server runs is known to the next call. A schema.md that no longer parses keeps the
 * last good contract (said once on the log): a level it does not know is the most
 * restrictive (wiki/access.ts), so what the broken edit meant to hide stays hidden.
 */
export class LiveSchema {
  private stamp: string | undefined | null;
  private schema: Schema;
  private told: string | undefined;

  constructor(
    private readonly root: string,
    initial: Schema,
    private readonly log: (line: string) => void = () => undefined,
  ) {
    this.schema = initial;
    // The initial schema is the one on disk now: read again only after a change.
    this.stamp = stateFileStamp(this.file());
  }

  current(): Schema {
    const stamp = stateFileStamp(this.file());
    if (stamp === this.stamp) return this.schema;
    this.stamp = stamp;
    try {
      const text = readFileSync(this.file(), 'utf8');
      if (text !== this.schema.text) this.schema = parseSchema(text);
      this.told = undefined;
    } catch (error) {
      const why = (error as Error).message;
      if (why !== this.told) this.log(`wiki: schema.md changed but cannot be read (${why}); keeping the levels and types read before`);
      this.told = why;
    }
    return this.schema;
  }

  private file(): string {
    return path.join(this.root, SCHEMA_FILE);
  }
}
