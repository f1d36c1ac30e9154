/** Compact token count: 950, 12.3k, 1.25M. */
export function formatTokens(count: number): string {
  if (count < 1000) return String(Math.round(count));
  // Below 999,950 so rounding never prints "1000k".
  if (count < 999_950) return `${trimZeros((count / 1000).toFixed(count < 10_000 ? 2 : 1))}k`;
  return `${trimZeros((count / 1_000_000).toFixed(count < 10_000_000 ? 2 : 1))}M`;
}

/** Estimated USD: cents for ordinary amounts, more digits for sub-cent ones so they are not "$0.00". */
export function formatCost(usd: number): string {
  if (usd === 0) return '$0.00';
  if (usd < 0.01) return `$${usd.toFixed(4)}`;
  return `$${usd.toFixed(2)}`;
}

/** 850 ms, 12.4 s, 3m 05s, 1h 02m. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`;
  const seconds = ms / 1000;
  if (seconds < 59.95) return `${seconds.toFixed(1)} s`;
  const totalSeconds = Math.round(seconds);
  const minutes = Math.floor(totalSeconds / 60);
  if (minutes < 60) return `${minutes}m ${String(totalSeconds % 60).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, '0')}m`;
}

/** "1 page" / "2 pages". */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

function trimZeros(fixed: string): string {
  return fixed.includes('.') ? fixed.replace(/\.?0+$/, '') : fixed;
}
