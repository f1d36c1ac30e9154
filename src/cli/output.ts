import pc from 'picocolors';
import { terminalSafe } from '../util/terminal-text.js';
import type { Colors } from '../util/colors.js';

export type { Colors } from '../util/colors.js';

export interface GlobalOptions {
  root?: string;
  json: boolean;
  quiet: boolean;
  color: boolean;
}

/**
 * Where a command's words go. Results go to stdout (one JSON document with --json);
 * progress and notices go to stderr so stdout stays machine-readable. Human text passes
 * through terminalSafe (no escape sequences from model or page text); JSON is left intact.
 */
export class Output {
  readonly json: boolean;
  readonly quiet: boolean;
  readonly c: Colors;
  readonly isTty: boolean;

  constructor(options: GlobalOptions, private readonly stdout = process.stdout, private readonly stderr = process.stderr) {
    this.json = options.json;
    this.quiet = options.quiet;
    this.isTty = Boolean(stderr.isTTY) && !options.json && !options.quiet;
    this.c = pc.createColors(options.color && !process.env.NO_COLOR && Boolean(stdout.isTTY || process.env.FORCE_COLOR));
  }

  /** The command's result: JSON when --json, otherwise the human rendering. */
  result(value: unknown, human: () => string): void {
    if (this.json) {
      this.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
      return;
    }
    const text = terminalSafe(human());
    if (text) this.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  }

  /** A progress or informational line; silent with --quiet or --json. */
  info(line: string): void {
    if (this.quiet || this.json) return;
    this.stderr.write(`${terminalSafe(line)}\n`);
  }

  /** Always shown on stderr (even with --quiet): something the user must know. */
  warn(line: string): void {
    this.stderr.write(`${this.c.yellow('warning:')} ${terminalSafe(line)}\n`);
  }

  /** Raw stderr write for live status lines. */
  status(text: string): void {
    if (this.isTty) this.stderr.write(terminalSafe(text));
  }

  /** Lines of the live block last drawn by statusBlock. */
  private blockLines = 0;

  /**
   * Redraw a block of live lines in place (one per job running): back to the first line of
   * the block drawn before, erase to the end of the screen, draw. Each line is made safe on
   * its own; only the cursor movement is ours.
   */
  statusBlock(lines: string[]): void {
    if (!this.isTty) return;
    const up = this.blockLines > 1 ? `\x1b[${this.blockLines - 1}A` : '';
    this.stderr.write(`${up}\r\x1b[J${lines.map((line) => terminalSafe(line).replace(/[\r\n]/g, ' ')).join('\n')}`);
    this.blockLines = lines.length;
  }
}
