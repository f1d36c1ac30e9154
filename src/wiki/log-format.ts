/** An entry's heading in log.md: `## [YYYY-MM-DD] op | title`. */
export const LOG_HEADING = /^## \[(\d{4}-\d{2}-\d{2})\] ([^|\n]+?) \| (.+)$/;

/** The run id line every tool-written entry carries first, under its heading. */
export const RUN_LINE = /^- run: (\S+)$/;
