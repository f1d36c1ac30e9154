import path from 'node:path';
import { z } from 'zod';
import { ConfigError, UsageError } from '../../errors.js';
import { isValidRunId } from '../../state/history.js';
import { isWikiPage } from '../../state/write-places.js';
import { ConfinedIo, type WritePlace } from '../../confine/confined-io.js';
import { claimSchema, type StaleClaim } from '../../state/stale-claims.js';

/**
 * A proposal: what one run under `--review` would have changed in wiki/, kept instead of
 * written. Each page holds the text it had when the run read it (`before`) and the run's
 * text (`after`), so accepting it can tell whether the page changed on disk since.
 * Proposals are not derived state: only the paid run that made them can make them again.
 */
export type PageChangeKind = 'created' | 'updated' | 'removed';

export interface ProposedPage {
  path: string;
  change: PageChangeKind;
  /** The page when the run began (absent for a created page). */
  before?: string | undefined;
  /** The page as the run left it (absent for a removed page). */
  after?: string | undefined;
}

export interface Proposal {
  version: 1;
  /** The run id of the run that made it. */
  id: string;
  /** `ingest`, `query` or `lint`. */
  command: string;
  title: string;
  /** ISO timestamp. */
  created: string;
  /** Whose proposal it is (`--user`): only they see, accept or reject it. */
  user?: string | undefined;
  /**
   * An ingest's source: recorded as ingested once its source page is accepted; `pages` are
   * those the run wrote from it (its stale marks aside), recorded as such when they land.
   */
  source?: { path: string; sha256: string; pages?: { created: string[]; updated: string[] } } | undefined;
  /** The run's own log lines (what it did), carried into the log entry of an accept. */
  log: string[];
  pages: ProposedPage[];
  /**
   * What the command does besides its pages, done only when the proposal is accepted (whole:
   * such a proposal is accepted or rejected all at once): `wiki rm`'s raw files, record and
   * facts; a renamed source's record.
   */
  effects?: ProposalEffect[] | undefined;
}

export type ProposalEffect =
  /** `sha256`: each source as it was when the removal was proposed (a source changed since is not removed unseen). */
  | { kind: 'remove-sources'; sources: string[]; sha256?: Record<string, string> }
  | { kind: 'rename-sources'; renames: Array<{ from: string; to: string }> }
  /** A changed source's sentences still citing changed lines: recorded for the pages that land holding them. */
  | { kind: 'stale-claims'; source: string; claims: StaleClaim[] }
  /** The pages' citations of a changed source moved to its version `sha256` without a model (`wiki lint --fix`): recorded in the ingest record. */
  | { kind: 'follow-source'; source: string; sha256: string };

/** Effects that make a proposal one change, accepted or rejected whole (a stale-claims record follows whatever lands). */
export function bindsWhole(effect: ProposalEffect): boolean {
  return effect.kind !== 'stale-claims';
}

/** A source path as the tool writes it: under raw/, `/`-separated, no `.` or `..` step. */
const rawSource = z
  .string()
  .refine((p) => p.startsWith('raw/') && !p.includes('\\') && !p.includes('\0') && p.split('/').every((step) => step !== '' && step !== '.' && step !== '..'), 'a source path under raw/');

const effectSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('remove-sources'), sources: z.array(rawSource).min(1), sha256: z.record(rawSource, z.string().regex(/^[0-9a-f]{64}$/)).optional() }).strict(),
  z.object({ kind: z.literal('rename-sources'), renames: z.array(z.object({ from: rawSource, to: rawSource }).strict()).min(1) }).strict(),
  z.object({ kind: z.literal('stale-claims'), source: rawSource, claims: z.array(claimSchema) }).strict(),
  z.object({ kind: z.literal('follow-source'), source: rawSource, sha256: z.string().regex(/^[0-9a-f]{64}$/) }).strict(),
]);

const pageSchema = z
  .object({
    path: z.string().refine(isWikiPage, 'a page path under wiki/'),
    change: z.enum(['created', 'updated', 'removed']),
    before: z.string().optional(),
    after: z.string().optional(),
  })
  .strict()
  .refine((p) => (p.change === 'removed' ? p.after === undefined : p.after !== undefined), 'after is given unless the page is removed')
  .refine((p) => (p.change === 'created' ? p.before === undefined : p.before !== undefined), 'before is given unless the page is created');

