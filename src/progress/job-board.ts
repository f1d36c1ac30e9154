import type { AgentEvent } from '../agent/events.js';
import { createProgressReporter, RunLine, type ProgressOutput, type ProgressReporter } from './reporter.js';
import { startSpinner, terminalColumns } from './spinner.js';

/** A terminal that can redraw a block of lines in place (cli/Output). */
export interface BoardOutput extends ProgressOutput {
  /** Replace the block last drawn with these lines (each made terminal-safe); [] clears it. */
  statusBlock(lines: string[]): void;
}

export interface JobBoardOptions {
  maxTurns: number;
  columns?: number;
  intervalMs?: number;
}

/**
 * Progress for runs side by side (`wiki ingest --jobs N`): on a terminal one live line per
 * running job, redrawn together; otherwise plain lines, each tagged with its job's source.
 */
export function createJobBoard(out: BoardOutput, options: JobBoardOptions): { reporterFor(label: string): ProgressReporter; finish(): void } {
  if (!out.isTty) {
    return {
      reporterFor: (label) => createProgressReporter(out, { maxTurns: options.maxTurns, label, tagLines: true }),
      finish: () => undefined,
    };
  }
  const lines = new Map<RunLine, true>();
  let finished = false;
  const draw = (): void => {
    if (finished) return;
    const glyph = spinner.glyph();
    out.statusBlock([...lines.keys()].map((line) => `${glyph} ${line.render(terminalColumns(options.columns) - 3)}`));
  };
  const spinner = startSpinner(out.c, options.intervalMs ?? 80, draw);

  return {
    reporterFor(label: string): ProgressReporter {
      const line = new RunLine(label, options.maxTurns);
      lines.set(line, true);
      draw();
      let done = false;
      return {
        listener(event: AgentEvent): void {
          if (line.apply(event)) draw();
        },
        note(text: string): void {
          out.statusBlock([]);
          out.info(text);
          draw();
        },
        finish(): void {
          if (done) return;
          done = true;
          lines.delete(line);
          draw();
        },
      };
    },
    finish(): void {
      if (finished) return;
      spinner.stop();
      out.statusBlock([]);
      finished = true;
    },
  };
}
