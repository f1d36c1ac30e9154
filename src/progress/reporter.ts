import type { AgentEvent, AgentListener } from '../agent/events.js';
import { totalTokens } from '../agent/loop.js';
import type { ToolCall } from '../agent/types.js';
import type { Colors } from '../util/colors.js';
import { formatCost, formatTokens } from './format.js';
import { startSpinner, terminalColumns } from './spinner.js';

/** Where progress goes: the command's output (cli/Output satisfies it), stderr-side lines only. */
export interface ProgressOutput {
  readonly isTty: boolean;
  readonly c: Colors;
  /** Redraw the live status line (terminal only). */
  status(text: string): void;
  /** A line of its own. */
  info(text: string): void;
}

export interface ProgressOptions {
  /** The run's turn cap, shown as "turn 3/40" until the loop reports its own. */
  maxTurns: number;
  /** What the run is doing, e.g. "ingest raw/paper.pdf". */
  label: string;
  /** Width of the terminal for the live line; defaults to stderr's width, else 80. */
  columns?: number;
  /** Spinner frame interval in milliseconds (default 80). */
  intervalMs?: number;
  /** Plain lines start with `[label]` (runs side by side). */
  tagLines?: boolean;
}

export interface ProgressReporter {
  /** Pass as AgentOptions.listener. */
  listener: AgentListener;
  /** Print a line of its own without garbling the live status line. */
  note(line: string): void;
  /** Stop the spinner and clear the live line; call once the run is over (safe to repeat). */
  finish(): void;
}

const CLEAR_LINE = '\r\x1b[2K';
/** The argument that best says what a tool call is about, by preference. */
const SUBJECT_ARGUMENTS = ['path', 'query', 'url'];
const MAX_SUBJECT = 80;
/** Characters of the current activity kept however narrow the terminal. */
const MIN_ACTIVITY = 12;

/**
 * Progress for an agent run. On a terminal (out.isTty): one status line redrawn in place on
 * stderr with a spinner. Otherwise plain lines, one per tool call, so logs and cron mail stay
 * readable; with --quiet or --json nothing at all (Output drops the lines).
 */
export function createProgressReporter(out: ProgressOutput, options: ProgressOptions): ProgressReporter {
  return out.isTty ? liveReporter(out, options) : plainReporter(out, options);
}

/** Run `work` with a progress reporter for one run, finished however the run ends. */
export async function withProgress<R>(out: ProgressOutput, options: ProgressOptions, work: (listener: AgentListener) => Promise<R>): Promise<R> {
  const reporter = createProgressReporter(out, options);
  try {
    return await work(reporter.listener);
  } finally {
    reporter.finish();
  }
}

function liveReporter(out: ProgressOutput, options: ProgressOptions): ProgressReporter {
  const line = new RunLine(options.label, options.maxTurns);
  let finished = false;
  const draw = (): void => {
    if (finished) return;
    out.status(`${CLEAR_LINE}${spinner.glyph()} ${line.render(terminalColumns(options.columns) - 3)}`);
  };
  const spinner = startSpinner(out.c, options.intervalMs ?? 80, draw);
  draw();

  return {
    listener(event: AgentEvent): void {
      if (line.apply(event)) draw();
    },
    note(text: string): void {
      if (!finished) out.status(CLEAR_LINE);
      out.info(text);
      draw();
    },
    finish(): void {
      if (finished) return;
      spinner.stop();
      out.status(CLEAR_LINE);
      finished = true;
    },
  };
}

/** What one run's live line says: label, turn, current activity, tokens and cost so far. */
export class RunLine {
  private turn = 0;
  private activity = 'starting';
  private tokens = 0;
  private cost: number | undefined;

  constructor(
    readonly label: string,
    private maxTurns: number,
  ) {}