const proposalSchema = z
  .object({
    version: z.literal(1),
    id: z.string().refine(isValidRunId, 'a run id'),
    command: z.string().regex(/^[a-z-]+$/),
    title: z.string(),
    created: z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'an ISO time'),
    user: z.string().regex(/^[a-z0-9][a-z0-9_-]*$/).optional(),
    source: z
      .object({
        path: z.string(),
        sha256: z.string().regex(/^[0-9a-f]{64}$/),
        pages: z.object({ created: z.array(z.string().refine(isWikiPage)), updated: z.array(z.string().refine(isWikiPage)) }).strict().optional(),
      })
      .strict()
      .optional(),
    log: z.array(z.string()),
    pages: z.array(pageSchema),
    effects: z.array(effectSchema).optional(),
  })
  .strict();

/** The default folder: local machine state, never committed. */
export const DEFAULT_PROPOSALS_FOLDER = '.wiki/proposals';

/** Where proposals of a workspace live, and the one writer allowed there. */
export class ProposalStore {
  readonly folder: string;
  private readonly io: ConfinedIo;

  constructor(
    readonly root: string,
    /** Workspace-relative (config `reviewFolder`). */
    relFolder: string = DEFAULT_PROPOSALS_FOLDER,
  ) {
    this.folder = relFolder.replace(/\/+$/, '');
    const place: WritePlace = { what: `proposals are written only under ${this.folder}/`, allows: (rel) => rel.startsWith(`${this.folder}/`) && rel.endsWith('.json') };
    this.io = new ConfinedIo(root, { place });
  }

  private fileOf(id: string): string {
    if (!isValidRunId(id)) throw new UsageError(`no proposal "${id}"`, 'list the waiting ones with `wiki review`');
    return path.join(this.root, this.folder, `${id}.json`);
  }

  async save(proposal: Proposal): Promise<void> {
    await this.io.write(this.fileOf(proposal.id), `${JSON.stringify(proposal, null, 2)}\n`);
  }

  async remove(id: string): Promise<void> {
    await this.io.remove(this.fileOf(id));
  }

  /** The proposal, or undefined when there is none by that id. A file not as written is refused, never half-read. */
  async load(id: string): Promise<Proposal | undefined> {
    const file = this.fileOf(id);
    const bytes = await this.io.readIfExists(file);
    if (bytes === undefined) return undefined;
    return parseProposal(bytes.toString('utf8'), `${this.folder}/${id}.json`);
  }

  /** Every waiting proposal, oldest first. */
  async list(): Promise<Proposal[]> {
    const dir = path.join(this.root, this.folder);
    let entries;
    try {
      entries = await this.io.list(dir);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return [];
      throw error;
    }
    const proposals: Proposal[] = [];
    for (const entry of entries) {
      if (entry.kind !== 'file' || !entry.name.endsWith('.json')) continue;
      const id = entry.name.slice(0, -'.json'.length);
      if (!isValidRunId(id)) continue;
      const proposal = await this.load(id);
      if (proposal) proposals.push(proposal);
    }
    return proposals.sort((a, b) => (a.created < b.created ? -1 : a.created > b.created ? 1 : a.id < b.id ? -1 : 1));
  }
}

export function parseProposal(text: string, label: string): Proposal {
  const fix = `delete ${label} (the proposal is lost) or restore it from where it was committed`;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${label}: not valid JSON (${(error as Error).message})`, fix);
  }
  const parsed = proposalSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(`${label}: not a proposal (${issue ? `${issue.path.join('.')}: ${issue.message}` : 'invalid'})`, fix);
  }
  const proposal = parsed.data as Proposal;
  if (label.endsWith('.json') && path.basename(label, '.json') !== proposal.id) throw new ConfigError(`${label}: holds proposal ${proposal.id}, not its own`, fix);
  return proposal;
}

/** Whether `user` may see and act on `proposal`: a team proposal is everyone's, a user's only theirs. */
export function isVisibleTo(proposal: Proposal, user: string | undefined): boolean {
  return proposal.user === undefined || proposal.user === user;
}
