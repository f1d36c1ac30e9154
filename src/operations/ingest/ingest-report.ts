import type { CommandRunSettings } from '../run/command-settings.js';
import type { AgentListener } from '../../agent/events.js';
import type { Usage } from '../../agent/types.js';
import type { ExtractionReport } from '../../facts/extract.js';
import type { RunOutcome } from '../run/run-outcome.js';

/** What `wiki ingest` is asked (IngestOptions) and what it reports, per source and in all. */

export interface IngestOptions extends Omit<CommandRunSettings, 'listener'> {
  cwd: string;
  force: boolean;
  listenerFor?: (source: string) => AgentListener | undefined;
}

export interface SourceOutcome extends RunOutcome {
  source: string;
  state: 'new' | 'changed' | 'forced';
  copiedFrom?: string;
  url?: string;
  warnings: string[];
  staleMarked: string[];
  /** A changed source: citations moved with their lines, and sentences whose cited lines changed (left stale / settled by the run). */
  following?: { citationsMoved: number; staleClaims: number; settled: number; earlierKnown: boolean };
}

export interface IngestReport {
  ingested: SourceOutcome[];
  upToDate: string[];
  /** Sources not ingested because their pages already wait in a proposal (`wiki review`). */
  waiting?: Array<{ source: string; proposal: string }>;
  deletedSources: Array<{ source: string; staleMarked: string[] }>;
  /** Sources found under a new path with the same content: the record, `sources` and citations followed them, nothing re-ingested. */
  renamed?: Array<{ from: string; to: string; pages: string[] }>;
  /** Inputs that could not be read (binary, empty, a link out of the workspace…): reported, not ingested. */
  skipped: Array<{ source: string; reason: string }>;
  /** Files of a folder given that are not sources (an image, an archive…): listed once, with why; never pending. */
  unsupported: Array<{ path: string; reason: string }>;
  /** Unified diff of what would change (dry run only). */
  diff?: string;
  /** True when every run finished normally. */
  ok: boolean;
  interrupted: boolean;
  /**
   * New or changed sources not attempted because the command stopped early (interrupted,
   * the run's token or cost budget spent, the provider failing); the next run picks them up.
   */
  pending: string[];
  /** What fact extraction did over raw/ (absent in a dry run). */
  facts?: ExtractionReport;
  /** Why facts were not extracted: SQLite could not be loaded (and how to fix it). */
  factsUnavailable?: string;
  /** Model usage of every source run together; `cost` undefined when any run's price was unknown. */
  totals: { sources: number; usage: Usage; tokens: number; cost: number | undefined };
}
