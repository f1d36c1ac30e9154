import type { ToolContext } from './context.js';
import { errorOutcome, failure } from './define.js';
import { normalizeWorkspacePath } from '../confine/paths.js';
import type { CheckedPage } from './page-write.js';
import type { ToolOutcome, TurnCall } from '../agent/tool.js';
import { checkPage, commitPage, isAnswer, placePage, refusePage, writeRequest, type PlacedPage, type WriteFileArgs, type WriteRequest } from './whole-page-write.js';
import { answerRefusals, explainedLinks, listKeys, missingLinkKey, refusedLinkNote, refusedThrough, withoutPendingLinks, type RefusedWrite } from './refused-links.js';
import { keyFromPath } from '../wiki/keys.js';
import { parsePage } from '../wiki/page.js';

/**
 * The write_file calls of one answer, which may link to each other.
 *
 * Each call is checked when its turn comes, as always. A call refused only because it links
 * to keys that write_file calls of the same answer still to be answered would write is held
 * instead (it would pass with those keys counted as existing). Once the answer's other calls
 * have run, the held calls are checked again in call order, each when every same-answer page
 * it links to has been written or refused, against the wiki as it then is: repeated while
 * one lands. What is left links in a circle (or to such a circle): those pages are checked
 * together, each with the others counted as existing pages (links, keys, titles), the ones
 * that fail refused and the rest checked again, until all of the rest pass; they are then
 * all written. So a page is written only once every page of the answer it links to is, and
 * nothing is written half-linked.
 *
 * A call whose path a later call of the answer also names is never held (which version
 * lands, or what a read of it shows, would otherwise depend on the holding); one whose path
 * only earlier calls name (an append, then edits) may be. A call that could not be held is
 * told which later calls of the answer write the pages it links to, and to send it again.
 */
export function openWriteTurn(ctx: ToolContext, calls: readonly TurnCall[]) {
  return new WriteTurn(ctx, calls);
}

/** A held call: what it asks (placed again when it is written), and the same-answer keys it waits for. */
interface Held {
  index: number;
  path: string;
  request: WriteRequest;
  key: string;
  awaits: ReadonlySet<string>;
}

class WriteTurn {
  /** Key of every write_file call of the answer, by call index. */
  private readonly keys = new Map<number, string>();
  /** Calls whose path no later call of the answer names: only those may be held. */
  private readonly holdable = new Set<number>();
  /** Calls that may not be held, with the later call that names their path. */
  private readonly namedLater = new Map<number, number>();
  private readonly answered = new Set<number>();
  /** In call order (calls run in call order). */
  private readonly held = new Map<number, Held>();
  /** Same-answer pages by key: written, or refused (with the paths asked for). */
  private readonly written = new Set<string>();
  private readonly refused: Map<string, RefusedWrite>;

  constructor(
    private readonly ctx: ToolContext,
    calls: readonly TurnCall[],
  ) {
    this.refused = answerRefusals(calls);
    const paths = new Map<number, string>();
    for (const call of calls) {
      const path = call.args?.path;
      if (typeof path !== 'string') continue;
      try {
        paths.set(call.index, normalizeWorkspacePath(path));
      } catch {
        // A path the sandbox refuses: that call is refused when it runs, and writes no page.
      }
    }
    const lastUse = new Map<string, number>();
    for (const [index, path] of paths) lastUse.set(path, Math.max(lastUse.get(path) ?? index, index));
    for (const call of calls) {
      const path = paths.get(call.index);
      if (call.name !== 'write_file' || path === undefined) continue;
      this.keys.set(call.index, keyFromPath(path));
      const last = lastUse.get(path) ?? call.index;
      if (last === call.index) this.holdable.add(call.index);
      else this.namedLater.set(call.index, last);
    }
  }

  async run(index: number, args: WriteFileArgs, signal?: AbortSignal): Promise<ToolOutcome | undefined> {
    let outcome: ToolOutcome | Held;
    try {
      const request = writeRequest(args);
      outcome = isAnswer(request) ? request : await this.attempt(index, args.path, request, signal);
    } catch (error) {
      outcome = errorOutcome('write_file', error);
    }
    if ('awaits' in outcome) {
      this.held.set(index, outcome);
      return undefined;
    }
    this.answered.add(index);
    this.record(this.keys.get(index), args.path, outcome);
    return outcome;
  }

