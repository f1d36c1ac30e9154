import type { Colors } from '../util/colors.js';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

export interface Spinner {
  /** The current frame, coloured. */
  glyph(): string;
  /** Stop advancing (safe to repeat). */
  stop(): void;
}

/**
 * The spinner of a live terminal line: every `intervalMs` it moves one frame and calls
 * `redraw`. Its timer does not keep the process alive.
 */
export function startSpinner(c: Colors, intervalMs: number, redraw: () => void): Spinner {
  let frame = 0;
  const timer = setInterval(() => {
    frame += 1;
    redraw();
  }, intervalMs);
  timer.unref();
  return {
    glyph: () => c.cyan(FRAMES[frame % FRAMES.length] ?? ''),
    stop: () => clearInterval(timer),
  };
}

/** The width a live line may use; read at every redraw, since the terminal may be resized during a long run. */
export function terminalColumns(fixed: number | undefined): number {
  return fixed ?? (process.stderr.columns || 80);
}
