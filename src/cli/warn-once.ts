/**
 * Provider SDKs print notices (a model's deprecation, for one) with console.warn on every
 * request; a run of forty model calls would print forty. A run shows each distinct notice
 * once: repeats of a message already printed are dropped.
 */
export function warnEachNoticeOnce(target: Pick<Console, 'warn'> = console): void {
  const original = target.warn.bind(target);
  const seen = new Set<string>();
  target.warn = (...args: unknown[]): void => {
    const key = args.map((arg) => (typeof arg === 'string' ? arg : String(arg))).join(' ');
    if (seen.has(key)) return;
    seen.add(key);
    original(...args);
  };
}