  async settle(signal?: AbortSignal): Promise<ReadonlyMap<number, ToolOutcome>> {
    const answers = new Map<number, ToolOutcome>();
    if (signal?.aborted === true) {
      for (const held of this.held.values()) {
        answers.set(held.index, failure(`not written: ${held.path} was to be written after ${listKeys(held.awaits)} of this answer, and the run was interrupted first`));
      }
      this.held.clear();
      return answers;
    }
    for (let progress = true; progress; ) {
      progress = false;
      for (const held of [...this.held.values()]) {
        if (this.waitsOnHeld(held)) continue;
        this.held.delete(held.index);
        answers.set(held.index, await this.writeAlone(held, signal));
        progress = true;
      }
    }
    if (this.held.size > 0) {
      for (const [index, outcome] of await this.writeTogether([...this.held.values()], signal)) answers.set(index, outcome);
      this.held.clear();
    }
    return answers;
  }

  /** Check a call now: its answer, or a hold when only links to pages later calls write stand in its way. */
  private async attempt(index: number, path: string, request: WriteRequest, signal?: AbortSignal): Promise<ToolOutcome | Held> {
    const page = await placePage(this.ctx, path, request);
    if (isAnswer(page)) return page;
    const checked = await checkPage(this.ctx, page);
    if (checked.verdict.ok) return commitPage(this.ctx, page, checked, signal);
    const pending = this.linkedKeys(page, this.pendingKeys(index));
    const awaits = this.holdable.has(index) ? pending : new Set<string>();
    if (awaits.size > 0 && (await checkPage(this.ctx, page, { linkKeys: awaits })).verdict.ok) {
      return { index, path, request, key: page.key, awaits };
    }
    const [errors, extra] = withoutPendingLinks(checked.verdict.errors, awaits);
    const later = this.namedLater.get(index);
    // Only links that are missing now and that later calls write: a link to a page that exists already is no reason (a played note named such links).
    const missingPending = [...pending].filter((key) => checked.verdict.errors.some((error) => missingLinkKey(error) === key));
    if (later !== undefined && missingPending.length > 0) {
      // Its links are not its fault: a played answer's edits were told to "create the page" its own later calls wrote.
      const kept = checked.verdict.errors.filter((error) => !missingPending.includes(missingLinkKey(error) ?? ''));
      const note = `its links to ${listKeys(missingPending)} name pages later write_file calls of this answer write; it could not wait for them because call ${later + 1} of this answer also names ${path}: once they are written, send it again for those links`;
      return this.refuse(page, kept, [note]);
    }
    return this.refuse(page, errors, extra);
  }

  /**
   * Refuse a page; a link to a page an earlier call of this answer was refused is said to be
   * broken for that reason, naming that call (a played answer's sibling page was told to
   * "create the page … or remove the link", which invites dropping a good link).
   */
  private refuse(page: PlacedPage, errors: readonly string[], extra: readonly string[] = []): ToolOutcome {
    const { kept, keys } = explainedLinks(errors, (key) => !this.written.has(key) && this.refused.has(key));
    const notes = keys.map((key) => {
      const refused = this.refused.get(key);
      return refusedLinkNote(key, refused?.paths ?? [], refused?.reason);
    });
    return refusePage(page, kept, [...notes, ...extra]);
  }

  /** A held call whose same-answer pages are all settled: checked against the wiki as it is now. */
  private async writeAlone(held: Held, signal?: AbortSignal): Promise<ToolOutcome> {
    let outcome: ToolOutcome;
    try {
      const page = await placePage(this.ctx, held.path, held.request);
      if (isAnswer(page)) {
        outcome = page;
      } else {
        const checked = await checkPage(this.ctx, page);
        const after = [...held.awaits].filter((key) => this.written.has(key));
        outcome = checked.verdict.ok
          ? await commitPage(this.ctx, page, checked, signal, `written after the pages it links to that this answer wrote (${listKeys(after)})`)
          : this.refuse(page, checked.verdict.errors);
      }
    } catch (error) {
      outcome = errorOutcome('write_file', error);
    }
    this.record(held.key, held.path, outcome);
    return outcome;
  }

