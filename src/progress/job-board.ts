import type { AgentEvent } from '../agent/events.js';
import { createProgressReporter, FRAMES, RunLine, type ProgressOutput, type ProgressReporter } from './reporter.js';

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
  const columns = (): number => options.columns ?? (process.stderr.columns || 80);
  const lines = new Map<RunLine, true>();
  let frame = 0;
  let finished = false;
  const draw = (): void => {
    if (finished) return;
    const spinner = out.c.cyan(FRAMES[frame % FRAMES.length] ?? '');
    out.statusBlock([...lines.keys()].map((line) => `${spinner} ${line.render(columns() - 3)}`));
  };
  const timer = setInterval(() => {
    frame += 1;
    draw();
  }, options.intervalMs ?? 80);
  timer.unref();

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
      clearInterval(timer);
      out.statusBlock([]);
      finished = true;
    },
  };
}