  /** Take in an event; true when the line changed. */
  apply(event: AgentEvent): boolean {
    switch (event.type) {
      case 'turn_start':
        this.turn = event.turn;
        this.maxTurns = event.maxTurns;
        this.activity = 'waiting for the model';
        return true;
      case 'run_start':
        this.maxTurns = event.maxTurns;
        return true;
      case 'tool_call':
        this.activity = describeCall(event.call);
        return true;
      case 'usage':
        this.tokens = totalTokens(event.total);
        this.cost = event.cost;
        return true;
      case 'follow_up':
        this.activity = firstLine(event.message);
        return true;
      case 'context_overflow':
        this.activity = event.retrying ? 'context too long, trimming and retrying' : 'context too long';
        return true;
      case 'run_end':
        this.activity = 'finishing';
        return true;
      default:
        return false;
    }
  }

  /** The line, at most `width` characters. */
  render(width: number): string {
    const head = [this.label, ...(this.turn > 0 ? [`turn ${this.turn}/${this.maxTurns}`] : [])];
    const tail = this.tokens > 0 ? [`${formatTokens(this.tokens)} tokens${this.cost === undefined ? '' : ` ~${formatCost(this.cost)}`}`] : [];
    // The activity gives way first, so the turn and token count stay visible on narrow terminals.
    const fixed = [...head, ...tail].reduce((n, part) => n + [...part].length, 0) + 3 * (head.length + tail.length);
    const room = width - fixed;
    const parts = [...head, truncateTo(this.activity, Math.max(room, MIN_ACTIVITY)), ...tail];
    return truncateTo(parts.join(' · '), width);
  }
}

function plainReporter(out: ProgressOutput, options: ProgressOptions): ProgressReporter {
  let maxTurns = options.maxTurns;
  // Runs side by side interleave their lines: each says whose it is.
  const tag = options.tagLines ? `[${options.label}] ` : '';
  return {
    listener(event: AgentEvent): void {
      switch (event.type) {
        case 'run_start':
          maxTurns = event.maxTurns;
          out.info(`${options.label}: ${event.model} (${event.provider}), up to ${event.maxTurns} turns`);
          break;
        case 'turn_start':
          maxTurns = event.maxTurns;
          break;
        case 'tool_call':
          out.info(`${tag}turn ${event.turn}/${maxTurns}: ${describeCall(event.call)}`);
          break;
        case 'tool_result':
          if (event.result.isError) out.info(`${tag}turn ${event.turn}/${maxTurns}: ${event.result.name} failed: ${firstLine(event.result.content)}`);
          break;
        case 'follow_up':
          out.info(`${tag}turn ${event.turn}/${maxTurns}: ${firstLine(event.message)}`);
          break;
        case 'context_overflow':
          out.info(`${tag}turn ${event.turn}/${maxTurns}: context too long for the model${event.retrying ? '; trimming and retrying' : ''}`);
          break;
        default:
          break;
      }
    },
    note(line: string): void {
      out.info(line);
    },
    finish(): void {
      // Nothing is animated, so nothing to stop.
    },
  };
}

/** "write_file wiki/concepts/attention.md", "search_wiki \"attention heads\"". */
export function describeCall(call: ToolCall): string {
  const args = call.arguments ?? {};
  for (const key of SUBJECT_ARGUMENTS) {
    const value = args[key];
    if (typeof value === 'string' && value.length > 0) {
      const subject = truncateTo(value.replace(/\s+/g, ' '), MAX_SUBJECT);
      return key === 'query' ? `${call.name} "${subject}"` : `${call.name} ${subject}`;
    }
  }
  return call.name;
}

function firstLine(text: string): string {
  return truncateTo((text.split('\n').find((line) => line.trim() !== '') ?? '').trim(), 120);
}

/** Cut to `width` characters (code points), marking the cut with an ellipsis. */
export function truncateTo(text: string, width: number): string {
  const chars = [...text];
  if (chars.length <= width) return text;
  return `${chars.slice(0, Math.max(0, width - 1)).join('')}…`;
}