  /**
   * Pages that link to each other (or to such pages): checked together, each with the others
   * counted as existing; a page that fails is refused and the pages linking to it checked
   * again without it, until every page left passes. Those are then written, in call order.
   */
  private async writeTogether(members: readonly Held[], signal?: AbortSignal): Promise<Map<number, ToolOutcome>> {
    const answers = new Map<number, ToolOutcome>();
    let group: Array<{ held: Held; page: PlacedPage; checked?: CheckedPage }> = [];
    for (const held of members) {
      try {
        const page = await placePage(this.ctx, held.path, held.request);
        if (isAnswer(page)) this.answer(answers, held, page);
        else group.push({ held, page });
      } catch (error) {
        this.answer(answers, held, errorOutcome('write_file', error));
      }
    }
    // Only the pages linking to a page just refused can change verdict: each round checks those again.
    let recheck = new Set(group.map((member) => member.held.index));
    while (recheck.size > 0) {
      const pages = group.map((member) => ({ path: member.page.target.relative, content: member.page.content }));
      const failed: typeof group = [];
      for (const member of group) {
        if (!recheck.has(member.held.index)) continue;
        member.checked = await checkPage(this.ctx, member.page, { pages });
        if (!member.checked.verdict.ok) failed.push(member);
      }
      for (const member of failed) {
        const errors = member.checked?.verdict.errors ?? [];
        this.answer(answers, member.held, this.refuse(member.page, errors));
      }
      group = group.filter((member) => !failed.includes(member));
      const gone = new Set(failed.map((member) => member.held.key));
      recheck = new Set(group.filter((member) => [...member.held.awaits].some((key) => gone.has(key))).map((member) => member.held.index));
    }
    const written: Array<{ held: Held; outcome: ToolOutcome }> = [];
    for (const { held, page, checked } of group) {
      const linked = group.filter((member) => member.held !== held && held.awaits.has(member.held.key)).map((member) => member.held.key);
      const when = `written together with the pages it links to that this answer wrote (${listKeys(linked)}): they link to each other, so they were checked as one group and every one passed`;
      const outcome = checked === undefined ? failure(`write_file failed, ${held.path} was not written: it was not checked`) : await commitPage(this.ctx, page, checked, signal, when);
      this.answer(answers, held, outcome);
      if (!outcome.isError) written.push({ held, outcome });
    }
    // A commit that failed (a full disk): the pages of the group already written link to it, which the model must know.
    const lost = group.filter(({ held }) => answers.get(held.index)?.isError === true).map(({ held }) => held.key);
    if (lost.length > 0) {
      for (const { held, outcome } of written) {
        const broken = [...held.awaits].filter((key) => lost.includes(key));
        if (broken.length === 0) continue;
        answers.set(held.index, { ...outcome, content: `${outcome.content}\nwarning: ${listKeys(broken)} could not be written, so this page's links to them are broken until they are` });
      }
    }
    return answers;
  }

  private answer(answers: Map<number, ToolOutcome>, held: Held, outcome: ToolOutcome): void {
    answers.set(held.index, outcome);
    this.record(held.key, held.path, outcome);
  }

  private record(key: string | undefined, path: string, outcome: ToolOutcome): void {
    if (key === undefined) return;
    if (!outcome.isError) {
      this.written.add(key);
      return;
    }
    const refused = this.refused.get(key) ?? { paths: [], reason: this.rootReason(firstReason(outcome.content)) };
    if (!refused.paths.includes(path)) refused.paths.push(path);
    this.refused.set(key, refused);
  }

  /**
   * A refusal's reason as the pages linking to it are told it: a page refused only for its
   * link to another refused page carries that page's own reason, not the note about it
   * (a played chain nested the notes and cut off the cause: "(its first reason: front…)").
   */
  private rootReason(reason: string | undefined): string | undefined {
    const through = reason === undefined ? undefined : refusedThrough(reason);
    if (through === undefined) return reason;
    const root = this.refused.get(through)?.reason;
    return `it links to [[${through}]], which was refused${root ? `: ${root}` : ''}`;
  }

  /** Keys that write_file calls of the answer other than `index` still have to write: calls not run yet, and held ones. */
  private pendingKeys(index: number): Set<string> {
    const pending = new Set<string>();
    for (const [other, key] of this.keys) {
      if (other !== index && !this.answered.has(other)) pending.add(key);
    }
    return pending;
  }

  /** The keys among `candidates` the page links to (body links and refs entries), other than its own. */
  private linkedKeys(page: PlacedPage, candidates: ReadonlySet<string>): Set<string> {
    const links = parsePage(page.target.relative, page.content, this.ctx.contract).links;
    return new Set(links.map((link) => link.target).filter((target) => target !== page.key && candidates.has(target)));
  }

  private waitsOnHeld(held: Held): boolean {
    for (const other of this.held.values()) {
      if (other !== held && held.awaits.has(other.key)) return true;
    }
    return false;
  }
}

/** A refusal's first reason, for the pages that link to the refused one. */
function firstReason(content: string): string | undefined {
  return content.split('\n').find((line) => line.startsWith('- '))?.slice(2);
}
