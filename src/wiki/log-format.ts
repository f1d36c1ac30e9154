/**
 * log.md's entries, shaped so that git's own union merge (`.gitattributes` merge=union) keeps
 * two clones' entries whole. A union merge keeps once every line both sides added alike, so
 * an entry has no line another entry could share: it is two lines, the heading
 * `## [YYYY-MM-DD] op | title · run ID` and under it `- run: ID · detail · detail`, and
 * entries follow each other with no blank line between them (a blank separator is a shared
 * line; two merged headings with the same title became one). Two clones' entries merged are
 * then the same lines in the same shape as if one clone had written both.
 *
 * Entries written before this shape (a heading, `- run:` and one bullet per detail, blank
 * lines between) stay as they were: the log is never rewritten, and rewriting it would
 * conflict with a clone that has not yet run this version.
 */

/** An entry's heading in log.md: `## [YYYY-MM-DD] op | title`. */
export const LOG_HEADING = /^## \[(\d{4}-\d{2}-\d{2})\] ([^|\n]+?) \| (.+)$/;

/** The run id line every tool-written entry carries first under its heading, its details after ` · `. */
export const RUN_LINE = /^- run: (\S+)(?: · .*)?$/;

/** The run a heading names at its end (entries from before the merge-safe shape name none). */
const HEADING_RUN = / · run (\S+)$/;

export function headingRunId(title: string): string | undefined {
  return HEADING_RUN.exec(title)?.[1];
}

/** The title as the operation gave it, without the run the heading names. */
export function headingTitle(title: string): string {
  return title.replace(HEADING_RUN, '');
}

/**
 * The text of one entry. With a run id: the heading names it and the one detail line starts
 * with it, so no line can be another entry's. Without (an entry no run wrote, such as the
 * example's): the details on one line under the heading.
 */
export function formatEntry(date: string, op: string, title: string, lines: readonly string[], runId?: string): string {
  const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();
  const heading = `## [${date}] ${oneLine(op)} | ${oneLine(title)}${runId ? ` · run ${runId}` : ''}`;
  const details = [...(runId ? [`run: ${runId}`] : []), ...lines.map(oneLine).filter((line) => line !== '')];
  return `${heading}\n${details.length > 0 ? `- ${details.join(' · ')}\n` : ''}`;
}

/** What goes before an entry appended to `existing`: a line end when it lacks one, never a blank line. */
export function entryLead(existing: string): string {
  return existing === '' || existing.endsWith('\n') ? '' : '\n';
}
